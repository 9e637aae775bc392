// Money on screen is current (issue 24 point 6), at the core's edge against the sandbox over HTTPS, the
// merchant changed behind the app's back through its control API:
// - a refund the merchant credits is followed, through the app's own tracking (the tracker's poll, the
//   change watch, one GET /account), by account.changed with the ledger's balance, stamped with its time;
// - a product reading older than DETAIL_FRESH_FOR_S is read again when the product is opened, so the
//   merchant's new price and stock are answered without a sync, and the new price is in its history;
// - a price the app learns anywhere (here: the price guard's read before a send) is pushed to the
//   screens as catalog.changed naming the product.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DETAIL_FRESH_FOR_S } from '../../../src/shared/ipc/views/catalog';
import type { AccountView } from '../../../src/shared/ipc/views/connection';
import type { Catalog } from '../../support/orders-harness';
import { fen, goodCard, must, yuanText } from '../../support/orders-harness';
import { openConnectedApp, orderDetailWhen, sleep, waitFor, type AppKit, type Merchant } from './app-kit';

// 60 s of core time is 6 s here: long enough to open a product twice inside it on a busy machine.
const SCALE = 10;
let merchant: Merchant;
let kit: AppKit;
let catalog: Catalog;
let account: { userId: string; apiKey: string };

beforeAll(async () => {
  ({ merchant, kit, catalog, account } = await openConnectedApp(SCALE));
  // The first sync reads the balance when it ends: let it end, so that no read below is the sync's.
  await waitFor('the first sync to finish', async () => !(await kit.ok('catalog.syncStatus')).running || null, 120_000);
});

afterAll(async () => {
  await kit?.close();
  await merchant?.stop();
});

const ledgerBalanceFen = async (): Promise<number> => fen((await merchant.control<{ balance: string }>('GET', `/control/ledger/${account.userId}`)).balance);
const accountEventsFrom = (index: number): AccountView[] =>
  kit.events.slice(index).flatMap((e) => (e.event === 'account.changed' ? [e.payload as AccountView] : []));
const goodsGets = (productRef: number): number => kit.requests.filter((r) => new URL(r.url).pathname.endsWith(`/goods/${productRef}`)).length;
const catalogChangedFor = (productRef: number, from: number): boolean =>
  kit.events.slice(from).some((e) => e.event === 'catalog.changed' && (e.payload as { productRefs: number[] }).productRefs.includes(productRef));

describe('the balance follows every money event', () => {
  it('a refund credited at the merchant reaches account.changed through the tracker, with the ledger balance and its reading time', async () => {
    const pick = catalog.claim((p, v) => goodCard(p, v), 'card that is supplied');
    const variantRef = pick.product.variants.length > 1 ? pick.variant.variantRef : 0;
    const placed = await kit.ok('orders.place', { productRef: pick.product.productRef, variantRef, units: 2, unitPriceFen: fen(pick.variant.price) });
    const ref = placed.clientOrderRef;
    await orderDetailWhen(kit, ref, 'acceptance', (d) => d.intentStatus === 'accepted');
    await merchant.advance(ref, 'processing');
    await merchant.advance(ref, 'completed');
    await orderDetailWhen(kit, ref, 'completion', (d) => d.state === 'completed' && d.allowedActions.includes('refund'));
    await kit.ok('orders.requestRefund', { clientOrderRef: ref, amountFen: 100, reason: 'one card did not work' });
    // Whatever the request itself led to has settled (a balance read 1 s after an event, real time).
    await sleep(2_500);
    const beforeCredit = await ledgerBalanceFen();
    expect(accountEventsFrom(0).at(-1)?.balanceFen).toBe(beforeCredit);

    const from = kit.events.length;
    const creditedAt = Date.now();
    await merchant.advance(ref, 'refund.succeeded');
    const credited = await ledgerBalanceFen();
    expect(credited).toBe(beforeCredit + 100);
    // No buyer action: only the tracker's poll of the order with a pending refund tells the app.
    const seen = await waitFor('account.changed with the credited balance', () => accountEventsFrom(from).find((a) => a.balanceFen === credited) ?? null, 30_000);
    const realSeconds = (Date.now() - creditedAt) / 1000;
    // The tracker polls an order with a pending refund 15 s (core time) after its last change: 1.5 s here.
    expect(realSeconds).toBeLessThan(10);
    expect(seen.readAt).toBeGreaterThan(0);
    await orderDetailWhen(kit, ref, 'the refund on the order', (d) => d.refundedFen === 100);
  });
});

