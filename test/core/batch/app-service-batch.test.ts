// Batch orders from a file through the app service, against the sandbox over HTTPS with SQLite on
// disk (contract §13): N valid rows place exactly N orders at the confirmed totals, asserted against
// the sandbox's ledger and balance; rows with errors are never sent; the same confirmation sent twice
// is one batch; retry sends the failed rows only, under the same refs when the merchant stored nothing
// and a new ref linked to the row when it holds a failed order; a price rise parks the rows and the
// buyer's new confirmation sends them at exactly that price.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchStatusView } from '../../../src/shared/ipc/views/batch';
import { UNITS_TARGET } from '../../../src/shared/batch-file';
import { entriesFor, fen, goodCard, hasStock, isOpen, isTopup, must, validValue, yuanText, type Catalog, type Ledger, type PurchaseField } from '../../support/orders-harness';
import { expectContractShapes, expectNoSecretLeft, expectRefused, openConnectedApp, waitFor, type AppKit, type Merchant } from '../app/app-kit';
import { base64, gb18030, utf8, utf8Bom, xlsx } from './batch-fixtures';

const SCALE = 50;
let merchant: Merchant;
let kit: AppKit;
let catalog: Catalog;
let account: { userId: string; apiKey: string };

beforeAll(async () => {
  ({ merchant, kit, catalog, account } = await openConnectedApp(SCALE));
});

afterAll(async () => {
  await kit?.close();
  await merchant?.stop();
});

const ledger = (): Promise<Ledger> => merchant.control<Ledger>('GET', `/control/ledger/${account.userId}`);
const charges = (book: Ledger, ref: string): number[] => entriesFor(book, ref, 'charge').map((e) => fen(e.amount));
const setBalance = (yuan: string): Promise<unknown> => merchant.control('POST', `/control/accounts/${account.userId}`, { balance: yuan });
const file = (name: string, bytes: Uint8Array): { fileName: string; dataBase64: string } => ({ fileName: name, dataBase64: base64(bytes) });
let drafts = 0;
const draftRef = (): string => `bd_test_${String(++drafts).padStart(4, '0')}_${Date.now().toString(36)}`;

const statusWhen = (batchId: string, what: string, predicate: (s: BatchStatusView) => boolean, timeoutMs = 30_000): Promise<BatchStatusView> =>
  waitFor(
    what,
    async () => {
      const status = await kit.ok('batch.status', { batchId });
      return predicate(status) ? status : null;
    },
    timeoutMs,
  );

const settled = (s: BatchStatusView): boolean => s.counts.queued + s.counts.sending === 0;

