// A batch of 1,000 rows through the app service against the sandbox over HTTPS (contract §13.3–13.4):
// the preview of the file and the one-transaction placing (their speed is `npm run bench`'s, not a timed
// assertion on a shared machine), an ETA from the orderCreate quota (120 a minute) before anything is sent, and every row then sent exactly once at
// the quota's pace: 1,000 charges in the sandbox's ledger, each at the confirmed price.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNITS_TARGET } from '../../../src/shared/batch-file';
import { fen, goodCard, type Catalog, type Ledger } from '../../support/orders-harness';
import { openConnectedApp, waitFor, type AppKit, type Merchant } from '../app/app-kit';
import { base64, utf8 } from './batch-fixtures';

const SCALE = 60;
const ROWS = 1000;
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

describe('a 1,000-row batch', () => {
  it('previews and places every row, shows the quota ETA, and sends every row once', async () => {
    const pick = catalog.claim((p, v) => goodCard(p, v) && p.variants.length === 1 && v.inventoryType === 'unlimited', 'single-variant card without stock limit');
    const { productRef } = pick.product;
    const price = fen(pick.variant.price);
    const template = await kit.ok('orders.template', { productRef, variantRef: 0 });
    const units = template.unitRule.min;
    // Money for every row (1,000 orders of a card can cost more than the test account's ¥100,000).
    await merchant.control('POST', `/control/accounts/${account.userId}`, { balance: '10000000' });
    const text = `qty,customer\r\n${Array.from({ length: ROWS }, (_, i) => `${units},"客户 ${i}, 北京"`).join('\r\n')}\r\n`;
    const input = { file: { fileName: 'thousand.csv', dataBase64: base64(utf8(text)) }, productRef, variantRef: 0, mapping: { [UNITS_TARGET]: 'qty' } };

    const preview = await kit.ok('batch.preview', input);
    expect(preview.totals).toMatchObject({ rows: ROWS, ok: ROWS, totalFen: ROWS * units * price });

    const placed = await kit.ok('batch.place', { ...input, unitPriceFen: price, confirmedTotalFen: preview.totals.totalFen, confirmedRows: ROWS, draftRef: 'bd_thousand_rows_0001' });
    expect(placed.rows).toHaveLength(ROWS);
    // 1,000 creates at 120 a minute: about 8 windows of merchant time, whatever went out already.
    const first = placed.etaMs ?? 0;
    expect(first).toBeGreaterThan(6 * 60_000);
    expect(first).toBeLessThanOrEqual(9 * 60_000);

    const done = await waitFor(
      'every row accepted',
      async () => {
        const status = await kit.ok('batch.status', { batchId: placed.batchId });
        return status.counts.accepted === ROWS ? status : null;
      },
      240_000,
    );
    expect(done.etaMs).toBeNull();
    const book = await merchant.control<Ledger>('GET', `/control/ledger/${account.userId}`);
    const refs = new Set(done.rows.map((row) => row.clientOrderRef));
    const charges = book.entries.filter((entry) => entry.kind === 'charge' && refs.has(entry.clientOrderRef));
    expect(charges).toHaveLength(ROWS);
    expect(new Set(charges.map((entry) => entry.clientOrderRef)).size).toBe(ROWS);
    expect(charges.every((entry) => fen(entry.amount) === units * price)).toBe(true);
    console.log(`batch of ${ROWS}: first ETA ${(first / 60_000).toFixed(1)} merchant min`);
  }, 300_000);
});
