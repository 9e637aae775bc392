// Duplicates before money moves, through the app service against the sandbox (contract §13.8): placing
// a file with identical rows, or a file already placed, is refused (nothing written, nothing charged)
// until the buyer decided each row and confirmed each earlier batch; a skipped row is never sent, a
// kept one is; the sandbox's ledger holds exactly the rows confirmed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchStatusView } from '../../../src/shared/ipc/views/batch';
import { entriesFor, fen, hasStock, isOpen, isTopup, validValue, type Catalog, type Ledger, type PurchaseField } from '../../support/orders-harness';
import { expectRefused, openConnectedApp, waitFor, type AppKit, type Merchant } from '../app/app-kit';
import { base64, utf8 } from './batch-fixtures';

let merchant: Merchant;
let kit: AppKit;
let catalog: Catalog;
let account: { userId: string; apiKey: string };

beforeAll(async () => {
  ({ merchant, kit, catalog, account } = await openConnectedApp(30));
});

afterAll(async () => {
  await kit?.close();
  await merchant?.stop();
});

const ledger = (): Promise<Ledger> => merchant.control<Ledger>('GET', `/control/ledger/${account.userId}`);
let drafts = 0;
const draftRef = (): string => `bd_dupes_${String(++drafts).padStart(4, '0')}_${Date.now().toString(36)}`;
const batches = (): unknown => kit.core.db.prepare('SELECT count(*) FROM batches').pluck().get();

const settled = (batchId: string, rows: number): Promise<BatchStatusView> =>
  waitFor(
    `${rows} rows accepted`,
    async () => {
      const status = await kit.ok('batch.status', { batchId });
      return status.counts.accepted === rows && status.counts.queued + status.counts.sending === 0 ? status : null;
    },
    30_000,
  );

describe('duplicates in a batch, against the sandbox', () => {
  it('refuses identical rows and a file already placed until decided, and charges exactly the rows kept', async () => {
    const pick = catalog.claim((p, v) => isTopup(p) && isOpen(p, v) && hasStock(v) && v.supply === 'succeed' && v.entryMode === 'single', 'single-entry top-up');
    const { productRef } = pick.product;
    const variantRef = pick.product.variants.length > 1 ? pick.variant.variantRef : 0;
    const price = fen(pick.variant.price);
    const template = await kit.ok('orders.template', { productRef, variantRef });
    const fields = template.purchaseFields as PurchaseField[];
    const units = template.unitRule.min;
    const row = [...fields.map((f) => validValue(f)), String(units)].join(',');
    const csv = `${[...fields.map((f) => f.label || f.fieldRef), '数量'].join(',')}\r\n${row}\r\n${row}\r\n${row}\r\n`;
    const input = { file: { fileName: 'same.csv', dataBase64: base64(utf8(csv)) }, productRef, variantRef, mapping: null };
    const before = await ledger();

    const preview = await kit.ok('batch.preview', input);
    expect(preview.duplicates).toEqual({ rows: [{ rowNumber: 3, sameAs: 2 }, { rowNumber: 4, sameAs: 2 }], placedBefore: [] });
    const base = { ...input, mapping: preview.mapping, unitPriceFen: price };
    // Undecided: refused, nothing written.
    const undecided = expectRefused(await kit.call('batch.place', { ...base, confirmedTotalFen: 3 * units * price, confirmedRows: 3, draftRef: draftRef() }), 'ACTION_NOT_ALLOWED');
    expect(undecided.message).toContain('rows 3 (same as row 2), 4 (same as row 2) repeat an earlier row');
    expect(batches()).toBe(0);
    // Only a duplicate row can be skipped: skipping row 2 leaves three rows, not the two confirmed.
    expectRefused(await kit.call('batch.place', { ...base, confirmedTotalFen: 2 * units * price, confirmedRows: 2, draftRef: draftRef(), duplicates: { keepRows: [3, 4], skipRows: [2], acceptedBatches: [] } }), 'ACTION_NOT_ALLOWED');
    expect(batches()).toBe(0);

    // Row 3 kept, row 4 skipped: two orders.
    const first = await kit.ok('batch.place', { ...base, confirmedTotalFen: 2 * units * price, confirmedRows: 2, draftRef: draftRef(), duplicates: { keepRows: [3], skipRows: [4], acceptedBatches: [] } });
    expect(first.rows.map((r) => r.rowNumber)).toEqual([2, 3]);
    const firstDone = await settled(first.batchId, 2);

    // The same file again: named with its batch and time; refused until confirmed.
    const again = await kit.ok('batch.preview', input);
    expect(again.duplicates.placedBefore).toEqual([{ batchId: first.batchId, fileName: 'same.csv', productRef, placedAt: firstDone.createdAt, match: 'sameFile' }]);
    const decided = { keepRows: [], skipRows: [3, 4], acceptedBatches: [] };
    const unconfirmed = expectRefused(await kit.call('batch.place', { ...base, confirmedTotalFen: units * price, confirmedRows: 1, draftRef: draftRef(), duplicates: decided }), 'ACTION_NOT_ALLOWED');
    expect(unconfirmed.message).toContain(`already placed as batch ${first.batchId} (same.csv)`);
    expect(batches()).toBe(1);
    const second = await kit.ok('batch.place', { ...base, confirmedTotalFen: units * price, confirmedRows: 1, draftRef: draftRef(), duplicates: { ...decided, acceptedBatches: [first.batchId] } });
    await settled(second.batchId, 1);

    const added = (await ledger()).entries.slice(before.entries.length);
    const refs = [...first.rows, ...second.rows].map((r) => r.clientOrderRef);
    expect(added.map((e) => e.clientOrderRef).sort()).toEqual([...refs].sort());
    for (const ref of refs) expect(entriesFor(await ledger(), ref, 'charge').map((e) => fen(e.amount))).toEqual([units * price]);
  });
});
