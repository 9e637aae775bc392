// The app service's order channels with the merchant away and no order form cached (contract §7.10),
// against a real sandbox over HTTPS with SQLite on disk, the connection state fed by every answer as
// in the app: orders.template is MERCHANT_UNREACHABLE (without a request once the state says
// offline); orders.place keeps the order as needs_template (nothing sent); the state says so in the
// order's list and detail; once the merchant listens again the order goes out by itself and is charged
// exactly once at the confirmed price. A second order kept so is withdrawn at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goodCard, fen, type Catalog } from '../../support/orders-harness';
import { expectRefused, openConnectedApp, orderDetailWhen, waitFor, type AppKit, type Merchant } from './app-kit';

const SCALE = 50;
let merchant: Merchant;
let kit: AppKit;
let catalog: Catalog;
let account: { userId: string; apiKey: string };

beforeAll(async () => {
  ({ merchant, kit, catalog, account } = await openConnectedApp(SCALE));
  // The first sync has stored the catalog: the test removes one order form, as a sync that fetches
  // them only for watched and recently ordered variants leaves most variants.
  await waitFor('the first sync to finish', async () => {
    const status = await kit.ok('catalog.syncStatus');
    return status.running ? null : status;
  }, 60_000);
});

afterAll(async () => {
  await merchant?.control('POST', '/control/faults', { refuseConnections: false }).catch(() => undefined);
  await kit?.close();
  await merchant?.stop();
});

async function charges(ref: string): Promise<number[]> {
  const book = await merchant.control<{ entries: { kind: string; clientOrderRef: string; amount: string }[] }>('GET', `/control/ledger/${account.userId}`);
  return book.entries.filter((e) => e.kind === 'charge' && e.clientOrderRef === ref).map((e) => fen(e.amount));
}

describe('app service: needs template', () => {
  it('keeps an order as needs_template while the merchant is away, then sends it once', async () => {
    const pick = catalog.claim((p, v) => goodCard(p, v) && p.variants.length === 1, 'single-variant card');
    const { productRef } = pick.product;
    const priceFen = fen(pick.variant.price);
    kit.core.db.prepare('DELETE FROM templates WHERE product_ref = ?').run(productRef);
    await merchant.control('POST', '/control/faults', { refuseConnections: true });
    let kept: string | undefined;
    try {
      // The first ask meets the refused connection; the state then says offline.
      expectRefused(await kit.call('orders.template', { productRef, variantRef: 0 }), 'MERCHANT_UNREACHABLE');
      await waitFor('the offline state', async () => ((await kit.ok('connection.state')).state === 'offline' ? true : null));
      // The reach probe's GET /account runs in the background meanwhile; nothing else may be asked.
      const asked = (): number => kit.requests.filter((r) => !new URL(r.url).pathname.endsWith('/account')).length;
      const before = asked();
      expectRefused(await kit.call('orders.template', { productRef, variantRef: 0 }), 'MERCHANT_UNREACHABLE');
      const placed = await kit.ok('orders.place', { productRef, variantRef: 0, units: 2, unitPriceFen: priceFen });
      const dropped = await kit.ok('orders.place', { productRef, variantRef: 0, units: 1, unitPriceFen: priceFen });
      expect(asked()).toBe(before);
      kept = placed.clientOrderRef;
      expect(placed).toMatchObject({ intentStatus: 'needs_template', units: 2, confirmedUnitPriceFen: priceFen, confirmedTotalFen: priceFen * 2, state: null });
      expect((await kit.ok('orders.list', { intentStatus: 'needs_template' })).map((r) => r.clientOrderRef).sort()).toEqual([kept, dropped.clientOrderRef].sort());
      const withdrawn = await kit.ok('orders.withdraw', { clientOrderRef: dropped.clientOrderRef });
      expect(withdrawn).toMatchObject({ outcome: 'withdrawn', order: { intentStatus: 'withdrawn' } });
      expect(await charges(kept)).toEqual([]);
    } finally {
      await merchant.control('POST', '/control/faults', { refuseConnections: false });
    }
    const accepted = await orderDetailWhen(kit, kept, 'the order to go out once the merchant is back', (d) => d.intentStatus === 'accepted');
    expect(accepted.units).toBe(2);
    expect(await charges(kept)).toEqual([priceFen * 2]);
    expect(kit.core.db.prepare('SELECT count(*) AS n FROM templates WHERE product_ref = ?').get(productRef)).toEqual({ n: 1 });
  }, 120_000);
});
