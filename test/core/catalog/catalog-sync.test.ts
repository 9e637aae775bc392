// The full catalog sync with every template (`templates: 'all'`, the CLI's `sync --templates`) against
// the real sandbox over HTTPS, SQLite on disk, both clocks 40× faster: what it stores, that an interrupted sync resumes without redoing stored work, and that a second
// sync is incremental by revision. Every sync must meet zero 429s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchProducts } from '../../../src/core/catalog/catalog-search';
import { runCatalogSync, type CatalogSyncSummary, type SyncProgress } from '../../../src/core/catalog/catalog-sync';
import type { ProductDetail } from '../../../src/shared/merchant/catalog';
import { changeProduct, controlProducts, type ControlProduct } from '../../support/control-catalog';
import { startSandbox, type RunningSandbox } from '../../support/sandbox-process';
import { comparable, expectedFromDetail, twoChineseCharacters } from './catalog-expectations';
import { count429, createCatalogStore, freshClient, requestsTo, type CatalogClientKit, type CatalogStore } from './catalog-kit';

const SCALE = 40;
const PRODUCTS = 120;
const CONCURRENCY = 8;

let sandbox: RunningSandbox;
const kits: CatalogClientKit[] = [];
const stores: CatalogStore[] = [];

// The first sync's client and store, reused by the incremental sync (same account, same quota model).
let first: { kit: CatalogClientKit; store: CatalogStore; summary: CatalogSyncSummary; requests: number } | null = null;

async function client(): Promise<CatalogClientKit> {
  const kit = await freshClient(sandbox, SCALE);
  kits.push(kit);
  return kit;
}

function store(kit: CatalogClientKit): CatalogStore {
  const s = createCatalogStore(kit.clock);
  stores.push(s);
  return s;
}

beforeAll(async () => {
  sandbox = await startSandbox(['--products', String(PRODUCTS), '--time-scale', String(SCALE)]);
});

afterAll(async () => {
  for (const kit of kits) kit.close();
  for (const s of stores) s.temp.dispose();
  await sandbox?.stop();
});

function firstSync(): NonNullable<typeof first> {
  if (first === null) throw new Error('the full sync test did not run');
  return first;
}

