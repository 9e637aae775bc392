// A watch notifies on its first change: turning a watch on and then changing the product's price in
// the sandbox raises app.notification productChanged the first time, by the watched-product poll
// (webhooks off) and by a product.changed webhook at the loopback receiver.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { must } from '../../support/orders-harness';
import { openConnectedApp, waitFor, type ConnectedApp } from './app-kit';

const SCALE = 50;
let opened: ConnectedApp;

beforeAll(async () => {
  opened = await openConnectedApp(SCALE);
  await opened.kit.ok('catalog.sync');
  await waitFor('the first sync', async () => {
    const status = await opened.kit.ok('catalog.syncStatus');
    return !status.running && status.lastSyncedAt !== null ? status : null;
  }, 60_000);
});

afterAll(async () => {
  await opened?.kit.close();
  await opened?.merchant.stop();
});

const noticesFor = (productRef: number): number =>
  opened.kit.events.filter((e) => e.event === 'app.notification' && (e.payload as { kind: string; productRef?: number }).kind === 'productChanged' && (e.payload as { productRef?: number }).productRef === productRef).length;

async function watchThenChangePrice(nth: number): Promise<number> {
  const { kit, merchant } = opened;
  const hit = must((await kit.ok('catalog.search', { availability: 'available', limit: 5 })).items[nth], 'a product');
  const product = await kit.ok('catalog.product', { productRef: hit.productRef });
  const variant = must(product.variants[0], 'a variant');
  const polledBefore = kit.logLines.filter((l) => l.includes('watched products polled')).length;
  await kit.ok('catalog.setWatched', { productRef: hit.productRef, watched: true });
  // The watch's first read of the product (a newly watched product is read at once) comes first.
  await waitFor('the first read of the watched product', () => (kit.logLines.filter((l) => l.includes('watched products polled')).length > polledBefore ? true : null));
  await merchant.control('POST', `/control/products/${hit.productRef}`, { variantRef: variant.variantRef, price: ((variant.priceFen + 321) / 100).toFixed(2) });
  return hit.productRef;
}

describe('a watch notifies on its first change', () => {
  it('polling (webhooks off): the first price change after turning the watch on is notified', async () => {
    const productRef = await watchThenChangePrice(0);
    await waitFor('the first product-changed notice', () => (noticesFor(productRef) > 0 ? true : null), 30_000);
    expect(noticesFor(productRef)).toBe(1);
  });

  it('webhooks (loopback receiver): the first price change after turning the watch on is notified', async () => {
    await opened.kit.ok('settings.set', { webhookTunnel: 'loopback' });
    await waitFor('the receiver up', async () => ((await opened.kit.ok('events.health')).receiverUp ? true : null));
    const productRef = await watchThenChangePrice(1);
    await waitFor('the first product-changed notice', () => (noticesFor(productRef) > 0 ? true : null), 30_000);
    expect(noticesFor(productRef)).toBe(1);
  });

  it('watched while polling, then webhooks turned on: the first stock-out is notified', async () => {
    const { kit, merchant } = opened;
    await kit.ok('settings.set', { webhookTunnel: 'off' });
    await waitFor('the receiver down', async () => ((await kit.ok('events.health')).receiverUp ? null : true));
    const products = await merchant.products();
    const picked = products.flatMap((p) => p.variants.map((v) => ({ p, v }))).find(({ p, v }) => p.productType === 'card' && v.inventoryType === 'tracked' && (v.remainingUnits ?? 0) > 2);
    if (picked === undefined) throw new Error('no tracked card variant');
    const productRef = picked.p.productRef;
    await kit.ok('catalog.setWatched', { productRef, watched: true });
    await kit.ok('settings.set', { webhookTunnel: 'loopback' });
    await waitFor('the receiver up', async () => ((await kit.ok('events.health')).webhooksLive ? true : null));
    await merchant.control('POST', `/control/products/${productRef}`, { variantRef: picked.v.variantRef, remainingUnits: 0 });
    await waitFor('the first product-changed notice', () => (noticesFor(productRef) > 0 ? true : null), 30_000);
    expect(noticesFor(productRef)).toBe(1);
  });

  it('webhooks live: a change made right after turning the watch on (before its subscription) is notified', async () => {
    const { kit, merchant } = opened;
    await waitFor('webhooks live', async () => ((await kit.ok('events.health')).webhooksLive ? true : null));
    const hit = must((await kit.ok('catalog.search', { availability: 'available', limit: 8 })).items[4], 'a product');
    const product = await kit.ok('catalog.product', { productRef: hit.productRef });
    const variant = must(product.variants[0], 'a variant');
    await kit.ok('catalog.setWatched', { productRef: hit.productRef, watched: true });
    await merchant.control('POST', `/control/products/${hit.productRef}`, { variantRef: variant.variantRef, price: ((variant.priceFen + 77) / 100).toFixed(2) });
    await waitFor('the first product-changed notice', () => (noticesFor(hit.productRef) > 0 ? true : null), 30_000);
    expect(noticesFor(hit.productRef)).toBe(1);
  });

  it('webhooks live, the cache stale when the watch began: a change back to the cached price is still a change (the baseline is the merchant’s price at watch time)', async () => {
    const { kit, merchant } = opened;
    await kit.ok('settings.set', { webhookTunnel: 'loopback' });
    await waitFor('webhooks live', async () => ((await kit.ok('events.health')).webhooksLive ? true : null));
    const hit = must((await kit.ok('catalog.search', { availability: 'available', limit: 8 })).items[5], 'a product');
    const product = await kit.ok('catalog.product', { productRef: hit.productRef });
    const variant = must(product.variants[0], 'a variant');
    const cached = (variant.priceFen / 100).toFixed(2);
    // The merchant moved the price while the app was not looking: the cache still says `cached`.
    await merchant.control('POST', `/control/products/${hit.productRef}`, { variantRef: variant.variantRef, price: ((variant.priceFen + 500) / 100).toFixed(2) });
    const renewals = kit.logLines.filter((l) => l.includes('subscriptions renewed')).length;
    const polls = kit.logLines.filter((l) => l.includes('watched products polled')).length;
    await kit.ok('catalog.setWatched', { productRef: hit.productRef, watched: true });
    await waitFor('the subscription and the first poll', () =>
      kit.logLines.filter((l) => l.includes('subscriptions renewed')).length > renewals && kit.logLines.filter((l) => l.includes('watched products polled')).length > polls ? true : null,
    );
    // What changed before the watch began is not news: no notice for it.
    const before = noticesFor(hit.productRef);
    expect(before).toBe(0);
    // The buyer's first change after watching: back to the price the stale cache held.
    await merchant.control('POST', `/control/products/${hit.productRef}`, { variantRef: variant.variantRef, price: cached });
    await waitFor('the product-changed notice of that change', () => (noticesFor(hit.productRef) > before ? true : null), 30_000);
    expect(noticesFor(hit.productRef)).toBe(1);
    const after = await kit.ok('catalog.product', { productRef: hit.productRef });
    expect(after.variants.find((v) => v.variantRef === variant.variantRef)?.priceFen).toBe(variant.priceFen);
  });
});
