// The sync that asks for less (issue 15), against the real sandbox over HTTPS with SQLite on disk:
// a new sync sends the list, every detail and the wanted templates only (watched products, variants
// ordered in the last 30 days), in the order the buyer will need them (watched, ordered, the category
// on screen, following a change of focus mid-sync, skipping a detail the buyer's own fetch stored); a
// second sync of the unchanged catalog sends its list page and nothing else; a changed revision fetches
// that one detail, and a cached template whose purchaseSchemaRevision moved is fetched again even for a
// product nobody wants any more; the categories are asked for only when due; and a sync state an older
// build left in phase 'categories' or 'pages' resumes as 'list'. Every run meets zero 429s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCatalogSync, type CatalogSyncOptions } from '../../../src/core/catalog/catalog-sync';
import type { ProductDetail } from '../../../src/shared/merchant/catalog';
import { changeProduct, controlProducts, type ControlProduct } from '../../support/control-catalog';
import { startSandbox, type RunningSandbox } from '../../support/sandbox-process';
import { count429, createCatalogStore, freshClient, requestsTo, type CatalogClientKit, type CatalogStore } from './catalog-kit';
import type { Exchange } from '../merchant/client-kit';

const SCALE = 40;
const PRODUCTS = 40;
const DAY_S = 24 * 3600;

let sandbox: RunningSandbox;
let kit: CatalogClientKit;
let store: CatalogStore;
const extra: { kits: CatalogClientKit[]; stores: CatalogStore[] } = { kits: [], stores: [] };
let products: ControlProduct[];

/** The products the first test gives roles, chosen from the seeded catalog (never hard-coded refs). */
interface Cast {
  watched: ControlProduct;
  orderedRecently: ControlProduct;
  orderedLongAgo: ControlProduct;
  /** Opened by the buyer while the sync runs: its detail is stored by their fetch, not the sync's. */
  opened: ControlProduct;
  focusFirst: number;
  focusThen: number;
}
let cast: Cast | null = null;

function castOf(): Cast {
  if (cast === null) throw new Error('the first sync test did not run');
  return cast;
}

const detailRef = (e: Exchange): number | null => {
  const match = /\/goods\/(\d+)$/.exec(new URL(e.url).pathname);
  return match?.[1] === undefined ? null : Number(match[1]);
};
const detailRefs = (exchanges: readonly Exchange[]): number[] => exchanges.map(detailRef).filter((ref): ref is number => ref !== null);
const templateKeys = (exchanges: readonly Exchange[]): string[] =>
  requestsTo(exchanges, '/goods/tpl')
    .map((e) => new URL(e.url).searchParams)
    .map((q) => `${q.get('productRef') ?? '?'}:${q.get('variantRef') ?? '?'}`)
    .sort();

function sync(patch: Partial<CatalogSyncOptions> = {}) {
  return runCatalogSync({ repository: store.repository, client: kit.client, clock: kit.clock, templates: 'wanted', concurrency: 4, ...patch });
}

function insertIntent(s: CatalogStore, ref: string, product: ControlProduct, createdAt: number): void {
  const variant = product.variants[0];
  if (!variant) throw new Error('a product without variants');
  s.db
    .prepare(
      `INSERT INTO order_intents (client_order_ref, product_ref, variant_ref, product_type, units, status, created_at, updated_at, resolved_at)
       VALUES (?, ?, ?, ?, 1, 'accepted', ?, ?, ?)`,
    )
    .run(ref, product.productRef, variant.variantRef, product.productType, createdAt, createdAt, createdAt);
}

beforeAll(async () => {
  sandbox = await startSandbox(['--products', String(PRODUCTS), '--time-scale', String(SCALE)]);
  kit = await freshClient(sandbox, SCALE);
  store = createCatalogStore(kit.clock);
  products = await controlProducts(sandbox, PRODUCTS);
});

