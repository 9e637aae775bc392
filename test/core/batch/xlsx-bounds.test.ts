// The XLSX batch reader within fixed bounds (issue 25, contract §13.1), each hostile file refused with
// its own reason through readBatchTable (the worker, as the app and the CLI read): a 1.7 GB zip bomb in
// a 1.7 MB file (its headers lying or not), a million-row sheet, DOCTYPE/ENTITY in a sheet, the shared
// strings or the workbook, an undeclared `&xxe;`, a part or the whole unpacking past its cap, a giant
// cell, too much text, lying ZIP sizes; and the worker's own limits of time and memory.
import { beforeAll, describe, expect, it } from 'vitest';
import { BatchFileError } from '../../../src/core/batch/batch-file-error';
import { readBatchTable } from '../../../src/core/batch/batch-file-read';
import { readXlsxIsolated } from '../../../src/core/batch/xlsx-read-isolated';
import { MAX_BATCH_FILE_BYTES, MAX_BATCH_ROWS, type BatchFileProblem } from '../../../src/shared/batch-file';
import { MAX_XLSX_PART_BYTES } from '../../../src/shared/batch-file-bounds';
import { xlsx } from './batch-fixtures';
import { bombXlsx, chain, filler, ENTITY_SHEET, LAUGHS_STRINGS, manyRows, part, SHARED_SHEET, SHEET_END, SHEET_START, UNDECLARED_ENTITY_SHEET, workbookOf } from './hostile-xlsx';

async function refusal(bytes: Uint8Array): Promise<{ problem: BatchFileProblem; message: string }> {
  expect(bytes.byteLength).toBeLessThanOrEqual(MAX_BATCH_FILE_BYTES);
  try {
    await readBatchTable(bytes);
  } catch (error) {
    if (!(error instanceof BatchFileError)) throw error;
    return { problem: error.problem, message: error.message };
  }
  throw new Error('the file was read');
}

/** Text that deflates only ~20× (a pseudo-random number every 40 characters), in cells of `chars`. */
function* noisyCells(cells: number, chars: number, perRow: number): Generator<string> {
  let state = 7;
  yield `${SHEET_START}<row r="1"><c r="A1" t="inlineStr"><is><t>account</t></is></c></row>`;
  for (let i = 0; i < cells; i += 1) {
    let text = '';
    while (text.length < chars) {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      text += `abcdefghijklmnopqrstuvwxyz0123456789${state % 10_000}`;
    }
    const column = String.fromCharCode(65 + (i % perRow));
    const open = i % perRow === 0 ? `<row r="${2 + Math.floor(i / perRow)}">` : '';
    const close = i % perRow === perRow - 1 || i === cells - 1 ? '</row>' : '';
    yield `${open}<c r="${column}${2 + Math.floor(i / perRow)}" t="inlineStr"><is><t>${text}</t></is></c>${close}`;
  }
  yield SHEET_END;
}

let bomb: Uint8Array;
let lyingBomb: Uint8Array;

beforeAll(async () => {
  bomb = await bombXlsx(1700, false);
  lyingBomb = await bombXlsx(1700, true);
}, 120_000);

