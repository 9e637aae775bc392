// Connecting one data folder to another merchant account (core/connection/merchant-switch.ts), through
// the app service, against two real sandboxes over HTTPS with SQLite on disk: the first merchant's
// catalog and watched products are gone and the second one's synced instead; open work with the
// current account (an unfinished order) refuses the switch and changes nothing, not even the stored
// key; once the order is finished the switch goes through and the order and its cards stay as
// history; reconnecting the same account keeps the cache.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog, goodCard, fen } from '../../support/orders-harness';
import { createAppKit, expectRefused, startMerchant, waitFor, type AppKit, type Merchant } from './app-kit';

const SCALE = 50;
let first: Merchant;
let second: Merchant;
let kit: AppKit;
let accountA: { userId: string; apiKey: string };
let accountB: { userId: string; apiKey: string };

beforeAll(async () => {
  // Different seeds and sizes: the two catalogs can be told apart by their product count and names.
  first = await startMerchant({ timeScale: SCALE, autoAdvance: false, products: 40, seed: 1 });
  second = await startMerchant({ timeScale: SCALE, autoAdvance: false, products: 25, seed: 2 });
  accountA = await first.newAccount('100000');
  accountB = await second.newAccount('100000');
  kit = await createAppKit(SCALE);
  kit.secrets.push(accountA.apiKey, accountB.apiKey);
  await kit.app.start();
});

afterAll(async () => {
  await kit?.close();
  await first?.stop();
  await second?.stop();
});

const inputFor = (merchant: Merchant, account: { userId: string; apiKey: string }) => ({
  baseUrl: merchant.sandbox.baseUrl,
  userId: account.userId,
  apiKey: account.apiKey,
  caCertPem: merchant.caCertPem,
});

async function syncedTotal(expected: number): Promise<number> {
  return waitFor(`a finished sync showing ${expected} products`, async () => {
    const status = await kit.ok('catalog.syncStatus');
    if (status.running || status.lastSyncedAt === null) return null;
    const result = await kit.ok('catalog.search', { limit: 1 });
    return result.total === expected ? result.total : null;
  }, 60_000);
}

describe('app service: switching merchant accounts', () => {
  it('drops the first merchant’s catalog and watched products and syncs the second one', async () => {
    await kit.ok('connection.connect', inputFor(first, accountA));
    expect(await syncedTotal(40)).toBe(40);
    const someProduct = (await kit.ok('catalog.search', { limit: 1 })).items[0];
    if (someProduct === undefined) throw new Error('no product after the sync');
    await kit.ok('catalog.setWatched', { productRef: someProduct.productRef, watched: true });

    // Reconnecting the same account (a new key typed again) keeps the cache: nothing to sync again.
    await kit.ok('connection.connect', inputFor(first, accountA));
    expect((await kit.ok('catalog.search', { limit: 1 })).total).toBe(40);
    expect((await kit.ok('catalog.product', { productRef: someProduct.productRef })).watched).toBe(true);

    await kit.ok('connection.connect', inputFor(second, accountB));
    expect(await syncedTotal(25)).toBe(25);
    const secondNames = new Set((await second.products()).map((p) => p.name));
    const shown = await kit.ok('catalog.search', { limit: 100 });
    for (const item of shown.items) expect(secondNames.has(item.name)).toBe(true);
    // The watch belonged to the first merchant's product: no product of the second one is watched.
    const watchedNow = kit.core.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM watched_products').get()?.n;
    expect(watchedNow).toBe(0);
  });

  it('refuses to switch while an order is open, changing nothing; switches once it is finished', async () => {
    const catalog = new Catalog(await second.products());
    const pick = catalog.claim((p, v) => goodCard(p, v), 'card that is supplied');
    const variantRef = pick.product.variants.length > 1 ? pick.variant.variantRef : 0;
    const placed = await kit.ok('orders.place', { productRef: pick.product.productRef, variantRef, units: 1, unitPriceFen: fen(pick.variant.price) });
    const ref = placed.clientOrderRef;
    await waitFor('acceptance', async () => ((await kit.ok('orders.get', { clientOrderRef: ref })).state === 'pending' ? true : null));

    const refused = expectRefused(await kit.call('connection.connect', inputFor(first, accountA)), 'ACTION_NOT_ALLOWED');
    expect(refused.message).toMatch(/1 order\(s\) not finished/);
    const status = await kit.ok('connection.status');
    expect(status.baseUrl).toBe(second.sandbox.baseUrl);
    expect(status.userId).toBe(accountB.userId);
    expect((await kit.ok('catalog.search', { limit: 1 })).total).toBe(25);
    // The stored key is still the second account's: the account answers.
    expect((await kit.ok('account.get')).userId).toBe(accountB.userId);

    await second.advance(ref, 'processing');
    await second.advance(ref, 'completed');
    await waitFor('completion with its card', async () => {
      const detail = await kit.ok('orders.get', { clientOrderRef: ref });
      return detail.state === 'completed' && detail.cards.length === 1 ? detail : null;
    });

    await kit.ok('connection.connect', inputFor(first, accountA));
    expect(await syncedTotal(40)).toBe(40);
    // History stays: the order and its card are still there under the new connection.
    const kept = await kit.ok('orders.get', { clientOrderRef: ref });
    expect(kept.state).toBe('completed');
    expect((await kit.ok('vault.cards', { clientOrderRef: ref })).length).toBe(1);
  });
});