afterAll(async () => {
  kit?.close();
  store?.temp.dispose();
  for (const k of extra.kits) k.close();
  for (const s of extra.stores) s.temp.dispose();
  await sandbox?.stop();
});

describe('a sync that asks for less', () => {
  it('sends the list, every detail in the buyer’s order and only the wanted templates', async () => {
    const byRef = [...products].sort((a, b) => a.productRef - b.productRef);
    const multi = byRef.filter((p) => p.variants.length > 1);
    const watched = multi[0];
    const orderedRecently = multi[1];
    const orderedLongAgo = byRef.find((p) => p !== watched && p !== orderedRecently);
    if (!watched || !orderedRecently || !orderedLongAgo) throw new Error('the seeded catalog is too small');
    const roles = new Set([watched, orderedRecently, orderedLongAgo].map((p) => p.productRef));
    // Two categories with several products each: the buyer looks at one, then moves to the other.
    const perCategory = new Map<number, ControlProduct[]>();
    for (const p of byRef) if (!roles.has(p.productRef)) perCategory.set(p.catalogRef, [...(perCategory.get(p.catalogRef) ?? []), p]);
    const [first, then] = [...perCategory.entries()].filter(([, list]) => list.length >= 3).sort((a, b) => b[1].length - a[1].length);
    if (!first || !then) throw new Error('no two categories with three products');
    const opened = byRef.find((p) => !roles.has(p.productRef) && p.catalogRef !== first[0] && p.catalogRef !== then[0]);
    if (!opened) throw new Error('no product outside the two categories');
    cast = { watched, orderedRecently, orderedLongAgo, opened, focusFirst: first[0], focusThen: then[0] };

    const now = store.repository.nowSeconds();
    store.db.prepare('INSERT INTO watched_products (product_ref, watched_at) VALUES (?, ?)').run(watched.productRef, now);
    insertIntent(store, 'o_recent', orderedRecently, now - 2 * DAY_S);
    insertIntent(store, 'o_old', orderedLongAgo, now - 40 * DAY_S);
    // The buyer's own fetch of one product (lane L4 opens it interactively), read by another account.
    const verify = await freshClient(sandbox, SCALE);
    extra.kits.push(verify);
    const openedDetail: ProductDetail = (await verify.client.getProduct(opened.productRef)).data;

    let focus = first[0];
    let buyerOpened = false;
    kit.beforeRequest = () => {
      const details = detailRefs(kit.exchanges).length;
      // The buyer opens a product as the first detail request goes out.
      if (details === 0 && !buyerOpened && requestsTo(kit.exchanges, '/goods/catalog').length > 0) {
        buyerOpened = true;
        store.repository.applyProductSnapshot({ from: 'detail', detail: openedDetail });
      }
      // …and moves to another category as the fifth detail request goes out.
      if (details >= 4) focus = then[0];
    };
    // One request at a time, so the order sent is the order picked.
    const summary = await sync({ concurrency: 1, focus: () => focus });
    kit.beforeRequest = null;
    const exchanges = kit.exchanges;
    expect(count429(exchanges)).toBe(0);

    // The list (the categories, none stored yet, and the one page), every detail once, the wanted templates.
    expect(requestsTo(exchanges, '/categories')).toHaveLength(1);
    expect(requestsTo(exchanges, '/goods/catalog')).toHaveLength(1);
    const sent = detailRefs(exchanges);
    expect(new Set(sent).size).toBe(sent.length);
    expect(sent).toHaveLength(PRODUCTS - 1);
    expect(sent).not.toContain(opened.productRef);
    const wantedTemplates = [...watched.variants.map((v) => `${watched.productRef}:${v.variantRef}`), `${orderedRecently.productRef}:${orderedRecently.variants[0]?.variantRef}`].sort();
    expect(templateKeys(exchanges)).toEqual(wantedTemplates);
    expect(exchanges).toHaveLength(1 + 1 + (PRODUCTS - 1) + wantedTemplates.length);
    expect(summary).toMatchObject({ templateScope: 'wanted', detailsFetched: PRODUCTS - 1, detailsAlreadyStored: 1, templatesFetched: wantedTemplates.length });
    expect(store.repository.counts()).toMatchObject({ products: PRODUCTS, templates: wantedTemplates.length });

    // Watched, then ordered (any time), then the first category on screen, then the one the buyer moved to, then the rest.
    const ordered = [orderedRecently, orderedLongAgo].map((p) => p.productRef).sort((a, b) => a - b);
    const firstCategory = first[1].map((p) => p.productRef);
    const thenCategory = then[1].map((p) => p.productRef);
    expect(sent.slice(0, 3)).toEqual([watched.productRef, ...ordered]);
    expect(sent.slice(3, 5)).toEqual(firstCategory.slice(0, 2));
    expect(sent.slice(5, 5 + thenCategory.length)).toEqual(thenCategory);
    const rest = byRef.map((p) => p.productRef).filter((ref) => !sent.slice(0, 5 + thenCategory.length).includes(ref) && ref !== opened.productRef);
    expect(sent.slice(5 + thenCategory.length)).toEqual(rest);
  });

  it('a second sync of the unchanged catalog sends only its list page', async () => {
    castOf();
    const start = kit.exchanges.length;
    const summary = await sync();
    const exchanges = kit.exchanges.slice(start);
    expect(exchanges.map((e) => new URL(e.url).pathname)).toEqual([expect.stringMatching(/\/goods\/catalog$/)]);
    expect(summary).toMatchObject({ categories: 0, pagesFetched: 1, detailsFetched: 0, templatesFetched: 0, removedProducts: 0 });
    expect(count429(exchanges)).toBe(0);
  });

  it('a changed revision fetches that detail alone; a stale cached template is fetched again even when nobody wants it any more', async () => {
    const { watched, orderedLongAgo, opened } = castOf();
    const wv = watched.variants[0];
    const ov = orderedLongAgo.variants[0];
    const pv = opened.variants[0];
    if (!wv || !ov || !pv) throw new Error('variants missing');
    // The watch ends: its templates stay cached, and a moved revision still makes the cached one stale.
    store.db.prepare('DELETE FROM watched_products WHERE product_ref = ?').run(watched.productRef);
    await changeProduct(sandbox, watched.productRef, { variantRef: wv.variantRef, purchaseSchemaRevision: 'bump' });
    // No template cached and not wanted (ordered 40 days ago): the detail only.
    await changeProduct(sandbox, orderedLongAgo.productRef, { variantRef: ov.variantRef, purchaseSchemaRevision: 'bump' });
    await changeProduct(sandbox, opened.productRef, { variantRef: pv.variantRef, price: (Number(pv.price) + 1).toFixed(2) });

    const start = kit.exchanges.length;
    const summary = await sync();
    const exchanges = kit.exchanges.slice(start);
    expect(count429(exchanges)).toBe(0);
    expect(requestsTo(exchanges, '/goods/catalog')).toHaveLength(1);
    expect(detailRefs(exchanges).sort((a, b) => a - b)).toEqual([watched.productRef, orderedLongAgo.productRef, opened.productRef].sort((a, b) => a - b));
    expect(templateKeys(exchanges)).toEqual([`${watched.productRef}:${wv.variantRef}`]);
    expect(exchanges).toHaveLength(1 + 3 + 1);
    expect(summary).toMatchObject({ detailsFetched: 3, templatesFetched: 1 });
    expect(store.reader.readTemplate(watched.productRef, wv.variantRef)?.template.purchaseSchemaRevision).toBe(wv.purchaseSchemaRevision + 1);
    expect(store.reader.readTemplate(orderedLongAgo.productRef, ov.variantRef)).toBeNull();
  });

  it('asks for the categories again only when they are a day old or a listed product names one not stored', async () => {
    castOf();
    const ago = store.repository.nowSeconds() - DAY_S - 60;
    store.db.prepare('UPDATE categories SET synced_at = ?').run(ago);
    let start = kit.exchanges.length;
    await sync();
    let paths = kit.exchanges.slice(start).map((e) => new URL(e.url).pathname);
    expect(paths).toEqual([expect.stringMatching(/\/categories$/), expect.stringMatching(/\/goods\/catalog$/)]);

    // A stored product names a category not stored: asked for before the pages.
    const listed = store.db.prepare<[], { catalog_ref: number }>('SELECT catalog_ref FROM products WHERE removed_at IS NULL LIMIT 1').get();
    if (!listed) throw new Error('no product stored');
    store.db.prepare('DELETE FROM categories WHERE catalog_ref = ?').run(listed.catalog_ref);
    start = kit.exchanges.length;
    await sync();
    paths = kit.exchanges.slice(start).map((e) => new URL(e.url).pathname);
    expect(paths).toEqual([expect.stringMatching(/\/categories$/), expect.stringMatching(/\/goods\/catalog$/)]);
    expect(store.reader.listCategories().map((c) => c.catalogRef)).toContain(listed.catalog_ref);

    // The merchant moves a product into a category we do not hold: the page names it, so the
    // categories are asked for after the page (then that product's new detail).
    const used = new Set(store.db.prepare<[], { catalog_ref: number }>('SELECT DISTINCT catalog_ref FROM products').all().map((r) => r.catalog_ref));
    const unused = store.reader.listCategories().find((c) => !used.has(c.catalogRef));
    if (!unused) throw new Error('every category holds a stored product');
    store.db.prepare('DELETE FROM categories WHERE catalog_ref = ?').run(unused.catalogRef);
    const moved = castOf().opened;
    await changeProduct(sandbox, moved.productRef, { catalogRef: unused.catalogRef });
    start = kit.exchanges.length;
    const summary = await sync();
    paths = kit.exchanges.slice(start).map((e) => new URL(e.url).pathname);
    expect(paths).toEqual([expect.stringMatching(/\/goods\/catalog$/), expect.stringMatching(/\/categories$/), expect.stringMatching(new RegExp(`/goods/${moved.productRef}$`))]);
    expect(summary.categories).toBeGreaterThan(0);
    expect(store.reader.listCategories().map((c) => c.catalogRef)).toContain(unused.catalogRef);
    expect(count429(kit.exchanges)).toBe(0);
  });

  it.each(['categories', 'pages'])('a sync an older build left in phase %s resumes as the list and completes', async (oldPhase) => {
    const own = await freshClient(sandbox, SCALE);
    extra.kits.push(own);
    const s = createCatalogStore(own.clock);
    extra.stores.push(s);
    const now = s.repository.nowSeconds();
    s.db
      .prepare('INSERT INTO catalog_sync_state (id, phase, next_page, items_done, items_total, started_at, updated_at) VALUES (1, ?, 1, 0, NULL, ?, ?)')
      .run(oldPhase, now, now);
    expect(s.repository.readSyncState()?.phase).toBe('list');
    const summary = await runCatalogSync({ repository: s.repository, client: own.client, clock: own.clock, templates: 'wanted' });
    expect(summary.resumed).toBe(true);
    expect(s.repository.readSyncState()?.phase).toBe('done');
    // Nothing stored before: the categories, the page and every detail; nothing wanted, so no template.
    expect(own.exchanges).toHaveLength(1 + 1 + PRODUCTS);
    expect(s.repository.counts()).toMatchObject({ products: PRODUCTS, templates: 0 });
    expect(count429(own.exchanges)).toBe(0);
  });

  it('reads a phase no build knows as a finished sync, so the next one starts over', () => {
    const s = createCatalogStore(kit.clock);
    extra.stores.push(s);
    s.db.prepare("INSERT INTO catalog_sync_state (id, phase, next_page, items_done, started_at, updated_at) VALUES (1, 'frobnicate', 3, 0, 0, 0)").run();
    expect(s.repository.readSyncState()?.phase).toBe('done');
  });
});
