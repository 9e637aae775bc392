// The batch results file opened by LibreOffice with its import dialog's defaults (contract §13.6, §16.1):
// the accounts that were sent (a zero-led and a 19-digit one), clientOrderRef and the merchant's order
// number come back digit for digit as text; the units column stays a number. A real batch against the
// sandbox; one LibreOffice run.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNITS_TARGET } from '../../../src/shared/batch-file';
import { hasTool, libreOfficeProfile, toolPath } from '../../support/external-tools';
import { fen, hasStock, isOpen, isTopup, validValue, type Catalog, type PurchaseField } from '../../support/orders-harness';
import { openConnectedApp, waitFor, type AppKit, type Merchant } from '../app/app-kit';
import { parseCsvLines, readXlsx, run } from '../export/file-readers';
import { base64, xlsx } from './batch-fixtures';

const SOFFICE = toolPath('soffice');
/** The import dialog's defaults in this LibreOffice (as in test/core/export/spreadsheet-import.test.ts). */
const DIALOG_DEFAULTS = 'Text - txt - csv (StarCalc):44/59/9,34,76,1,,0,false,false,false,false,false,-1,false';
/** What a default import turned into 1.23456789012346E+16 (zeros gone) and 8.74099583009342E+18. */
const ACCOUNTS = ['0012345678901234567', '8740995830093416017'] as const;

let merchant: Merchant;
let kit: AppKit;
let catalog: Catalog;
let work: string;

beforeAll(async () => {
  ({ merchant, kit, catalog } = await openConnectedApp(50));
  work = join(process.cwd(), 'test-results', `batch-results-${randomBytes(4).toString('hex')}`);
  mkdirSync(join(work, 'out'), { recursive: true });
});

afterAll(async () => {
  await kit?.close();
  await merchant?.stop();
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

/** A top-up whose template has a free-text account field (no pattern) that takes 19 digits. */
async function topupWithAccount(): Promise<{ productRef: number; variantRef: number; fields: PurchaseField[]; units: number; price: number }> {
  for (;;) {
    const pick = catalog.claim((p, v) => isTopup(p) && isOpen(p, v) && hasStock(v) && v.supply === 'succeed' && v.entryMode === 'single', 'top-up with a free account field');
    const variantRef = pick.product.variants.length > 1 ? pick.variant.variantRef : 0;
    const template = await kit.ok('orders.template', { productRef: pick.product.productRef, variantRef });
    const fields = template.purchaseFields as PurchaseField[];
    const account = fields.find((f) => f.fieldRef === 'account' && f.type === 'text' && f.pattern === null && (f.maxLength ?? 99) >= 19);
    if (account !== undefined) return { productRef: pick.product.productRef, variantRef, fields, units: template.unitRule.min, price: fen(pick.variant.price) };
  }
}

describe('the batch results file', () => {
  it('keeps every sent account, clientOrderRef and order number as text with every digit (CSV in LibreOffice, XLSX strings)', async () => {
    const { productRef, variantRef, fields, units, price } = await topupWithAccount();
    const header = fields.map((f) => f.label || f.fieldRef);
    const rows = ACCOUNTS.map((account) => [...fields.map((f) => (f.fieldRef === 'account' ? account : validValue(f))), String(units)]);
    const input = { file: { fileName: 'accounts.xlsx', dataBase64: base64(await xlsx([...header, 'units'], rows)) }, productRef, variantRef, mapping: null };
    const preview = await kit.ok('batch.preview', input);
    expect(preview.totals.ok).toBe(2);
    expect(preview.mapping[UNITS_TARGET]).toBe('units');
    const draftRef = `bd_sheet_${Date.now().toString(36)}`;
    const placed = await kit.ok('batch.place', { ...input, mapping: preview.mapping, unitPriceFen: price, confirmedTotalFen: preview.totals.totalFen, confirmedRows: 2, draftRef });
    const done = await waitFor(
      'both rows accepted',
      async () => {
        const status = await kit.ok('batch.status', { batchId: placed.batchId });
        return status.counts.accepted === 2 && status.rows.every((row) => row.platformOrderRef !== null) ? status : null;
      },
      30_000,
    );
    const refs = done.rows.map((row) => [row.clientOrderRef, row.platformOrderRef ?? '']);
    const accountColumn = header.indexOf(fields.find((f) => f.fieldRef === 'account')?.label ?? 'account');
    const unitsColumn = header.length;
    const refColumns = [header.length + 2, header.length + 3];

    // The CSV: every code cell is the code and one TAB, quoted; the units bare.
    const csv = await kit.ok('batch.exportResults', { batchId: placed.batchId, file: input.file, format: 'csv' });
    const csvBytes = Buffer.from(csv.dataBase64, 'base64');
    const written = parseCsvLines(csvBytes.toString('utf8').replace(/^\uFEFF/, ''));
    expect(written.slice(1).map((row) => [row[accountColumn], row[unitsColumn], ...refColumns.map((c) => row[c])])).toEqual(ACCOUNTS.map((a, i) => [`${a}\t`, String(units), ...(refs[i] ?? []).map((r) => `${r}\t`)]));

    // The XLSX: the same cells as strings, exactly.
    const xlsxOut = await kit.ok('batch.exportResults', { batchId: placed.batchId, file: input.file, format: 'xlsx' });
    const sheet = readXlsx(Buffer.from(xlsxOut.dataBase64, 'base64')).rows.slice(1);
    for (const [i, row] of sheet.entries()) {
      expect([row[accountColumn], ...refColumns.map((c) => row[c])].map((cell) => [cell?.type, cell?.text])).toEqual([ACCOUNTS[i], ...(refs[i] ?? [])].map((text) => ['s', text]));
    }

    if (!hasTool('soffice')) return;
    writeFileSync(join(work, 'results.csv'), csvBytes);
    // The control: the same accounts and order numbers written bare, as before.
    writeFileSync(join(work, 'bare.csv'), `\uFEFFa,b\r\n${ACCOUNTS.map((a, i) => `${a},${refs[i]?.[1] ?? ''}`).join('\r\n')}\r\n`);
    const args = ['--headless', libreOfficeProfile(work), `--infilter=${DIALOG_DEFAULTS}`];
    const result = run(SOFFICE, [...args, '--convert-to', 'csv:Text - txt - csv (StarCalc):44,34,76,1', '--outdir', join(work, 'out'), join(work, 'results.csv'), join(work, 'bare.csv')]);
    expect(result.status, result.stderr).toBe(0);
    const opened = parseCsvLines(readFileSync(join(work, 'out', 'results.csv'), 'utf8')).slice(1);
    const codes = opened.map((row) => [row[accountColumn], ...refColumns.map((c) => row[c])].map((cell) => cell?.replace(/\t$/, '')));
    expect(codes).toEqual(ACCOUNTS.map((a, i) => [a, ...(refs[i] ?? [])]));
    expect(opened.map((row) => row[unitsColumn])).toEqual(ACCOUNTS.map(() => String(units)));
    const bare = parseCsvLines(readFileSync(join(work, 'out', 'bare.csv'), 'utf8')).slice(1);
    expect(bare.map((row) => row[0])).not.toEqual([...ACCOUNTS]);
  }, 300_000);
});