describe('a product opened is a product read recently', () => {
  it('a reading older than DETAIL_FRESH_FOR_S is read again on opening: the new price and stock, in the history too', async () => {
    const pick = catalog.claim((p, v) => goodCard(p, v) && v.inventoryType === 'tracked' && (v.remainingUnits ?? 0) > 20 && fen(v.price) > 100, 'tracked card with stock');
    const productRef = pick.product.productRef;
    const variantRef = pick.variant.variantRef;
    const first = await kit.ok('catalog.openProduct', { productRef });
    const readAt = must(first.product.syncedAt, 'a stored reading');
    const gets = goodsGets(productRef);

    // The merchant moves price and stock; no list page and no webhook tells the app.
    const price = fen(pick.variant.price) + 3;
    await merchant.control('POST', `/control/products/${productRef}`, { variantRef, price: yuanText(price), remainingUnits: 7 });
    const early = await kit.ok('catalog.openProduct', { productRef });
    if (kit.core.clock.nowMs() / 1000 - readAt < DETAIL_FRESH_FOR_S - 5) {
      // Still fresh: answered from the cache, nothing sent.
      expect(early.detailLoad).toBe('current');
      expect(goodsGets(productRef)).toBe(gets);
    }

    await waitFor('the reading to grow old', () => (kit.core.clock.nowMs() / 1000 - readAt > DETAIL_FRESH_FOR_S + 1 ? true : null), 30_000);
    const from = kit.events.length;
    const reopened = await kit.ok('catalog.openProduct', { productRef });
    expect(reopened.detailLoad).toBe('fetched');
    const variant = must(reopened.product.variants.find((v) => v.variantRef === variantRef), 'the variant');
    expect(variant).toMatchObject({ priceFen: price, remainingUnits: 7 });
    expect(must(reopened.product.syncedAt, 'the new reading')).toBeGreaterThan(readAt);
    expect(catalogChangedFor(productRef, from)).toBe(true);
    const history = await kit.ok('catalog.priceHistory', { productRef, variantRef });
    expect(history.at(-1)).toMatchObject({ priceFen: price, remainingUnits: 7 });
    // Read now: opening it again sends nothing.
    const sent = goodsGets(productRef);
    expect((await kit.ok('catalog.openProduct', { productRef })).detailLoad).toBe('current');
    expect(goodsGets(productRef)).toBe(sent);
  });

  it('the price the guard reads before a send reaches the history and the screens (catalog.changed)', async () => {
    const pick = catalog.claim((p, v) => goodCard(p, v) && fen(v.price) > 100, 'card that is supplied');
    const productRef = pick.product.productRef;
    const variantRef = pick.product.variants.length > 1 ? pick.variant.variantRef : 0;
    const shown = fen(pick.variant.price);
    await kit.ok('catalog.openProduct', { productRef });
    const lowered = shown - 21;
    await merchant.control('POST', `/control/products/${productRef}`, { variantRef, price: yuanText(lowered) });
    await sleep(50);
    const from = kit.events.length;
    const placed = await kit.ok('orders.place', { productRef, variantRef, units: 1, unitPriceFen: shown });
    const accepted = await orderDetailWhen(kit, placed.clientOrderRef, 'acceptance', (d) => d.intentStatus === 'accepted');
    expect(accepted.unitPriceFen).toBe(lowered);
    const history = await kit.ok('catalog.priceHistory', { productRef, variantRef });
    expect(history.at(-1)?.priceFen).toBe(lowered);
    await waitFor('catalog.changed naming the product', () => catalogChangedFor(productRef, from) || null);
  });
});