describe('batch orders from a file, against the sandbox', () => {
  it('places exactly the valid rows, at the confirmed totals, and a second confirmation is the same batch', async () => {
    const pick = catalog.claim((p, v) => goodCard(p, v) && p.variants.length === 1, 'single-variant card');
    const { productRef } = pick.product;
    const price = fen(pick.variant.price);
    const template = await kit.ok('orders.template', { productRef, variantRef: 0 });
    const { min, step, max } = template.unitRule;
    const two = Math.min(max, min + step);
    const csv = `数量,备注\r\n${min},第一行\r\n${two},"second, with comma"\r\nabc,坏的\r\n${max + step},太多\r\n${min},"multi\r\nline"\r\n`;
    const input = { file: file('cards.csv', gb18030(csv)), productRef, variantRef: 0, mapping: null };
    const before = await ledger();

    const preview = await kit.ok('batch.preview', input);
    expect(preview).toMatchObject({ format: 'csv', encoding: 'gb18030', mappingSource: 'guessed', mapping: { [UNITS_TARGET]: '数量' } });
    expect(preview.totals).toEqual({ rows: 5, ok: 3, withErrors: 2, units: min + two + min, totalFen: (min + two + min) * price });
    expect(preview.rows.map((row) => [row.rowNumber, row.errors.map((e) => e.code)])).toEqual([
      [2, []],
      [3, []],
      [4, ['UNITS_NOT_WHOLE']],
      [5, ['UNITS_OUT_OF_RANGE']],
      [6, []],
    ]);

    const place = { ...input, mapping: preview.mapping, unitPriceFen: price, confirmedTotalFen: preview.totals.totalFen, confirmedRows: 3, draftRef: draftRef() };
    // A double click: both calls land, one batch is written.
    const [first, second] = await Promise.all([kit.ok('batch.place', place), kit.ok('batch.place', place)]);
    expect(second.batchId).toBe(first.batchId);
    expect(first.rows.map((row) => row.rowNumber)).toEqual([2, 3, 6]);
    const again = await kit.ok('batch.place', place);
    expect(again.batchId).toBe(first.batchId);
    const intents = kit.core.db.prepare('SELECT count(*) FROM order_intents WHERE batch_id = ?').pluck().get(first.batchId);
    expect(intents).toBe(3);

    const done = await statusWhen(first.batchId, 'every row accepted', (s) => s.counts.accepted === 3);
    expect(done.etaMs).toBeNull();
    const book = await ledger();
    const refs = done.rows.map((row) => row.clientOrderRef);
    expect(refs.map((ref) => charges(book, ref))).toEqual([[min * price], [two * price], [min * price]]);
    expect(done.chargedFen).toBe(preview.totals.totalFen);
    expect(fen(before.balance) - fen(book.balance)).toBe(preview.totals.totalFen);
    // Nothing else was charged: the rows with errors never reached the merchant.
    expect(book.entries.length - before.entries.length).toBe(3);
    const orders = await Promise.all(refs.map((ref) => merchant.control<{ platformOrderRef: string; units: number }>('POST', `/control/orders/${ref}/advance`, { to: 'processing' })));
    expect(orders.map((o) => o.units)).toEqual([min, two, min]);

    // The mapping is remembered for the product and proposed for the next file.
    const next = await kit.ok('batch.preview', { ...input, file: file('next.csv', utf8Bom(`备注,数量\r\nx,${min}\r\n`)) });
    expect(next).toMatchObject({ mappingSource: 'remembered', mapping: { [UNITS_TARGET]: '数量' }, encoding: 'utf-8-bom' });

    // A confirmation whose total no longer matches the file is refused, writing nothing.
    expectRefused(await kit.call('batch.place', { ...place, draftRef: draftRef(), confirmedTotalFen: place.confirmedTotalFen - 1 }), 'ACTION_NOT_ALLOWED');
    // A file that is not a table is INVALID_INPUT naming the problem.
    const junk = expectRefused(await kit.call('batch.preview', { ...input, file: file('x.csv', utf8('a,b\r\n')) }), 'INVALID_INPUT');
    expect(junk.fields).toEqual([{ path: 'file', message: 'headerOnly' }]);
    expect(kit.core.db.prepare('SELECT count(*) FROM batches').pluck().get()).toBe(1);
  });

  it('retries the failed rows only: same refs for refused creates, a new ref for an order that failed, never a second charge', async () => {
    const pick = catalog.claim((p, v) => isTopup(p) && isOpen(p, v) && hasStock(v) && v.supply === 'succeed' && v.entryMode === 'single', 'single-entry top-up');
    const { productRef } = pick.product;
    const variantRef = pick.product.variants.length > 1 ? pick.variant.variantRef : 0;
    const price = fen(pick.variant.price);
    const template = await kit.ok('orders.template', { productRef, variantRef });
    const fields = template.purchaseFields as PurchaseField[];
    const header = fields.map((f) => f.label || f.fieldRef);
    const units = template.unitRule.min;
    const rows = Array.from({ length: 4 }, () => fields.map((f) => validValue(f)));
    const bytes = await xlsx([...header, 'units'], rows.map((r) => [...r, String(units)]));
    const input = { file: file('topups.xlsx', bytes), productRef, variantRef, mapping: null };
    const preview = await kit.ok('batch.preview', input);
    expect(preview.format).toBe('xlsx');
    expect(preview.totals.ok).toBe(4);
    expect(Object.keys(preview.mapping).sort()).toEqual([...fields.map((f) => f.fieldRef), UNITS_TARGET].sort());

    // Money for two rows only: the merchant refuses the rest (422103), storing nothing.
    await setBalance(yuanText(price * units * 2 + 1));
    // The four rows are the same account: each duplicate is kept explicitly (contract §13.8).
    expect(preview.duplicates.rows.map((row) => row.rowNumber)).toEqual([3, 4, 5]);
    const duplicates = { keepRows: [3, 4, 5], skipRows: [], acceptedBatches: [] };
    const placed = await kit.ok('batch.place', { ...input, mapping: preview.mapping, unitPriceFen: price, confirmedTotalFen: preview.totals.totalFen, confirmedRows: 4, draftRef: draftRef(), duplicates });
    const partly = await statusWhen(placed.batchId, 'two accepted, two refused', (s) => settled(s) && s.counts.accepted === 2 && s.counts.failed === 2);
    const refused = partly.rows.filter((row) => row.phase === 'failed');
    expect(refused.map((row) => row.errorCode)).toEqual(['422103', '422103']);
    const accepted = partly.rows.filter((row) => row.phase === 'accepted');
    // The results file words the refusal as the order dialog does (one home: shared/merchant-error-words.ts), the code beside.
    const refusedCsv = Buffer.from((await kit.ok('batch.exportResults', { batchId: placed.batchId, file: input.file, format: 'csv' })).dataBase64, 'base64').toString('utf8');
    expect(refusedCsv.split('余额不足（商户错误码 422103）')).toHaveLength(3);
    const refusedEn = Buffer.from((await kit.ok('batch.exportResults', { batchId: placed.batchId, file: input.file, format: 'csv', language: 'en' })).dataBase64, 'base64').toString('utf8');
    expect(refusedEn.split('Not enough balance (merchant code 422103)')).toHaveLength(3);

    // One accepted order fails at the merchant afterwards (refunded in full): its ref is taken.
    const failing = must(accepted[0], 'accepted row');
    await merchant.advance(failing.clientOrderRef, 'processing');
    await merchant.advance(failing.clientOrderRef, 'failed');
    await kit.ok('orders.refresh', { clientOrderRef: failing.clientOrderRef });
    await statusWhen(placed.batchId, 'the failed order seen', (s) => s.counts.failed === 3);

    await setBalance('100000');
    // Retry needs the batch's own file.
    expectRefused(await kit.call('batch.retryFailed', { batchId: placed.batchId, file: file('other.xlsx', await xlsx(['x'], [['1']])) }), 'ACTION_NOT_ALLOWED');
    const retried = await kit.ok('batch.retryFailed', { batchId: placed.batchId, file: input.file });
    expect(retried).toMatchObject({ requeued: 2, renewed: 1, skipped: [] });
    const done = await statusWhen(placed.batchId, 'every row accepted', (s) => settled(s) && s.counts.accepted === 4);

    const book = await ledger();
    const byRow = new Map(done.rows.map((row) => [row.rowNumber, row]));
    for (const row of refused) {
      // Same row, same ref, one charge.
      expect(byRow.get(row.rowNumber)?.clientOrderRef).toBe(row.clientOrderRef);
      expect(charges(book, row.clientOrderRef)).toEqual([price * units]);
    }
    const renewed = must(byRow.get(failing.rowNumber), 'renewed row');
    expect(renewed.clientOrderRef).not.toBe(failing.clientOrderRef);
    expect(renewed.earlierRefs).toEqual([failing.clientOrderRef]);
    expect(charges(book, failing.clientOrderRef)).toEqual([price * units]);
    expect(entriesFor(book, failing.clientOrderRef, 'refund').map((e) => fen(e.amount))).toEqual([price * units]);
    expect(charges(book, renewed.clientOrderRef)).toEqual([price * units]);
    const untouched = must(accepted[1], 'second accepted row');
    expect(charges(book, untouched.clientOrderRef)).toEqual([price * units]);

    // Nothing failed now: a second retry sends nothing.
    expect(await kit.ok('batch.retryFailed', { batchId: placed.batchId, file: input.file })).toMatchObject({ requeued: 0, renewed: 0 });

    // Results next to the original rows, in both formats; no entry ends up in a log line.
    const exported = await kit.ok('batch.exportResults', { batchId: placed.batchId, file: input.file, format: 'csv' });
    const text = Buffer.from(exported.dataBase64, 'base64').toString('utf8');
    expect(exported.fileName).toBe('topups-results.csv');
    expect(text.split('\r\n')[0]).toBe(`\uFEFF${[...header, 'units', '状态', '订单参考号', '商户订单号', '错误'].join(',')}`);
    expect(text).toContain(renewed.clientOrderRef);
    const xlsxOut = await kit.ok('batch.exportResults', { batchId: placed.batchId, file: input.file, format: 'xlsx' });
    expect(Buffer.from(xlsxOut.dataBase64, 'base64').subarray(0, 2).toString()).toBe('PK');
    const values = rows.flat().filter((v) => v.length >= 6);
    for (const value of values) expect(kit.logLines.join('\n').includes(value), 'an entry value was logged').toBe(false);
  });

  it('parks every row when the price rose after the preview, charges nothing, and sends at exactly the re-confirmed price', async () => {
    const pick = catalog.claim((p, v) => goodCard(p, v), 'card that is supplied');
    const { productRef } = pick.product;
    const variantRef = pick.product.variants.length > 1 ? pick.variant.variantRef : 0;
    const shown = fen(pick.variant.price);
    const template = await kit.ok('orders.template', { productRef, variantRef });
    const units = template.unitRule.min;
    const input = { file: file('rise.csv', utf8(`qty\n${units}\n${units}\n`)), productRef, variantRef, mapping: { [UNITS_TARGET]: 'qty' } };
    const preview = await kit.ok('batch.preview', input);
    const raised = shown + 120;
    await merchant.control('POST', `/control/products/${productRef}`, { variantRef, price: yuanText(raised) });
    const placed = await kit.ok('batch.place', { ...input, unitPriceFen: shown, confirmedTotalFen: preview.totals.totalFen, confirmedRows: 2, draftRef: draftRef() });
    const parked = await statusWhen(placed.batchId, 'both parked', (s) => s.priceChanged.rows === 2);
    expect(parked.priceChanged.unitPriceFen).toBe(raised);
    const book = await ledger();
    for (const row of parked.rows) expect(charges(book, row.clientOrderRef)).toEqual([]);
    // A confirmation below what the merchant asks moves nothing.
    await kit.ok('batch.confirmPrice', { batchId: placed.batchId, unitPriceFen: raised - 1 });
    expect((await kit.ok('batch.status', { batchId: placed.batchId })).priceChanged.rows).toBe(2);
    await kit.ok('batch.confirmPrice', { batchId: placed.batchId, unitPriceFen: raised });
    const done = await statusWhen(placed.batchId, 'both accepted', (s) => s.counts.accepted === 2);
    const after = await ledger();
    for (const row of done.rows) expect(charges(after, row.clientOrderRef)).toEqual([raised * units]);
    expectNoSecretLeft(kit, kit.secrets);
    expectContractShapes(kit);
  });
});