describe('XLSX batch files: zip bombs and size caps', { timeout: 180_000 }, () => {
  it('refuses a 1.7 GB bomb in a 1.7 MB file as soon as its ratio shows, whatever its headers declare', async () => {
    for (const file of [bomb, lyingBomb]) {
      const startedAt = Date.now();
      const { problem, message } = await refusal(file);
      expect(problem).toBe('compressionRatio');
      expect(message).toContain('xl/worksheets/sheet1.xml');
      expect(message).toContain('zip bomb');
      // Stopped after its first MiB or so, not after inflating 1.7 GB (which takes seconds by itself).
      expect(Date.now() - startedAt).toBeLessThan(15_000);
    }
  });

  it('refuses a part that unpacks past its cap, and parts that do together, counting the bytes really inflated', async () => {
    const big = await workbookOf(chain([SHEET_START], filler(MAX_XLSX_PART_BYTES / 1024 / 1024 + 1), [SHEET_END]));
    const one = await refusal(big);
    expect(one).toMatchObject({ problem: 'unzippedTooLarge' });
    expect(one.message).toContain('the XLSX part xl/worksheets/sheet1.xml unpacks to more than 32 MiB');
    // Styles, sheet and shared strings of 22 MiB each: every part under its cap, the three over 64 MiB.
    const all = await workbookOf(chain([`${SHEET_START}<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>0</v></c></row>`], filler(22, 2), [SHEET_END]), {
      styles: chain(['<styleSheet>'], filler(22, 3), ['</styleSheet>']),
      sharedStrings: chain(['<sst><si><t>x</t></si>'], filler(22, 4), ['</sst>']),
    });
    const whole = await refusal(all);
    expect(whole).toMatchObject({ problem: 'unzippedTooLarge' });
    expect(whole.message).toContain('more than 64 MiB in all');
  });

  it('never trusts the sizes a ZIP declares: a compressed size past the file, or short of the data, is unreadable', async () => {
    const sheet = await part('xl/worksheets/sheet1.xml', [`${SHEET_START}<row r="1"><c r="A1"><v>1</v></c></row>${SHEET_END}`]);
    const past = await workbookOf({ ...sheet, declaredCompressedSize: 5_000_000 });
    expect((await refusal(past)).problem).toBe('unreadableSpreadsheet');
    const short = await workbookOf({ ...sheet, declaredCompressedSize: 10 });
    expect((await refusal(short)).problem).toBe('unreadableSpreadsheet');
    // A part declared 100 times larger than it is changes nothing: it is read by what it holds.
    const table = await readBatchTable(await workbookOf(await part('xl/worksheets/sheet1.xml', [`${SHEET_START}<row r="1"><c r="A1"><v>1</v></c></row><row r="2"><c r="A2"><v>2</v></c></row>${SHEET_END}`], { declaredSize: 1 })));
    expect(table.rows).toEqual([{ rowNumber: 2, cells: ['2'] }]);
  });

  it('stops reading a million-row sheet at the row bound', async () => {
    const file = await workbookOf(manyRows(1_000_000));
    const startedAt = Date.now();
    const { problem, message } = await refusal(file);
    expect(problem).toBe('tooManyRows');
    expect(message).toContain(`more than ${MAX_BATCH_ROWS} rows`);
    expect(message).toMatch(/reading stopped at row \d+/);
    expect(Date.now() - startedAt).toBeLessThan(15_000);
  });

  it('refuses a single giant cell and more cell text than a batch needs', async () => {
    const giant = await refusal(await workbookOf(noisyCells(1, 1_200_000, 1)));
    expect(giant.problem).toBe('tooMuchText');
    expect(giant.message).toContain('more than 1048576 characters');
    const much = await refusal(await workbookOf(noisyCells(6000, 2900, 10)));
    expect(much.problem).toBe('tooMuchText');
    expect(much.message).toContain('characters of cell text');
  });
});

describe('XLSX batch files: XML entities', { timeout: 180_000 }, () => {
  it('refuses a DOCTYPE with an entity in the sheet, the shared strings or the workbook, and an undeclared &xxe;', async () => {
    const files = [
      await workbookOf([ENTITY_SHEET]),
      await workbookOf([SHARED_SHEET], { sharedStrings: [LAUGHS_STRINGS] }),
      await workbookOf([UNDECLARED_ENTITY_SHEET]),
      await workbookOf([SHARED_SHEET], { sharedStrings: ['<sst><si><t>a</t></si><si><t>b</t></si></sst>'], workbook: '<!DOCTYPE workbook SYSTEM "http://example.invalid/x.dtd"><workbook><sheets><sheet name="S" r:id="rId1"/></sheets></workbook>' }),
    ];
    const parts = ['xl/worksheets/sheet1.xml', 'xl/sharedStrings.xml', 'xl/worksheets/sheet1.xml', 'xl/workbook.xml'];
    for (const [index, file] of files.entries()) {
      const { problem, message } = await refusal(file);
      expect(problem).toBe('xmlEntity');
      expect(message).toContain(parts[index]);
      expect(message).toContain('refused for safety');
    }
  });
});

describe('XLSX batch files: the reader worker', { timeout: 180_000 }, () => {
  it('stops a read that takes longer than its time, and one that needs more memory than its heap', async () => {
    const legit = await xlsx(['account'], Array.from({ length: 5000 }, (_, i) => [`account-${i}-${'x'.repeat(200)}`]));
    const late = readXlsxIsolated(legit, { timeMs: 1, memoryMb: 128 });
    await expect(late).rejects.toMatchObject({ problem: 'readTimeout' });
    const starved = readXlsxIsolated(legit, { timeMs: 60_000, memoryMb: 8 });
    await expect(starved).rejects.toMatchObject({ problem: 'readOutOfMemory' });
    // This process is untouched, and the same file reads within the real limits.
    expect((await readBatchTable(legit)).rows).toHaveLength(5000);
  });
});
