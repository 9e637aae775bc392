// Option fields filled by label (contract §7.11 "Filled by label", §13.3): a batch row's zone cell may be
// the option's code, its label, or the label typed loosely (full-width, other case, spaces); the row's
// entries hold the code, its labels are the template's; a cell naming no option, or several, is an
// OPTION error naming the cell and the labels, and the row is never placed. validatePurchase (the dialog's
// and the CLI's check) does the same.
import { describe, expect, it } from 'vitest';
import { readBatchTable } from '../../../src/core/batch/batch-file-read';
import { duplicateRows } from '../../../src/core/batch/batch-duplicates';
import { previewBatch } from '../../../src/core/batch/batch-preview';
import { PurchaseValidationError } from '../../../src/core/orders/order-errors';
import { validatePurchase } from '../../../src/core/orders/purchase-validation';
import { UNITS_TARGET } from '../../../src/shared/batch-file';
import type { PurchaseTemplate } from '../../../src/shared/merchant/template';
import { gb18030, utf8, xlsx } from './batch-fixtures';

const ZONES = [
  { value: 'android-qq', label: '安卓QQ区' },
  { value: 'ios-qq', label: '苹果QQ区' },
  { value: 'android-wx', label: '安卓微信区' },
  { value: 'ios-wx', label: '苹果微信区' },
];

const templateWith = (options: readonly { value: string; label: string }[]): PurchaseTemplate => ({
  productRef: 9,
  variantRef: 0,
  productType: 'topup',
  purchaseSchemaRevision: 2,
  entryMode: 'single',
  purchaseFields: [
    { fieldRef: 'zone', label: '游戏区服', type: 'select', required: true, pattern: null, minLength: null, maxLength: null, options: [...options], placeholder: null, sensitive: false },
    { fieldRef: 'account', label: '游戏账号', type: 'text', required: true, pattern: null, minLength: 5, maxLength: 30, options: null, placeholder: null, sensitive: true },
  ],
  unitRule: { min: 1, max: 100, step: 1 },
});
const TEMPLATE = templateWith(ZONES);

const MAPPING = { zone: '区服', account: '账号', [UNITS_TARGET]: '数量' };
const CSV = [
  '区服,账号,数量',
  '苹果QQ区,player00001,1', // 2: the label
  'android-wx,player00002,2', // 3: the code
  '苹果ＱＱ区,player00003,1', // 4: full-width letters
  ' 安卓 微信区 ,player00004,1', // 5: spaces
  'IOS-WX,player00005,1', // 6: the code in capitals
  '苹果Q区,player00006,1', // 7: no such option
  ',player00007,1', // 8: empty
  '苹果QQ区,player00001,3', // 9: row 2 again, by label
  'ios-qq,player00001,1', // 10: row 2 again, by code
].join('\n');

async function preview(bytes: Uint8Array): Promise<ReturnType<typeof previewBatch>> {
  return previewBatch({ table: await readBatchTable(bytes), template: TEMPLATE, mapping: MAPPING, unitPriceFen: 500 });
}

