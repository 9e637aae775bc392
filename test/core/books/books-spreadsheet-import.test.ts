// The books' exports opened by LibreOffice with its import dialog's defaults (contract §16.1, §12.2):
// the reconciliation report's order numbers and client refs (19 digits, leading zeros, formula starts)
// come back digit for digit as text, the amounts as numbers a spreadsheet sums; the spend report holds
// no code column. One LibreOffice run over every file (LibreOffice is slow).
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileReportTable } from '../../../src/core/books/reconcile-report-table';
import { spendTable } from '../../../src/core/books/spend-export';
import { csvBytes } from '../../../src/core/export/csv-writer';
import { xlsxBytes } from '../../../src/core/export/xlsx-writer';
import type { SpendReport } from '../../../src/shared/ipc/views/books';
import type { ReconcileDifference, ReconcileReport } from '../../../src/shared/ipc/views/reconcile';
import { parseCsvLines, readXlsx, run } from '../export/file-readers';
import { hasTool, libreOfficeProfile, toolPath } from '../../support/external-tools';

const SOFFICE = toolPath('soffice');
/** The import dialog's defaults in this LibreOffice (as in test/core/export/spreadsheet-import.test.ts). */
const DIALOG_DEFAULTS = 'Text - txt - csv (StarCalc):44/59/9,34,76,1,,0,false,false,false,false,false,-1,false';

/** [platformOrderRef, clientOrderRef] per difference: what a default import turned into 2.02611E+18 or cut zeros from. */
const REFS: readonly (readonly [string | null, string])[] = [
  ['2026112400000001234', 'PD_01HXYZ'],
  ['0012345678901234567', '0099887766554433221'],
  ['8740995830093416017', '=1+1'],
  [null, '6222021234567890123'],
  ['+8613800138000', '-12'],
];
const facts = { state: 'completed', units: 1, totalFen: 12_345, refundedFen: 0, refundsSucceededFen: 0, refundCount: 0 };
const differences: ReconcileDifference[] = REFS.map(([platformOrderRef, clientOrderRef], i) => {
  const common = { clientOrderRef, platformOrderRef, productName: `商品 ${i}`, createdAt: 1_764_000_000 };
  if (platformOrderRef === null) return { kind: 'notReceived', ...common, intentStatus: 'unknown', units: 1 };
  return i % 2 === 0 ? { kind: 'foreign', ...common, merchant: facts } : { kind: 'cards', ...common, units: 2, merchantCards: 2, vaultCards: 1 };
});
const known = { known: true, atMs: 1_764_000_000_000, balanceFen: 1_000_000, seenFromMs: 1_764_000_000_000, seenUntilMs: 1_764_000_000_000, boundaryMs: 1_764_000_000_000, fresh: false } as const;
const report: ReconcileReport = {
  runId: 1,
  fromDay: '2026-11-24',
  toDay: '2026-11-24',
  createdFrom: 1_763_913_600,
  createdTo: 1_764_000_000,
  finishedAtMs: 1_764_000_000_000,
  requests: 3,
  pagesRead: 1,
  resumed: false,
  totals: { merchantOrders: 4, appOrders: 1, unknownStates: 0, completed: 4, foreignRecorded: 0, notSentYet: 0, merchantChargedFen: 49_380, merchantRefundedFen: 0, bookChargedFen: 12_345, bookRefundedFen: 0, cardOrdersCompared: 1, differences: differences.length },
  balance: { start: known, end: known, chargesFen: 12_345, refundsFen: 0, expectedChangeFen: -12_345, actualChangeFen: 0, unexplainedFen: 12_345 },
  verdict: { status: 'differences', balance: 'differs', balanceMissing: null },
  differences,
};
const table = reconcileReportTable(report, 'zh-CN');
const DIFFERENCE_ROWS = table.rows.length - differences.length + 1;

let work: string;
let dialogCsv: string[][];
let bareCsv: string[][];

beforeAll(() => {
  work = join(process.cwd(), 'test-results', `books-spreadsheet-${randomBytes(4).toString('hex')}`);
  mkdirSync(join(work, 'out'), { recursive: true });
  writeFileSync(join(work, 'reconcile.csv'), csvBytes(table));
  // The control: the same order numbers written bare, as before.
  writeFileSync(join(work, 'bare.csv'), `\uFEFFa\r\n${REFS.map(([p]) => p ?? '').join('\r\n')}\r\n`);
  if (!hasTool('soffice')) return;
  const args = ['--headless', libreOfficeProfile(work), `--infilter=${DIALOG_DEFAULTS}`];
  const result = run(SOFFICE, [...args, '--convert-to', 'csv:Text - txt - csv (StarCalc):44,34,76,1', '--outdir', join(work, 'out'), join(work, 'reconcile.csv'), join(work, 'bare.csv')]);
  expect(result.status, result.stderr).toBe(0);
  const read = (name: string): string[][] => parseCsvLines(readFileSync(join(work, 'out', name), 'utf8'));
  dialogCsv = read('reconcile.csv');
  bareCsv = read('bare.csv');
}, 300_000);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

