// A batch CSV with invalid bytes (contract §13.1, issue 25): refused by default with the line and
// column of the first and how many rows hold them; read with `markRows`, those rows are marked
// INVALID_BYTES and never checked or ordered while the others pass; a header with invalid bytes is
// refused either way; a quoted cell over two lines is one row. And core's second line of defence:
// an entry value holding U+FFFD, a lone surrogate, a noncharacter or a control character is refused.
import { describe, expect, it } from 'vitest';
import { BatchFileError } from '../../../src/core/batch/batch-file-error';
import { readBatchTable } from '../../../src/core/batch/batch-file-read';
import { previewBatch } from '../../../src/core/batch/batch-preview';
import { PurchaseValidationError } from '../../../src/core/orders/order-errors';
import { validatePurchase } from '../../../src/core/orders/purchase-validation';
import type { PurchaseTemplate } from '../../../src/shared/merchant/template';
import { gb18030, utf8 } from './batch-fixtures';

const TEMPLATE: PurchaseTemplate = {
  productRef: 7,
  variantRef: 0,
  productType: 'topup',
  purchaseSchemaRevision: 3,
  entryMode: 'single',
  purchaseFields: [{ fieldRef: 'account', label: '游戏账号', type: 'text', required: true, pattern: null, minLength: null, maxLength: null, options: null, placeholder: null, sensitive: true }],
  unitRule: { min: 1, max: 10, step: 1 },
};

const join = (...parts: (Uint8Array | readonly number[])[]): Uint8Array => Uint8Array.from(parts.flatMap((part) => [...part]));
/** The file: GB18030 with two accounts whose bytes were cut (a lead byte before the comma). */
const BROKEN_GB = join(gb18030('游戏账号,数量\r\n玩家甲,1\r\n玩家'), [0xcd], gb18030(',2\r\n玩家丙,1\r\n"玩家'), [0xb0], gb18030('",3\r\n'));

async function refusal(bytes: Uint8Array, choice: 'refuse' | 'markRows' = 'refuse'): Promise<BatchFileError> {
  try {
    await readBatchTable(bytes, choice);
  } catch (error) {
    if (error instanceof BatchFileError) return error;
    throw error;
  }
  throw new Error('the file was read');
}

describe('a batch CSV with invalid bytes', () => {
  it('is refused with the encoding, the line and column of the first invalid bytes and how many rows hold them', async () => {
    const error = await refusal(BROKEN_GB);
    expect(error.problem).toBe('invalidBytes');
    expect(error.detail).toEqual({ encoding: 'gb18030', line: 3, column: 3, rows: 2, header: false });
    expect(error.message).toBe('the file is not valid GB18030 text: invalid bytes at line 3, column 3; 2 rows hold invalid bytes (3, 5)');
  });

  it('with markRows, marks those rows and checks the others: only they can be ordered', async () => {
    const table = await readBatchTable(BROKEN_GB, 'markRows');
    expect(table.invalidBytes).toEqual({ encoding: 'gb18030', rows: 2 });
    expect(table.rows.map((row) => [row.rowNumber, row.invalidBytes ?? null])).toEqual([
      [2, null],
      [3, { line: 3, column: 3 }],
      [4, null],
      [5, { line: 5, column: 4 }],
    ]);
    const preview = previewBatch({ table, template: TEMPLATE, mapping: { account: '游戏账号', '@units': '数量' }, unitPriceFen: 100 });
    expect(preview.rows.map((row) => [row.rowNumber, row.errors.map((e) => e.code), row.purchaseEntries])).toEqual([
      [2, [], [{ account: '玩家甲' }]],
      [3, ['INVALID_BYTES'], null],
      [4, [], [{ account: '玩家丙' }]],
      [5, ['INVALID_BYTES'], null],
    ]);
    expect(preview.rows[1]?.errors[0]).toMatchObject({ path: 'file', line: 3, column: 3, message: 'invalid GB18030 bytes at line 3, column 3' });
    expect(preview.totals).toEqual({ rows: 4, ok: 2, withErrors: 2, units: 2, totalFen: 200 });
  });

  it('finds the row of a quoted cell over two lines by where its bytes are, not by its first line', async () => {
    const bytes = join(utf8('账号,数量\n"第一行\n第二'), [0xe4, 0xb8], utf8('行",1\n好,1\n'));
    const table = await readBatchTable(bytes, 'markRows');
    expect(table.rows.map((row) => [row.rowNumber, row.invalidBytes ?? null])).toEqual([
      [2, { line: 3, column: 3 }],
      [3, null],
    ]);
  });

  it('refuses a header with invalid bytes even when the buyer chose to mark rows (columns are found by name)', async () => {
    const bytes = join(gb18030('游戏'), [0xff], gb18030('账号,数量\r\n玩家甲,1\r\n'));
    for (const choice of ['refuse', 'markRows'] as const) {
      const error = await refusal(bytes, choice);
      expect(error.detail).toMatchObject({ header: true, line: 1, column: 3, rows: 0 });
    }
  });

  it('leaves XLSX and valid CSV files as they were', async () => {
    const table = await readBatchTable(utf8('账号,数量\n甲,1\n'), 'markRows');
    expect(table.invalidBytes).toBeUndefined();
    expect(table.rows[0]?.invalidBytes).toBeUndefined();
  });
});

describe('entry values no account holds (core, before any intent)', () => {
  const order = (account: string): Record<string, string>[] => validatePurchase(TEMPLATE, { units: 1, purchaseEntries: [{ account }] });
  const codeOf = (account: string): string[] => {
    try {
      order(account);
      return [];
    } catch (error) {
      if (!(error instanceof PurchaseValidationError)) throw error;
      return error.errors.map((e) => `${e.code} ${e.message}`);
    }
  };

  it('refuses U+FFFD, a lone surrogate, a noncharacter, C0 and C1 control characters, saying which and where', () => {
    expect(codeOf('玩家\uFFFD\uFFFD')).toEqual(['INVALID_CHARACTERS 游戏账号: holds a replacement character (U+FFFD: the text was decoded from broken bytes) at character 3']);
    expect(codeOf('ab\uD800c')).toEqual(['INVALID_CHARACTERS 游戏账号: holds a broken UTF-16 character (an unpaired surrogate) at character 3']);
    expect(codeOf('a\uDC00')[0]).toMatch(/unpaired surrogate/);
    expect(codeOf('a\uFFFE')[0]).toMatch(/noncharacter/);
    expect(codeOf('a\u0001b')[0]).toMatch(/control character at character 2/);
    expect(codeOf('a\u0085b')[0]).toMatch(/control character/);
    // A tab is white space, which an account id's cleaning drops (contract §5.1): never sent, never refused.
    expect(order('a\tb')).toEqual([{ account: 'ab' }]);
  });

  it('accepts text with supplementary ideographs and a tab that cleaning trims', () => {
    expect(order('玩家𠀀😀')).toEqual([{ account: '玩家𠀀😀' }]);
    expect(order('玩家甲\t')).toEqual([{ account: '玩家甲' }]);
  });
});