describe('a batch file names options by label or code', () => {
  it('sends the code of a label, a code, and a label typed loosely; refuses a cell naming no option', async () => {
    const result = await preview(utf8(CSV));
    expect(result.rows.map((row) => [row.rowNumber, row.purchaseEntries?.[0]?.zone ?? null, row.errors.map((e) => `${e.path}:${e.code}`)])).toEqual([
      [2, 'ios-qq', []],
      [3, 'android-wx', []],
      [4, 'ios-qq', []],
      [5, 'android-wx', []],
      [6, 'ios-wx', []],
      [7, null, ['zone:OPTION']],
      [8, null, ['zone:REQUIRED']],
      [9, 'ios-qq', []],
      [10, 'ios-qq', []],
    ]);
    expect(result.rows.map((row) => row.optionLabels)).toEqual([
      { zone: '苹果QQ区' },
      { zone: '安卓微信区' },
      { zone: '苹果QQ区' },
      { zone: '安卓微信区' },
      { zone: '苹果微信区' },
      {},
      {},
      { zone: '苹果QQ区' },
      { zone: '苹果QQ区' },
    ]);
    const bad = result.rows[5]?.errors[0];
    expect(bad).toEqual({
      path: 'zone',
      code: 'OPTION',
      message: '游戏区服: "苹果Q区" is not one of the options (安卓QQ区, 苹果QQ区, 安卓微信区, 苹果微信区)',
      option: { given: '苹果Q区', reason: 'unknown', labels: ['安卓QQ区', '苹果QQ区', '安卓微信区', '苹果微信区'] },
    });
    // Only the passing rows count, and never the refused one.
    expect(result.totals).toEqual({ rows: 9, ok: 7, withErrors: 2, units: 10, totalFen: 5000 });
  });

  it('counts a row naming the same option by label and by code as the same entries (a duplicate)', async () => {
    const result = await preview(utf8(CSV));
    expect(duplicateRows(result.rows)).toEqual([
      { rowNumber: 9, sameAs: 2 },
      { rowNumber: 10, sameAs: 2 },
    ]);
  });

  it('reads labels the same from a GB18030 CSV and from an XLSX', async () => {
    const fromGb = await preview(gb18030(CSV));
    const sheet = await xlsx(
      ['区服', '账号', '数量'],
      CSV.split('\n')
        .slice(1)
        .map((line) => line.split(',')),
    );
    const fromXlsx = await preview(sheet);
    const zones = (rows: ReturnType<typeof previewBatch>['rows']): (string | null)[] => rows.map((row) => row.purchaseEntries?.[0]?.zone ?? null);
    expect(zones(fromGb.rows)).toEqual(['ios-qq', 'android-wx', 'ios-qq', 'android-wx', 'ios-wx', null, null, 'ios-qq', 'ios-qq']);
    expect(zones(fromXlsx.rows)).toEqual(zones(fromGb.rows));
  });

  it('refuses a cell two options answer to, naming both', async () => {
    const template = templateWith([
      { value: 'qq-1', label: 'QQ区 1' },
      { value: 'qq-one', label: 'qq区1' },
    ]);
    const table = await readBatchTable(utf8('区服,账号,数量\nQq区1,player00001,1\nqq区1,player00002,1\n'));
    const result = previewBatch({ table, template, mapping: MAPPING, unitPriceFen: 500 });
    expect(result.rows[0]?.errors).toEqual([
      {
        path: 'zone',
        code: 'OPTION',
        message: '游戏区服: "Qq区1" could be any of QQ区 1, qq区1; write the option\'s whole name',
        option: { given: 'Qq区1', reason: 'ambiguous', labels: ['QQ区 1', 'qq区1'] },
      },
    ]);
    expect(result.rows[1]?.purchaseEntries).toEqual([{ zone: 'qq-one', account: 'player00002' }]);
  });

  it('cuts a long cell in the error', async () => {
    const long = 'x'.repeat(60);
    const result = await preview(utf8(`区服,账号,数量\n${long},player00001,1\n`));
    expect(result.rows[0]?.errors[0]?.option?.given).toBe(`${'x'.repeat(40)}…`);
  });
});

describe('validatePurchase (the dialog, the CLI’s --entry, a template that came later)', () => {
  it('returns the code for a label, and the same for the code', () => {
    expect(validatePurchase(TEMPLATE, { units: 1, purchaseEntries: [{ zone: '苹果QQ区', account: 'player00001' }] })).toEqual([{ zone: 'ios-qq', account: 'player00001' }]);
    expect(validatePurchase(TEMPLATE, { units: 1, purchaseEntries: [{ zone: ' ios-qq ', account: 'player00001' }] })).toEqual([{ zone: 'ios-qq', account: 'player00001' }]);
  });

  it('refuses an unknown option with one OPTION error that names it', () => {
    let caught: unknown = null;
    try {
      validatePurchase(TEMPLATE, { units: 1, purchaseEntries: [{ zone: '微信区', account: 'player00001' }] });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PurchaseValidationError);
    const errors = caught instanceof PurchaseValidationError ? caught.errors : [];
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ path: 'purchaseEntries[0].zone', code: 'OPTION', option: { given: '微信区', reason: 'unknown' } });
    expect(errors[0]?.message).toContain('"微信区"');
    expect(errors[0]?.message).toContain('苹果微信区');
  });
});
