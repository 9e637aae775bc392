// catalog.openProduct (contract §11.2) against the sandbox over HTTPS: the catalog list is stored the
// way a sync stores it (through recordCatalogPage) and no detail yet, as while a first sync runs.
// Opening a list-only product sends exactly one GET /goods/{ref} on the buyer's behalf and answers
// its variants; two opens at once still send one; an open of a current product sends nothing; a
// stale detail is fetched again; offline answers the list data and sends nothing; a product the
// merchant says is gone (404001) is marked removed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMerchantClient, type MerchantClient } from '../../../src/core/merchant/merchant-client';
import { createNodeHttpsPort } from '../../../src/core/merchant/node-https-port';
import { createQuotaModel } from '../../../src/core/merchant/quota-model';
import { createRequestSender } from '../../../src/core/merchant/request-sender';
import { createScaledClock } from '../../../src/core/platform/clock';
import type { CatalogItem } from '../../../src/shared/merchant/catalog';
import { must } from '../../support/orders-harness';
import { silentLogger } from '../merchant/client-kit';
import { openConnectedApp, waitFor, type ConnectedApp } from './app-kit';

const SCALE = 50;
let opened: ConnectedApp;
let lister: MerchantClient;
let https: ReturnType<typeof createNodeHttpsPort>;
let listed: CatalogItem[] = [];

/** GET /goods/catalog, every page, stored as the sync stores the list: no detail. */
async function storeListPages(): Promise<void> {
  const items: CatalogItem[] = [];
  for (let page = 1; ; page++) {
    const { data } = await lister.listCatalog({ page, pageSize: 100 });
    items.push(...data.list);
    opened.kit.core.catalog.recordCatalogPage(data.list);
    if (page * data.pageSize >= data.total) break;
  }
  listed = items;
}

const detailGets = (productRef: number): number => opened.kit.requests.filter((r) => new URL(r.url).pathname.endsWith(`/goods/${productRef}`)).length;
const goodsGets = (): number => opened.kit.requests.filter((r) => /\/goods\/\d+$/u.test(new URL(r.url).pathname)).length;

beforeAll(async () => {
  // A finished sync on record, so connecting does not start one: only the buyer's opens fetch details here.
  opened = await openConnectedApp(SCALE, { autoAdvance: false }, (kit) => {
    const now = kit.core.catalog.nowSeconds();
    kit.core.catalog.writeSyncState({ phase: 'done', nextPage: 1, itemsDone: 0, itemsTotal: 0, startedAt: now, updatedAt: now, finishedAt: now, lastSuccessAt: now, failure: null });
  });
  const clock = createScaledClock(SCALE);
  https = createNodeHttpsPort({ ca: opened.merchant.caCertPem });
  const send = createRequestSender({
    baseUrl: opened.merchant.sandbox.baseUrl,
    credentials: () => Promise.resolve(opened.account),
    http: https,
    quota: createQuotaModel(clock),
    clock,
    logger: silentLogger,
  });
  lister = createMerchantClient(send, undefined, 'background');
  await storeListPages();
});

afterAll(async () => {
  https?.close();
  await opened?.kit.close();
  await opened?.merchant.stop();
});

const availableCard = (nth: number): CatalogItem => must(listed.filter((item) => item.availability === 'available')[nth], `listed product ${nth}`);