describe('catalog sync', () => {
  it('stores every category, product, variant and template exactly as the sandbox shows them', async () => {
    const kit = await client();
    const s = store(kit);
    const progress: SyncProgress[] = [];
    const summary = await runCatalogSync({ repository: s.repository, client: kit.client, clock: kit.clock, templates: 'all', concurrency: CONCURRENCY, onProgress: (p) => progress.push(p) });
    expect(count429(kit.exchanges)).toBe(0);
    first = { kit, store: s, summary, requests: kit.exchanges.length };

    // What the interface shows, read by another account (its own quota windows).
    const verify = await client();
    const { data: categoryPage } = await verify.client.listCategories({ pageSize: 100 });
    expect(s.reader.listCategories()).toEqual(
      categoryPage.list.map((c) => ({ catalogRef: c.catalogRef, name: c.name, parentRef: c.parentRef, sort: c.sort, productCount: c.productCount })),
    );
    const refs: number[] = [];
    for (let page = 1; refs.length < PRODUCTS; page++) {
      const { data } = await verify.client.listCatalog({ page, pageSize: 100 });
      if (data.list.length === 0) break;
      refs.push(...data.list.map((item) => item.productRef));
    }
    expect(refs).toHaveLength(PRODUCTS);
    const details: ProductDetail[] = await Promise.all(refs.map(async (ref) => (await verify.client.getProduct(ref)).data));
    let variantCount = 0;
    for (const detail of details) {
      expect(comparable(s.reader.readProduct(detail.productRef))).toEqual(expectedFromDetail(detail));
      variantCount += detail.variants.length;
    }
    const templates = await Promise.all(
      details.flatMap((d) => d.variants.map(async (v) => ({ productRef: d.productRef, variantRef: v.variantRef, template: (await verify.client.getTemplate(d.productRef, v.variantRef)).data }))),
    );
    for (const t of templates) expect(s.reader.readTemplate(t.productRef, t.variantRef)?.template).toEqual(t.template);
    expect(count429(verify.exchanges)).toBe(0);

    // Nothing more, nothing twice: one history row per variant after a first sync.
    expect(s.repository.counts()).toEqual({
      categories: categoryPage.list.length,
      products: PRODUCTS,
      removedProducts: 0,
      variants: variantCount,
      templates: variantCount,
      priceHistory: variantCount,
    });
    expect(summary).toMatchObject({ resumed: false, pagesFetched: 2, detailsFetched: PRODUCTS, templatesFetched: variantCount, removedProducts: 0 });
    expect(requestsTo(kit.exchanges, '/goods/tpl')).toHaveLength(variantCount);
    expect(s.repository.readSyncState()?.phase).toBe('done');

    // Progress for a bar: every phase, counts that only grow to their total, an ETA on the way.
    expect(new Set(progress.map((p) => p.phase))).toEqual(new Set(['list', 'details', 'templates', 'done']));
    const detailEvents = progress.filter((p) => p.phase === 'details');
    expect(detailEvents.at(-1)).toMatchObject({ done: PRODUCTS, total: PRODUCTS });
    expect(detailEvents.every((p, i) => i === 0 || p.done >= (detailEvents[i - 1]?.done ?? 0))).toBe(true);
    expect(detailEvents.some((p) => p.etaMs !== null && p.etaMs > 0)).toBe(true);

    // Offline search over what was stored: a 2-character Chinese substring of a name finds it.
    const target = details.find((d) => twoChineseCharacters(d.name) !== null);
    const text = target ? twoChineseCharacters(target.name) : null;
    if (!target || text === null) throw new Error('no product name with two Chinese characters');
    const found = searchProducts(s.db, { text, limit: 200 });
    expect(found.items.map((hit) => hit.productRef)).toContain(target.productRef);
  });

  it('a sync resumed in its last step shows the earlier steps as done, not a bar back at 0 %', async () => {
    const baseline = firstSync();
    const kit = await client();
    const s = store(kit);
    const controller = new AbortController();
    // Cut a few requests before the end: categories, pages and details are stored, templates are not all.
    kit.beforeRequest = (n) => {
      if (n === baseline.requests - 5) controller.abort(new Error('simulated crash'));
    };
    await expect(runCatalogSync({ repository: s.repository, client: kit.client, clock: kit.clock, templates: 'all', concurrency: CONCURRENCY, signal: controller.signal })).rejects.toThrow('simulated crash');
    expect(s.repository.readSyncState()?.phase).toBe('templates');
    kit.beforeRequest = null;
    const fractions: number[] = [];
    await runCatalogSync({
      repository: s.repository,
      client: kit.client,
      clock: kit.clock,
      templates: 'all',
      concurrency: CONCURRENCY,
      onProgress: (progress) => {
        if (progress.fraction !== null) fractions.push(progress.fraction);
      },
    });
    expect(fractions[0]).toBeGreaterThan(0.5);
    expect(fractions[fractions.length - 1]).toBe(1);
  });

  it('an interrupted sync resumes where it stopped and completes without duplicates', async () => {
    const baseline = firstSync();
    const kit = await client();
    const s = store(kit);
    const controller = new AbortController();
    // 1 category request, 2 pages (the list), then the abort cuts the details phase short.
    const cutAfter = 60;
    kit.beforeRequest = (n) => {
      if (n === cutAfter) controller.abort(new Error('simulated crash'));
    };
    await expect(runCatalogSync({ repository: s.repository, client: kit.client, clock: kit.clock, templates: 'all', concurrency: CONCURRENCY, signal: controller.signal })).rejects.toThrow(
      'simulated crash',
    );
    const interrupted = s.repository.readSyncState();
    expect(interrupted?.phase).toBe('details');
    // An abort is a stop, not a failure: nothing for the screen to explain, and the next run resumes.
    expect(interrupted?.failure).toBeNull();
    const beforeResume = kit.exchanges.length;
    expect(beforeResume).toBeLessThan(cutAfter + CONCURRENCY);

    kit.beforeRequest = null;
    const fractions: number[] = [];
    const summary = await runCatalogSync({
      repository: s.repository,
      client: kit.client,
      clock: kit.clock,
      templates: 'all',
      concurrency: CONCURRENCY,
      onProgress: (progress) => {
        if (progress.fraction !== null) fractions.push(progress.fraction);
      },
    });
    expect(summary.resumed).toBe(true);
    // The resumed run's bar starts where the interrupted one stood (categories and pages done), not at 0 %.
    expect(fractions[0]).toBeGreaterThan(0);
    expect(summary.categories).toBe(0);
    expect(summary.pagesFetched).toBe(0);
    expect(count429(kit.exchanges)).toBe(0);

    // Every detail fetched once across both runs: nothing stored was asked for again.
    const detailPaths = requestsTo(kit.exchanges, '/goods/').filter((e) => /\/goods\/\d+$/.test(new URL(e.url).pathname)).map((e) => new URL(e.url).pathname);
    expect(new Set(detailPaths).size).toBe(PRODUCTS);
    expect(detailPaths.length).toBe(PRODUCTS);
    expect(kit.exchanges.length).toBeLessThan(2 * baseline.requests);
    expect(kit.exchanges.length).toBe(baseline.requests);

    expect(s.repository.counts()).toEqual(baseline.store.repository.counts());
    for (let ref = 1001; ref < 1001 + PRODUCTS; ref++) {
      expect(comparable(s.reader.readProduct(ref))).toEqual(comparable(baseline.store.reader.readProduct(ref)));
    }
  });

  it('a second sync fetches only the list pages, changed details and bumped templates, and records exactly the new history rows', async () => {
    const { kit, store: s } = firstSync();
    const products = await controlProducts(sandbox, PRODUCTS);
    const used = new Set<number>();
    const pick = (predicate: (p: ControlProduct) => boolean): ControlProduct => {
      const found = products.find((p) => !used.has(p.productRef) && predicate(p));
      if (!found) throw new Error('no suitable product in the seeded catalog');
      used.add(found.productRef);
      return found;
    };
    const priced = pick((p) => p.variants.length > 1);
    const stocked = pick((p) => p.variants.some((v) => v.inventoryType === 'tracked'));
    const renamed = pick(() => true);
    const bumped = pick((p) => p.variants.length > 1);

    const pricedVariant = priced.variants[1];
    const stockedVariant = stocked.variants.find((v) => v.inventoryType === 'tracked');
    const renamedVariant = renamed.variants[0];
    const bumpedVariant = bumped.variants[0];
    if (!pricedVariant || !stockedVariant || !renamedVariant || !bumpedVariant) throw new Error('variants missing');
    const newPrice = (Number(pricedVariant.price) + 1.23).toFixed(2);
    const newUnits = (stockedVariant.remainingUnits ?? 0) + 7;
    await changeProduct(sandbox, priced.productRef, { variantRef: pricedVariant.variantRef, price: newPrice });
    await changeProduct(sandbox, stocked.productRef, { variantRef: stockedVariant.variantRef, remainingUnits: newUnits });
    await changeProduct(sandbox, renamed.productRef, { variantRef: renamedVariant.variantRef, title: `${renamedVariant.title}·新版` });
    await changeProduct(sandbox, bumped.productRef, { variantRef: bumpedVariant.variantRef, purchaseSchemaRevision: 'bump' });

    const countsBefore = s.repository.counts();
    const pricedHistoryBefore = s.repository.priceHistory(priced.productRef, pricedVariant.variantRef).length;
    const stockedHistoryBefore = s.repository.priceHistory(stocked.productRef, stockedVariant.variantRef).length;
    const start = kit.exchanges.length;

    const summary = await runCatalogSync({ repository: s.repository, client: kit.client, clock: kit.clock, templates: 'all', concurrency: CONCURRENCY });
    const exchanges = kit.exchanges.slice(start);
    expect(count429(exchanges)).toBe(0);

    const detailRefs = exchanges.map((e) => /\/goods\/(\d+)$/.exec(new URL(e.url).pathname)?.[1]).filter((ref) => ref !== undefined).map(Number);
    expect(detailRefs.sort((a, b) => a - b)).toEqual([priced.productRef, stocked.productRef, renamed.productRef, bumped.productRef].sort((a, b) => a - b));
    const templateRequests = requestsTo(exchanges, '/goods/tpl').map((e) => new URL(e.url).searchParams);
    expect(templateRequests).toHaveLength(1);
    expect(Number(templateRequests[0]?.get('productRef'))).toBe(bumped.productRef);
    expect(requestsTo(exchanges, '/goods/catalog')).toHaveLength(2);
    // The categories were stored minutes ago and name every listed catalogRef: not asked again.
    expect(requestsTo(exchanges, '/categories')).toHaveLength(0);
    expect(exchanges).toHaveLength(2 + 4 + 1);
    expect(summary).toMatchObject({ resumed: false, detailsFetched: 4, templatesFetched: 1, removedProducts: 0 });

    // Exactly the two new history rows: a price change and a stock change; a title or template change records none.
    expect(s.repository.counts()).toEqual({ ...countsBefore, priceHistory: countsBefore.priceHistory + 2 });
    const pricedHistory = s.repository.priceHistory(priced.productRef, pricedVariant.variantRef);
    expect(pricedHistory).toHaveLength(pricedHistoryBefore + 1);
    expect(pricedHistory.at(-1)?.priceFen).toBe(Math.round(Number(newPrice) * 100));
    const stockedHistory = s.repository.priceHistory(stocked.productRef, stockedVariant.variantRef);
    expect(stockedHistory).toHaveLength(stockedHistoryBefore + 1);
    expect(stockedHistory.at(-1)?.remainingUnits).toBe(newUnits);

    expect(s.reader.readProduct(renamed.productRef)?.variants[0]?.title).toBe(`${renamedVariant.title}·新版`);
    expect(s.reader.readTemplate(bumped.productRef, bumpedVariant.variantRef)?.template.purchaseSchemaRevision).toBe(bumpedVariant.purchaseSchemaRevision + 1);
  });
});
