// Reading a batch file (contract §13.1): CSV in UTF-8, UTF-8 with BOM and GB18030 (what Chinese
// Excel writes), XLSX; quoted fields with commas, quotes and newlines inside cells, CRLF; and a clear
// BatchFileError for an empty file, a header-only file, binary junk, a broken workbook, a file over
// the size bound and one over the row bound.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BatchFileError } from '../../../src/core/batch/batch-file-error';
import { readBatchTable } from '../../../src/core/batch/batch-file-read';
import { csvText } from '../../../src/core/export/csv-writer';
import { MAX_BATCH_FILE_BYTES, MAX_BATCH_ROWS, type BatchFileProblem } from '../../../src/shared/batch-file';
import { gb18030, utf8, utf8Bom, xlsx } from './batch-fixtures';

const CHINESE = '手机号,数量,备注\r\n13800138000,2,张三的号码\r\n"139 0013 9000",1,"李四, 北京"\r\n';

async function refusal(bytes: Uint8Array): Promise<BatchFileProblem> {
  try {
    await readBatchTable(bytes);
  } catch (error) {
    expect(error).toBeInstanceOf(BatchFileError);
    return (error as BatchFileError).problem;
  }
  throw new Error('the file was read');
}

describe('batch file reader', () => {
  it('reads the same table from UTF-8, UTF-8 with BOM and GB18030 bytes, and says which it was', async () => {
    const expected = {
      header: ['手机号', '数量', '备注'],
      rows: [
        { rowNumber: 2, cells: ['13800138000', '2', '张三的号码'] },
        { rowNumber: 3, cells: ['139 0013 9000', '1', '李四, 北京'] },
      ],
    };
    for (const [bytes, encoding] of [
      [utf8(CHINESE), 'utf-8'],
      [utf8Bom(CHINESE), 'utf-8-bom'],
      [gb18030(CHINESE), 'gb18030'],
    ] as const) {
      const table = await readBatchTable(bytes);
      expect(table).toMatchObject({ format: 'csv', encoding, ...expected });
    }
    // The GB18030 bytes are not valid UTF-8: the fallback was really taken.
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(gb18030(CHINESE))).toThrow();
  });

  it('keeps quoted fields whole: commas, doubled quotes and newlines inside a cell, CRLF between records', async () => {
    const text = 'account,note\r\n"a,1","he said ""hi"""\r\n"line1\r\nline2",plain\r\n\r\nlast,"x\ny"';
    const table = await readBatchTable(utf8(text));
    expect(table.header).toEqual(['account', 'note']);
    expect(table.rows.map((row) => row.cells)).toEqual([
      ['a,1', 'he said "hi"'],
      ['line1\r\nline2', 'plain'],
      ['last', 'x\ny'],
    ]);
    // Row numbers are the file's records (the blank one counted), so the buyer can find the row.
    expect(table.rows.map((row) => row.rowNumber)).toEqual([2, 3, 5]);
  });

  it('takes ; or TAB as the delimiter when the header uses it', async () => {
    expect((await readBatchTable(utf8('a;b\n1;2\n'))).rows[0]?.cells).toEqual(['1', '2']);
    expect((await readBatchTable(utf8('a\tb\n1,5\t2\n'))).rows[0]?.cells).toEqual(['1,5', '2']);
  });

  it('reads an XLSX workbook: text as written, numbers as the text the sheet stores, empty rows skipped', async () => {
    const bytes = await xlsx(['手机号', 'units', 'note'], [['13800138000', '3', '带,逗号\n和换行'], [null, null, null], ['13900139000', { fen: 250 }, null]]);
    const table = await readBatchTable(bytes);
    expect(table.format).toBe('xlsx');
    expect(table.header).toEqual(['手机号', 'units', 'note']);
    expect(table.rows).toEqual([
      { rowNumber: 2, cells: ['13800138000', '3', '带,逗号\n和换行'] },
      { rowNumber: 4, cells: ['13900139000', '2.50', ''] },
    ]);
  });

  it('refuses what is not a batch with a clear problem, never a partial table', async () => {
    expect(await refusal(new Uint8Array(0))).toBe('empty');
    expect(await refusal(utf8('\r\n\r\n  ,  \r\n'))).toBe('empty');
    expect(await refusal(utf8('account,units\r\n'))).toBe('headerOnly');
    expect(await refusal(utf8Bom('手机号\r\n\r\n'))).toBe('headerOnly');
    const junk = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256);
    expect(await refusal(junk)).toBe('notATable');
    expect(await refusal(Uint8Array.from([0x50, 0x4b, 0x03, 0x04, ...junk.slice(0, 200)]))).toBe('unreadableSpreadsheet');
    expect(await refusal(new Uint8Array(MAX_BATCH_FILE_BYTES + 1).fill(0x61))).toBe('tooLarge');
    expect(await refusal(utf8(`a\n${'1\n'.repeat(MAX_BATCH_ROWS + 1)}`))).toBe('tooManyRows');
    expect(await refusal(utf8(`${Array.from({ length: 101 }, (_, i) => `c${i}`).join(',')}\n1\n`))).toBe('tooManyColumns');
    expect(await refusal(utf8('a,b\n"unterminated,1\n'))).toBe('badCsv');
  });

  it('reads back any table the app writes as CSV (property)', async () => {
    const cell = fc.string({ unit: fc.constantFrom('a', 'Z', '1', ',', '"', '\n', '\r\n', ' ', '手', '机', '；', '\t') }).filter((text) => !/^[=+\-@\t\r]/.test(text));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(cell, { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 20 }), async (rows) => {
        const filled = rows.map((row) => [`r${rows.indexOf(row)}`, ...row.slice(1)]);
        const text = csvText({ sheetName: 's', headers: ['id', 'b', 'c'], rows: filled });
        const table = await readBatchTable(utf8(text));
        expect(table.rows.map((row) => row.cells)).toEqual(filled);
      }),
      { numRuns: 60 },
    );
  });
});