describe('catalog.openProduct', () => {
  it('before any detail: search says listOnly, with the list price and variant count', async () => {
    const item = availableCard(0);
    const { items } = await opened.kit.ok('catalog.search', { text: item.name, limit: 50 });
    const hit = must(items.find((h) => h.productRef === item.productRef), 'the hit');
    expect(hit).toMatchObject({ detailState: 'listOnly', priceFromFen: item.priceFrom, variantCount: item.variantCount });
    const view = await opened.kit.ok('catalog.product', { productRef: item.productRef });
    expect(view).toMatchObject({ detailState: 'listOnly', variants: [], priceFromFen: item.priceFrom, variantCount: item.variantCount, removed: false });
    expect(detailGets(item.productRef)).toBe(0);
  });

  it('opening a list-only product sends one GET /goods/{ref} and answers its variants; opening it again sends none', async () => {
    const item = availableCard(1);
    const first = await opened.kit.ok('catalog.openProduct', { productRef: item.productRef });
    expect(first.detailLoad).toBe('fetched');
    expect(first.product.detailState).toBe('stored');
    expect(first.product.variants).toHaveLength(item.variantCount);
    expect(detailGets(item.productRef)).toBe(1);
    expect(opened.kit.events).toContainEqual({ event: 'catalog.changed', payload: { productRefs: [item.productRef] } });
    const again = await opened.kit.ok('catalog.openProduct', { productRef: item.productRef });
    expect(again.detailLoad).toBe('current');
    expect(detailGets(item.productRef)).toBe(1);
    const { items } = await opened.kit.ok('catalog.search', { text: item.name, limit: 50 });
    expect(items.find((h) => h.productRef === item.productRef)?.detailState).toBe('stored');
  });

  it('two opens of one product at once share one GET', async () => {
    const item = availableCard(2);
    const [a, b] = await Promise.all([
      opened.kit.ok('catalog.openProduct', { productRef: item.productRef }),
      opened.kit.ok('catalog.openProduct', { productRef: item.productRef }),
    ]);
    expect(detailGets(item.productRef)).toBe(1);
    expect(a.product.variants).toHaveLength(item.variantCount);
    expect(b.product.variants).toEqual(a.product.variants);
  });

  it('a detail older than the list says is fetched again, with the new price', async () => {
    const item = availableCard(1);
    const before = await opened.kit.ok('catalog.product', { productRef: item.productRef });
    const variant = must(before.variants[0], 'a variant');
    const newPrice = variant.priceFen + 123;
    await opened.merchant.control('POST', `/control/products/${item.productRef}`, { variantRef: variant.variantRef, price: (newPrice / 100).toFixed(2) });
    await storeListPages();
    expect((await opened.kit.ok('catalog.product', { productRef: item.productRef })).detailState).toBe('stale');
    const reopened = await opened.kit.ok('catalog.openProduct', { productRef: item.productRef });
    expect(reopened.detailLoad).toBe('fetched');
    expect(reopened.product.detailState).toBe('stored');
    expect(reopened.product.variants.find((v) => v.variantRef === variant.variantRef)?.priceFen).toBe(newPrice);
    expect(detailGets(item.productRef)).toBe(2);
  });

  it('a product the merchant says is gone (404001) is marked removed', async () => {
    const ghost: CatalogItem = { ...availableCard(0), productRef: 987_654_321, name: '已不存在的商品' };
    opened.kit.core.catalog.recordCatalogPage([ghost]);
    const result = await opened.kit.ok('catalog.openProduct', { productRef: ghost.productRef });
    expect(result.detailLoad).toBe('removed');
    expect(result.product.removed).toBe(true);
    expect(result.requestId).not.toBeNull();
    expect((await opened.kit.ok('catalog.search', { text: '已不存在' })).items).toEqual([]);
    // Marked removed: opening it again asks nothing.
    await opened.kit.ok('catalog.openProduct', { productRef: ghost.productRef });
    expect(detailGets(ghost.productRef)).toBe(1);
  });

  it('offline: answers the list data and sends no GET /goods/{ref}', async () => {
    const { kit, merchant } = opened;
    await merchant.control('POST', '/control/faults', { refuseConnections: true });
    try {
      // Any request meets the refused socket and the connection state turns offline.
      await kit.call('account.get');
      await waitFor('the offline state', async () => ((await kit.ok('connection.state')).state === 'offline' ? true : null));
      const item = availableCard(3);
      const goodsBefore = goodsGets();
      const result = await kit.ok('catalog.openProduct', { productRef: item.productRef });
      expect(result.detailLoad).toBe('merchantUnreachable');
      expect(result.product).toMatchObject({ detailState: 'listOnly', variants: [], name: item.name, priceFromFen: item.priceFrom, variantCount: item.variantCount });
      expect(goodsGets()).toBe(goodsBefore);
    } finally {
      await merchant.control('POST', '/control/faults', { refuseConnections: false });
    }
  });
});