/** What a spreadsheet shows of a code cell: the guard's apostrophe before a formula start, the one TAB after. */
const shown = (code: string | null): string => (code === null ? '' : `${/^[=+\-@]/.test(code) ? "'" : ''}${code}\t`);

describe('the reconciliation report', () => {
  it('writes the order number and the client ref as code cells in the CSV, the amount bare', () => {
    const lines = new TextDecoder().decode(csvBytes(table)).split('\r\n');
    const first = lines[DIFFERENCE_ROWS] ?? '';
    expect(first).toContain('"2026112400000001234\t","PD_01HXYZ\t"');
    expect(first).toContain(',123.45,');
  });

  it('keeps them strings in the XLSX, the amounts numbers', async () => {
    const rows = readXlsx(await xlsxBytes(table)).rows.slice(DIFFERENCE_ROWS);
    expect(rows.map((row) => [row[2]?.text ?? null, row[3]?.text])).toEqual(REFS.map(([p, c]) => [p, c]));
    for (const row of rows) for (const c of [2, 3]) if (row[c] !== null && row[c] !== undefined) expect(row[c]?.type).toBe('s');
    expect(rows[0]?.[7]).toMatchObject({ type: 'n', text: '123.45' });
  });

  it.skipIf(!hasTool('soffice'))('reads back in LibreOffice (import dialog defaults): every order number and ref, digit for digit', () => {
    expect(dialogCsv[0]?.slice(2, 4)).toEqual(['订单号', '客户单号']);
    const got = dialogCsv.slice(DIFFERENCE_ROWS).map((row) => [row[2] ?? '', row[3] ?? '']);
    expect(got).toEqual(REFS.map(([p, c]) => [shown(p), shown(c)]));
    // Digits only, once the one TAB is dropped: exactly what the merchant sent.
    expect(got.map(([p]) => (p ?? '').replace(/\t$/, '')).slice(0, 3)).toEqual(['2026112400000001234', '0012345678901234567', '8740995830093416017']);
    // The amount of a foreign order: a number (no TAB), as written.
    expect(dialogCsv[DIFFERENCE_ROWS]?.[7]).toBe('123.45');
  });

  it.skipIf(!hasTool('soffice'))('loses digits and zeros when written bare, as before (so this test can fail)', () => {
    expect(bareCsv[1]?.[0]).not.toBe('2026112400000001234');
    expect(bareCsv[2]?.[0]).not.toBe('0012345678901234567');
  });
});

describe('the spend report', () => {
  it('holds no code column: days, names and counts plain, money numbers a spreadsheet sums', async () => {
    const money = { orders: 2, chargedFen: 20_000, refundedFen: 500, netFen: 19_500 };
    const spend: SpendReport = {
      query: { from: '2026-11-24', to: '2026-11-24', timeZone: 'Asia/Shanghai' },
      fromMs: 1_763_913_600_000,
      toMs: 1_764_000_000_000,
      totals: { ...money, completed: 1, unsuccessful: 1, inProgress: 0, unknownState: 0, successRate: 0.5, medianDeliverySeconds: 60 },
      days: [{ day: '2026-11-24', ...money, completed: 1, unsuccessful: 1, unknownState: 0, medianDeliverySeconds: 60 }],
      byCategory: [{ key: 1, name: '0012 分类', ...money }],
      byProduct: [{ key: 7, name: null, ...money }],
      balance: [{ fromMs: 1_763_913_600_000, toMs: 1_764_000_000_000, balanceFen: 1_000_000, currency: 'CNY' }],
      choices: { categories: [], products: [] },
    };
    for (const chart of ['days', 'categories', 'products', 'outcomes', 'delivery', 'balance'] as const) {
      const sheet = spendTable(spend, chart, 'zh-CN');
      for (const row of sheet.rows) for (const cell of row) expect(cell !== null && typeof cell === 'object' && 'code' in cell, `${chart}: a code cell`).toBe(false);
      const amounts = readXlsx(await xlsxBytes(sheet)).rows.slice(1).flatMap((row) => row.filter((cell) => cell?.style === '3'));
      if (chart !== 'outcomes' && chart !== 'delivery') expect(amounts.length).toBeGreaterThan(0);
      for (const cell of amounts) expect(cell?.type).toBe('n');
    }
  });
});
