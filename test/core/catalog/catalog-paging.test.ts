// Paging anomalies of a careless merchant, over real HTTPS against the hostile merchant:
// a total that changes mid-sync, duplicates across pages, an empty page before `total`, the same
// page forever: each ends the sync with a clear CatalogPagingError, marks nothing removed, and the
// next sync lists from page 1 again and completes; a merchant that ignores `pageSize` is paged by its
// own page size into a complete, consistent cache.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCatalogSync } from '../../../src/core/catalog/catalog-sync';
import { CatalogPagingError } from '../../../src/core/catalog/paging-guard';
import { startHostileMerchant, type HostileMerchant, type PagingAnomaly } from '../../support/hostile-merchant';
import { buildClient, rejectionOf, type Kit } from '../merchant/client-kit';
import { createCatalogStore, type CatalogStore } from './catalog-kit';

const PRODUCTS = 130;
// The hostile merchant keeps no quotas; the client's own model still paces, on a faster clock.
const SCALE = 50;
let merchant: HostileMerchant;
let kit: Kit;
let store: CatalogStore;

beforeAll(async () => {
  merchant = await startHostileMerchant({ products: PRODUCTS });
});
afterAll(async () => {
  await merchant.close();
});
beforeEach(() => {
  merchant.mode({ kind: 'normal' });
  merchant.requests.length = 0;
  kit = buildClient({ baseUrl: merchant.baseUrl, userId: merchant.userId, apiKey: merchant.apiKey, ca: merchant.ca, scale: SCALE });
  store = createCatalogStore(kit.clock);
});
afterEach(() => {
  kit.close();
  store.temp.dispose();
});

const sync = () => runCatalogSync({ repository: store.repository, client: kit.client, clock: kit.clock, templates: 'all' });
const catalogPagesAsked = (): string[] => merchant.requests.filter((r) => r.path.startsWith('/goods/catalog')).map((r) => r.path);

describe('paging anomalies end the sync cleanly', () => {
  it.each<[PagingAnomaly, RegExp]>([
    ['totalGrows', /total changed from 130 to 131/],
    ['duplicates', /item 1100 is listed on page 1 and again on page 2/],
    ['emptyPage', /100 distinct items were listed where the total said 130/],
    ['samePageForever', /listed on page 1 and again on page 2/],
  ])('%s: a clear error, nothing marked removed, the next sync pages from 1 and completes', async (anomaly, message) => {
    await sync();
    expect(store.repository.counts()).toMatchObject({ products: PRODUCTS, removedProducts: 0 });

    merchant.mode({ kind: 'paging', anomaly });
    merchant.requests.length = 0;
    const error = await rejectionOf(sync());
    expect(error).toBeInstanceOf(CatalogPagingError);
    if (!(error instanceof Error)) return;
    expect(error.message).toMatch(message);
    expect(error.message).toMatch(/nothing was marked removed/);
    // Bounded: the first page, then at most one round of the sync's pool (8), never an endless walk.
    expect(catalogPagesAsked().length).toBeLessThanOrEqual(1 + 8);
    expect(store.repository.counts()).toMatchObject({ products: PRODUCTS, removedProducts: 0 });
    expect(store.repository.readSyncState()).toMatchObject({ phase: 'list', nextPage: 1, failure: { kind: 'paging', merchantCode: null } });

    merchant.mode({ kind: 'normal' });
    merchant.requests.length = 0;
    const summary = await sync();
    expect(summary.resumed).toBe(true);
    expect(catalogPagesAsked()[0]).toContain('page=1&');
    expect(store.repository.counts()).toMatchObject({ products: PRODUCTS, removedProducts: 0 });
    expect(store.repository.readSyncState()?.phase).toBe('done');
  });

  it('a merchant that ignores pageSize is paged by its own page size: every product once, none lost', async () => {
    merchant.mode({ kind: 'paging', anomaly: 'ignorePageSize' });
    const summary = await sync();
    expect(summary.pagesFetched).toBe(Math.ceil(PRODUCTS / 20));
    expect(catalogPagesAsked().slice(1).every((path) => path.includes('pageSize=20'))).toBe(true);
    expect(store.repository.counts()).toMatchObject({ products: PRODUCTS, removedProducts: 0, variants: PRODUCTS, templates: PRODUCTS });
  });
});
