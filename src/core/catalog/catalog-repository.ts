// Named write operations on the catalog schema (0001-catalog). Sync and product.changed webhooks
// go through the same applyProductSnapshot, so "variants replaced whole", "brand null clears, absent
// keeps" and "revision never moves back" are decided in exactly one place. Every operation is one
// transaction, and the search document is rewritten inside it (core/db/product-search-index.ts).
import type { Database } from 'better-sqlite3';
import type { CatalogItem, Category, ProductDetail, ProductSnapshot } from '../../shared/merchant/catalog';
import type { PurchaseTemplate } from '../../shared/merchant/template';
import { refreshProductSearch } from '../db/product-search-index';
import { refreshRenamedCategories, storedCategoryNames } from './category-search-names';
import type { Clock } from '../platform/clock';
import { diffVariants, sameBrand } from './catalog-changes';
import type { BrandState, ProductChanges, VariantState } from './catalog-changes';
import { syncPhaseOf } from './sync-state';
import type { SyncFailure, SyncState } from './sync-state';
import { SYNC_FAILURE_KINDS, type TemplateScope } from '../../shared/ipc/views/catalog';
import type { CategoryFacts } from './category-refresh';
import type { DetailCandidate } from './detail-order';
import { TRANSPORT_REASONS } from '../../shared/transport-reasons';

/** Where a snapshot came from: a detail carries name, type, description and image as well. */
export type SnapshotSource =
  | { readonly from: 'detail'; readonly detail: ProductDetail }
  | { readonly from: 'event'; readonly snapshot: ProductSnapshot };

export interface TemplateNeed {
  readonly productRef: number;
  readonly variantRef: number;
  /** The variant's current purchaseSchemaRevision, which the fetched template should carry. */
  readonly purchaseSchemaRevision: number;
}

export type SnapshotOutcome =
  | {
      readonly kind: 'applied';
      readonly productRef: number;
      readonly revision: number;
      /** null when the product was not stored before, or only known from the catalog list. */
      readonly previousRevision: number | null;
      readonly created: boolean;
      readonly changes: ProductChanges;
      /** Variants whose stored template carries another purchaseSchemaRevision, or is missing where wanted (NEEDS_TEMPLATE). */
      readonly templatesToFetch: readonly TemplateNeed[];
    }
  /** Older than what is stored: ignored, nothing written (interface v1 §2.4 revision). Not an error. */
  | { readonly kind: 'stale'; readonly productRef: number; readonly revision: number; readonly storedRevision: number }
  /** A bare snapshot of a product never stored: it lacks name and type, so the caller fetches the detail. */
  | { readonly kind: 'unknownProduct'; readonly productRef: number; readonly revision: number };

export interface PriceHistoryEntry {
  readonly priceFen: number;
  readonly availability: string;
  readonly inventoryType: string;
  readonly remainingUnits: number | null;
  readonly recordedAt: number;
}

export interface CatalogCounts {
  readonly categories: number;
  /** Products not marked removed. */
  readonly products: number;
  readonly removedProducts: number;
  readonly variants: number;
  readonly templates: number;
  readonly priceHistory: number;
}

interface ProductHeadRow {
  revision: number | null;
  catalog_ref: number;
  availability: string;
  brand_ref: number | null;
  brand_name: string | null;
  brand_image_url: string | null;
  removed_at: number | null;
}

interface VariantRow {
  variant_ref: number;
  title: string;
  price_fen: number;
  availability: string;
  inventory_type: string;
  remaining_units: number | null;
  purchase_schema_revision: number;
}

interface SyncStateRow {
  phase: string;
  next_page: number;
  items_done: number;
  items_total: number | null;
  started_at: number;
  updated_at: number;
  finished_at: number | null;
  last_success_at: number | null;
  failure_kind: string | null;
  failure_code: number | null;
  failure_transport: string | null;
  failure_request_id: string | null;
  failure_not_before: number | null;
  failure_at: number | null;
}

type Params = Record<string, string | number | null>;

interface TemplateNeedRow {
  product_ref: number;
  variant_ref: number;
  purchase_schema_revision: number;
}

/** Variants ordered this recently count as wanted (issue 15: "variants ordered in the last 30 days"). */
export const ORDERED_RECENTLY_S = 30 * 24 * 3600;

/**
 * The one rule for which variant needs a template (issue 15; contract "What a sync asks for"), over
 * `v` (variants) LEFT JOIN `t` (templates):
 * - a cached template whose purchaseSchemaRevision is not the variant's is stale: always fetched again;
 * - a missing one is fetched when @all = 1 (`sync --templates`), when its product is watched, or when
 *   the variant was ordered since @orderedSince. Anything else waits until an order needs it (lane L2).
 * The sync's template phase and a detail or product.changed snapshot both read it.
 */
const NEEDS_TEMPLATE = `(t.product_ref IS NOT NULL AND t.purchase_schema_revision <> v.purchase_schema_revision)
  OR (t.product_ref IS NULL AND (@all = 1
      OR v.product_ref IN (SELECT product_ref FROM watched_products)
      OR (v.product_ref, v.variant_ref) IN (SELECT product_ref, variant_ref FROM order_intents WHERE created_at >= @orderedSince)))`;

function toTemplateNeed(row: TemplateNeedRow): TemplateNeed {
  return { productRef: row.product_ref, variantRef: row.variant_ref, purchaseSchemaRevision: row.purchase_schema_revision };
}

function prepareStatements(db: Database) {
  return {
    upsertCategory: db.prepare<Params>(
      `INSERT INTO categories (catalog_ref, name, parent_ref, sort, product_count, synced_at)
       VALUES (@catalogRef, @name, @parentRef, @sort, @productCount, @now)
       ON CONFLICT (catalog_ref) DO UPDATE SET name = excluded.name, parent_ref = excluded.parent_ref, sort = excluded.sort,
         product_count = excluded.product_count, synced_at = excluded.synced_at`,
    ),
    deleteCategoriesNotSynced: db.prepare<[number]>('DELETE FROM categories WHERE synced_at < ?'),
    listedHead: db.prepare<[number], { revision: number | null; removed_at: number | null }>(
      'SELECT revision, removed_at FROM products WHERE product_ref = ?',
    ),
    // Before a detail is stored (revision IS NULL) the list is all we know, so it fills the row;
    // afterwards only the list's own facts (listed revision, subscription) are taken from it.
    upsertListed: db.prepare<Params>(
      `INSERT INTO products (product_ref, catalog_ref, name, product_type, brand_ref, brand_name, brand_image_url, availability,
                             price_from_fen, listed_revision, listed_variant_count, subscription_state, subscription_expires_at, listed_at, synced_at)
       VALUES (@productRef, @catalogRef, @name, @productType, @brandRef, @brandName, @brandImageUrl, @availability,
               @priceFromFen, @listedRevision, @listedVariantCount, @subscriptionState, @subscriptionExpiresAt, @now, @now)
       ON CONFLICT (product_ref) DO UPDATE SET
         listed_revision = max(coalesce(listed_revision, 0), excluded.listed_revision),
         listed_variant_count = excluded.listed_variant_count,
         subscription_state = excluded.subscription_state,
         subscription_expires_at = excluded.subscription_expires_at,
         listed_at = excluded.listed_at,
         removed_at = NULL,
         catalog_ref = CASE WHEN revision IS NULL THEN excluded.catalog_ref ELSE catalog_ref END,
         name = CASE WHEN revision IS NULL THEN excluded.name ELSE name END,
         product_type = CASE WHEN revision IS NULL THEN excluded.product_type ELSE product_type END,
         brand_ref = CASE WHEN revision IS NULL THEN excluded.brand_ref ELSE brand_ref END,
         brand_name = CASE WHEN revision IS NULL THEN excluded.brand_name ELSE brand_name END,
         brand_image_url = CASE WHEN revision IS NULL THEN excluded.brand_image_url ELSE brand_image_url END,
         availability = CASE WHEN revision IS NULL THEN excluded.availability ELSE availability END,
         price_from_fen = CASE WHEN revision IS NULL THEN excluded.price_from_fen ELSE price_from_fen END`,
    ),
    productHead: db.prepare<[number], ProductHeadRow>(
      'SELECT revision, catalog_ref, availability, brand_ref, brand_name, brand_image_url, removed_at FROM products WHERE product_ref = ?',
    ),
    insertFromDetail: db.prepare<Params>(
      `INSERT INTO products (product_ref, catalog_ref, name, product_type, brand_ref, brand_name, brand_image_url, availability,
                             description, image_url, revision, detail_json, synced_at)
       VALUES (@productRef, @catalogRef, @name, @productType, @brandRef, @brandName, @brandImageUrl, @availability,
               @description, @imageUrl, @revision, @detailJson, @now)`,
    ),
    updateFromSnapshot: db.prepare<Params>(
      `UPDATE products SET catalog_ref = @catalogRef, availability = @availability, revision = @revision, removed_at = NULL, synced_at = @now
       WHERE product_ref = @productRef`,
    ),
    updateBrand: db.prepare<Params>(
      'UPDATE products SET brand_ref = @brandRef, brand_name = @brandName, brand_image_url = @brandImageUrl WHERE product_ref = @productRef',
    ),
    updateDetailFields: db.prepare<Params>(
      `UPDATE products SET name = @name, product_type = @productType, description = @description, image_url = @imageUrl,
         detail_json = @detailJson WHERE product_ref = @productRef`,
    ),
    variantsOf: db.prepare<[number], VariantRow>(
      `SELECT variant_ref, title, price_fen, availability, inventory_type, remaining_units, purchase_schema_revision
       FROM variants WHERE product_ref = ? ORDER BY position, variant_ref`,
    ),
    deleteVariants: db.prepare<[number]>('DELETE FROM variants WHERE product_ref = ?'),
    insertVariant: db.prepare<Params>(
      `INSERT INTO variants (product_ref, variant_ref, position, title, price_fen, face_value_fen, availability, inventory_type,
                             remaining_units, purchase_schema_revision, synced_at)
       VALUES (@productRef, @variantRef, @position, @title, @priceFen, @faceValueFen, @availability, @inventoryType,
               @remainingUnits, @purchaseSchemaRevision, @now)`,
    ),
    templateRevisions: db.prepare<[number], { variant_ref: number; purchase_schema_revision: number }>(
      'SELECT variant_ref, purchase_schema_revision FROM templates WHERE product_ref = ?',
    ),
    deleteTemplate: db.prepare<[number, number]>('DELETE FROM templates WHERE product_ref = ? AND variant_ref = ?'),
    upsertTemplate: db.prepare<Params>(
      `INSERT INTO templates (product_ref, variant_ref, product_type, purchase_schema_revision, entry_mode, template_json, fetched_at)
       VALUES (@productRef, @variantRef, @productType, @purchaseSchemaRevision, @entryMode, @templateJson, @now)
       ON CONFLICT (product_ref, variant_ref) DO UPDATE SET product_type = excluded.product_type,
         purchase_schema_revision = excluded.purchase_schema_revision, entry_mode = excluded.entry_mode,
         template_json = excluded.template_json, fetched_at = excluded.fetched_at`,
    ),
    productExists: db.prepare<[number], { one: number }>('SELECT 1 AS one FROM products WHERE product_ref = ?'),
    variantsNeedingTemplate: db.prepare<Params, TemplateNeedRow>(
      `SELECT v.product_ref, v.variant_ref, v.purchase_schema_revision
       FROM variants v JOIN products p ON p.product_ref = v.product_ref
       LEFT JOIN templates t ON t.product_ref = v.product_ref AND t.variant_ref = v.variant_ref
       WHERE p.removed_at IS NULL AND (${NEEDS_TEMPLATE})
       ORDER BY v.product_ref, v.variant_ref`,
    ),
    variantsNeedingTemplateOf: db.prepare<Params, TemplateNeedRow>(
      `SELECT v.product_ref, v.variant_ref, v.purchase_schema_revision
       FROM variants v LEFT JOIN templates t ON t.product_ref = v.product_ref AND t.variant_ref = v.variant_ref
       WHERE v.product_ref = @productRef AND (${NEEDS_TEMPLATE})
       ORDER BY v.position, v.variant_ref`,
    ),
    // Products a template may be wanted for: an upper bound of the templates phase before the details arrive.
    templateInterest: db.prepare<Params, { product_ref: number }>(
      `SELECT product_ref FROM watched_products
       UNION SELECT product_ref FROM order_intents WHERE created_at >= @orderedSince
       UNION SELECT product_ref FROM templates`,
    ),
    categoryFacts: db.prepare<[], { stored: number; oldest: number | null; unknown_refs: number }>(
      `SELECT (SELECT count(*) FROM categories) AS stored, (SELECT min(synced_at) FROM categories) AS oldest,
              (SELECT count(DISTINCT catalog_ref) FROM products
               WHERE removed_at IS NULL AND catalog_ref NOT IN (SELECT catalog_ref FROM categories)) AS unknown_refs`,
    ),
    categoryRefs: db.prepare<[], { catalog_ref: number }>('SELECT catalog_ref FROM categories'),
    // The buyer's interest in each product still needing a detail (core/catalog/detail-order.ts ranks them);
    // served by the partial index products_needing_detail.
    detailCandidates: db.prepare<[], { product_ref: number; catalog_ref: number; watched: number; ordered: number }>(
      `SELECT product_ref, catalog_ref,
              product_ref IN (SELECT product_ref FROM watched_products) AS watched,
              product_ref IN (SELECT product_ref FROM order_intents) AS ordered
       FROM products WHERE (revision IS NULL OR listed_revision > revision) AND removed_at IS NULL ORDER BY product_ref`,
    ),
    needsDetail: db.prepare<[number], { one: number }>(
      'SELECT 1 AS one FROM products WHERE product_ref = ? AND (revision IS NULL OR listed_revision > revision) AND removed_at IS NULL',
    ),
    priceHistory: db.prepare<[number, number], { price_fen: number; availability: string; inventory_type: string; remaining_units: number | null; recorded_at: number }>(
      `SELECT price_fen, availability, inventory_type, remaining_units, recorded_at FROM price_history
       WHERE product_ref = ? AND variant_ref = ? ORDER BY id`,
    ),
    markRemoved: db.prepare<[number, number]>('UPDATE products SET removed_at = ? WHERE product_ref = ? AND removed_at IS NULL'),
    // synced_at < since spares a product a webhook stored during this sync (listed after its page).
    markUnlistedRemoved: db.prepare<Params>(
      `UPDATE products SET removed_at = @now
       WHERE removed_at IS NULL AND (listed_at IS NULL OR listed_at < @since) AND synced_at < @since`,
    ),
    readSyncState: db.prepare<[], SyncStateRow>(
      `SELECT phase, next_page, items_done, items_total, started_at, updated_at, finished_at, last_success_at,
              failure_kind, failure_code, failure_transport, failure_request_id, failure_not_before, failure_at
       FROM catalog_sync_state WHERE id = 1`,
    ),
    writeSyncState: db.prepare<Params>(
      `INSERT INTO catalog_sync_state (id, phase, next_page, items_done, items_total, started_at, updated_at, finished_at, last_success_at,
         failure_kind, failure_code, failure_transport, failure_request_id, failure_not_before, failure_at)
       VALUES (1, @phase, @nextPage, @itemsDone, @itemsTotal, @startedAt, @now, @finishedAt, @lastSuccessAt,
         @failureKind, @failureCode, @failureTransport, @failureRequestId, @failureNotBefore, @failureAt)
       ON CONFLICT (id) DO UPDATE SET phase = excluded.phase, next_page = excluded.next_page, items_done = excluded.items_done,
         items_total = excluded.items_total, started_at = excluded.started_at, updated_at = excluded.updated_at,
         finished_at = excluded.finished_at, last_success_at = excluded.last_success_at, failure_kind = excluded.failure_kind,
         failure_code = excluded.failure_code, failure_transport = excluded.failure_transport, failure_request_id = excluded.failure_request_id,
         failure_not_before = excluded.failure_not_before, failure_at = excluded.failure_at`,
    ),
    counts: db.prepare<[], { categories: number; products: number; removed_products: number; variants: number; templates: number; price_history: number }>(
      `SELECT (SELECT count(*) FROM categories) AS categories,
              (SELECT count(*) FROM products WHERE removed_at IS NULL) AS products,
              (SELECT count(*) FROM products WHERE removed_at IS NOT NULL) AS removed_products,
              (SELECT count(*) FROM variants) AS variants,
              (SELECT count(*) FROM templates) AS templates,
              (SELECT count(*) FROM price_history) AS price_history`,
    ),
  };
}

type Statements = ReturnType<typeof prepareStatements>;

function brandParams(brand: BrandState | null): Params {
  return { brandRef: brand?.brandRef ?? null, brandName: brand?.name ?? null, brandImageUrl: brand?.imageUrl ?? null };
}

function toVariantState(row: VariantRow): VariantState {
  return {
    title: row.title,
    priceFen: row.price_fen,
    availability: row.availability,
    inventoryType: row.inventory_type,
    remainingUnits: row.remaining_units,
    purchaseSchemaRevision: row.purchase_schema_revision,
  };
}

/** The stored failure columns; a kind or reason this build does not know reads as kind other. */
function toSyncFailure(row: SyncStateRow): SyncFailure | null {
  if (row.failure_kind === null) return null;
  return {
    kind: SYNC_FAILURE_KINDS.find((kind) => kind === row.failure_kind) ?? 'other',
    merchantCode: row.failure_code,
    transportReason: TRANSPORT_REASONS.find((reason) => reason === row.failure_transport) ?? null,
    requestId: row.failure_request_id,
    notBeforeAt: row.failure_not_before,
    at: row.failure_at ?? 0,
  };
}

function syncStateParams(state: SyncState): Params {
  return {
    phase: state.phase,
    nextPage: state.nextPage,
    itemsDone: state.itemsDone,
    itemsTotal: state.itemsTotal,
    startedAt: state.startedAt,
    finishedAt: state.finishedAt,
    lastSuccessAt: state.lastSuccessAt,
    failureKind: state.failure?.kind ?? null,
    failureCode: state.failure?.merchantCode ?? null,
    failureTransport: state.failure?.transportReason ?? null,
    failureRequestId: state.failure?.requestId ?? null,
    failureNotBefore: state.failure?.notBeforeAt ?? null,
    failureAt: state.failure?.at ?? null,
  };
}

/**
 * Applies one product detail (sync) or product.changed snapshot (webhook), unless it is older than what
 * is stored: variants replaced whole, templates of departed variants dropped, the search document
 * refreshed; answers what changed and which templates to fetch. The caller holds the transaction.
 */
function applySnapshot(db: Database, s: Statements, source: SnapshotSource, now: number): SnapshotOutcome {
  const snapshot = source.from === 'detail' ? source.detail : source.snapshot;
  const productRef = snapshot.productRef;
  const head = s.productHead.get(productRef);
  if (!head && source.from === 'event') return { kind: 'unknownProduct', productRef, revision: snapshot.revision };
  if (head && head.revision !== null && snapshot.revision < head.revision) {
    return { kind: 'stale', productRef, revision: snapshot.revision, storedRevision: head.revision };
  }

  const before = new Map<number, VariantState>();
  for (const row of head ? s.variantsOf.all(productRef) : []) before.set(row.variant_ref, toVariantState(row));
  const oldBrand: BrandState | null =
    head && head.brand_ref !== null && head.brand_name !== null ? { brandRef: head.brand_ref, name: head.brand_name, imageUrl: head.brand_image_url } : null;
  // interface v1 §2.4/6.3: null clears the brand; an absent field says nothing and keeps the stored one.
  const newBrand: BrandState | null = snapshot.brand === undefined ? oldBrand : snapshot.brand === null ? null : { ...pickBrand(snapshot.brand) };

  const common: Params = { productRef, catalogRef: snapshot.catalogRef, availability: snapshot.availability, revision: snapshot.revision, now };
  if (source.from === 'detail') {
    const { detail } = source;
    const detailParams: Params = {
      name: detail.name,
      productType: detail.productType,
      description: detail.description,
      imageUrl: detail.imageUrl,
      // As parsed (money in fen), unknown fields included, for fields a later version may show.
      detailJson: JSON.stringify(detail),
    };
    if (!head) s.insertFromDetail.run({ ...common, ...brandParams(newBrand), ...detailParams });
    else s.updateDetailFields.run({ productRef, ...detailParams });
  }
  if (head) {
    s.updateFromSnapshot.run(common);
    if (!sameBrand(oldBrand, newBrand)) s.updateBrand.run({ productRef, ...brandParams(newBrand) });
  }

  // The list is replaced whole (interface v1 §6.3 "variants"); the history triggers compare each inserted
  // variant with its latest history row, so an unchanged variant records nothing.
  s.deleteVariants.run(productRef);
  const after = new Map<number, VariantState>();
  snapshot.variants.forEach((variant, position) => {
    const faceValueFen = source.from === 'detail' ? (source.detail.variants[position]?.faceValue ?? null) : null;
    s.insertVariant.run({
      productRef,
      variantRef: variant.variantRef,
      position,
      title: variant.title,
      priceFen: variant.price,
      faceValueFen,
      availability: variant.availability,
      inventoryType: variant.inventoryType,
      remainingUnits: variant.remainingUnits,
      purchaseSchemaRevision: variant.purchaseSchemaRevision,
      now,
    });
    after.set(variant.variantRef, {
      title: variant.title,
      priceFen: variant.price,
      availability: variant.availability,
      inventoryType: variant.inventoryType,
      remainingUnits: variant.remainingUnits,
      purchaseSchemaRevision: variant.purchaseSchemaRevision,
    });
  });

  // A template of a variant that left the list can never be used to order again.
  for (const row of s.templateRevisions.all(productRef)) {
    if (!after.has(row.variant_ref)) s.deleteTemplate.run(productRef, row.variant_ref);
  }
  // Stale ones always, missing ones only where wanted (NEEDS_TEMPLATE).
  const templatesToFetch = s.variantsNeedingTemplateOf.all({ productRef, all: 0, orderedSince: now - ORDERED_RECENTLY_S }).map(toTemplateNeed);

  refreshProductSearch(db, productRef);

  const changes: ProductChanges = {
    availability: head?.availability === snapshot.availability ? null : { before: head?.availability ?? null, after: snapshot.availability },
    brand: sameBrand(oldBrand, newBrand) ? null : { before: oldBrand, after: newBrand },
    catalogRefChanged: head !== undefined && head.catalog_ref !== snapshot.catalogRef,
    variants: diffVariants(before, after),
  };
  return {
    kind: 'applied',
    productRef,
    revision: snapshot.revision,
    previousRevision: head?.revision ?? null,
    created: !head,
    changes,
    templatesToFetch,
  };
}

/** Stores a fetched template; false (nothing stored) when its product is not stored. */
function storeTemplate(s: Statements, template: PurchaseTemplate, now: number): boolean {
  if (!s.productExists.get(template.productRef)) return false;
  s.upsertTemplate.run({
    productRef: template.productRef,
    variantRef: template.variantRef,
    productType: template.productType,
    purchaseSchemaRevision: template.purchaseSchemaRevision,
    entryMode: template.entryMode,
    templateJson: JSON.stringify(template),
    now,
  });
  return true;
}

/** The local catalog: categories, listed products, details, templates, price history, sync state. */
export interface CatalogRepository {
  /** Stores the complete category list (all pages) and drops categories the merchant no longer lists. */
  replaceCategories(categories: readonly Category[]): void;
  /** One page of GET /goods/catalog, and (when given) the sync state that says it is done, atomically. */
  recordCatalogPage(items: readonly CatalogItem[], state?: SyncState): void;
  /** The one function that applies a product detail (sync) or a product.changed snapshot (webhook). */
  applyProductSnapshot(source: SnapshotSource): SnapshotOutcome;
  /** Many snapshots in one transaction (one fsync): bulk fills and benchmarks. Same rules. */
  applyProductSnapshots(sources: readonly SnapshotSource[]): SnapshotOutcome[];
  /** The revision of the stored detail (authenticated, migration 0013), or null when none is stored. */
  storedRevision(productRef: number): number | null;
  /** Stores a fetched template; ignored (false) when its product is not stored. */
  upsertTemplate(template: PurchaseTemplate): boolean;
  /** Several templates in one transaction; returns how many were stored. */
  upsertTemplates(templates: readonly PurchaseTemplate[]): number;
  /** Variants of listed products whose template is stale, or missing where `scope` wants one (NEEDS_TEMPLATE). */
  variantsNeedingTemplate(scope: TemplateScope): TemplateNeed[];
  /** Products a template may be wanted for (watched, ordered in the last 30 days, or with a cached template). */
  templateInterest(): ReadonlySet<number>;
  /** Products whose detail was never fetched or is older than the catalog list says, with the buyer's interest in each. */
  detailCandidates(): DetailCandidate[];
  /** The product's detail is missing or older than listed (false once the buyer's own fetch stored it). */
  needsDetail(productRef: number): boolean;
  /**
   * What decides whether the categories are fetched again (core/catalog/category-refresh.ts). The
   * catalogRefs checked against the stored categories are `listed` (what this run's pages named) or,
   * when null, those of the stored products.
   */
  categoryFacts(listed: ReadonlySet<number> | null): CategoryFacts;
  /** The variant's recorded prices, stock and availability over time. */
  priceHistory(productRef: number, variantRef: number): PriceHistoryEntry[];
  /** A product the merchant says does not exist (404 on its detail): kept for orders, hidden from search. */
  markProductRemoved(productRef: number): void;
  /** After a completed full sync that started at `since`: products it did not list are marked removed. */
  markUnlistedRemoved(since: number): number;
  /** Where the catalog sync stands (null before the first); an unknown phase reads as done. */
  readSyncState(): SyncState | null;
  /** Records where the catalog sync stands. */
  writeSyncState(state: SyncState): void;
  /** Row counts of the catalog tables. */
  counts(): CatalogCounts;
  /** The repository's clock, in Unix seconds. */
  nowSeconds(): number;
}

export function createCatalogRepository(db: Database, clock: Clock): CatalogRepository {
  const s: Statements = prepareStatements(db);
  const nowSeconds = (): number => Math.floor(clock.nowMs() / 1000);

  const applyInTransaction = db.transaction((source: SnapshotSource, now: number) => applySnapshot(db, s, source, now));
  const applyManyInTransaction = db.transaction((sources: readonly SnapshotSource[], now: number) => sources.map((source) => applySnapshot(db, s, source, now)));

  return {
    /**
     * Stores the complete category list (all pages) and drops categories the merchant no longer
     * lists; products keep their catalog_ref, which has no foreign key by design.
     */
    replaceCategories: db.transaction((categories: readonly Category[]): void => {
      const now = nowSeconds();
      const before = storedCategoryNames(db);
      for (const c of categories) {
        s.upsertCategory.run({ catalogRef: c.catalogRef, name: c.name, parentRef: c.parentRef, sort: c.sort, productCount: c.productCount, now });
      }
      s.deleteCategoriesNotSynced.run(now);
      refreshRenamedCategories(db, before, categories);
    }),

    /** One page of GET /goods/catalog, and (when given) the sync state that says it is done, atomically. */
    recordCatalogPage: db.transaction((items: readonly CatalogItem[], state?: SyncState): void => {
      const now = nowSeconds();
      for (const item of items) {
        const before = s.listedHead.get(item.productRef);
        s.upsertListed.run({
          productRef: item.productRef,
          catalogRef: item.catalogRef,
          name: item.name,
          productType: item.productType,
          ...brandParams(item.brand === null ? null : pickBrand(item.brand)),
          availability: item.availability,
          priceFromFen: item.priceFrom,
          listedRevision: item.revision,
          listedVariantCount: item.variantCount,
          subscriptionState: item.subscriptionState,
          subscriptionExpiresAt: item.subscriptionExpiresAt,
          now,
        });
        // New, listed again after removal, or still only known from the list (its name may move).
        if (!before || before.removed_at !== null || before.revision === null) refreshProductSearch(db, item.productRef);
      }
      if (state) s.writeSyncState.run({ ...syncStateParams(state), now });
    }),

    /** The one function that applies a product detail (sync) or a product.changed snapshot (webhook). */
    applyProductSnapshot: (source: SnapshotSource): SnapshotOutcome => applyInTransaction(source, nowSeconds()),

    /** Many snapshots in one transaction (one fsync): bulk fills and benchmarks. Same rules as above. */
    applyProductSnapshots: (sources: readonly SnapshotSource[]): SnapshotOutcome[] => applyManyInTransaction(sources, nowSeconds()),

    /** The revision of the stored detail (authenticated, migration 0013), or null when none is stored. */
    storedRevision: (productRef: number): number | null => s.productHead.get(productRef)?.revision ?? null,

    /** Stores a fetched template; ignored (false) when its product is not stored. */
    upsertTemplate: (template: PurchaseTemplate): boolean => storeTemplate(s, template, nowSeconds()),

    /** Several templates in one transaction; returns how many were stored. */
    upsertTemplates: db.transaction((templates: readonly PurchaseTemplate[]): number => {
      const now = nowSeconds();
      return templates.filter((template) => storeTemplate(s, template, now)).length;
    }),

    variantsNeedingTemplate: (scope: TemplateScope): TemplateNeed[] =>
      s.variantsNeedingTemplate.all({ all: scope === 'all' ? 1 : 0, orderedSince: nowSeconds() - ORDERED_RECENTLY_S }).map(toTemplateNeed),

    templateInterest: (): ReadonlySet<number> => new Set(s.templateInterest.all({ orderedSince: nowSeconds() - ORDERED_RECENTLY_S }).map((row) => row.product_ref)),

    detailCandidates: (): DetailCandidate[] =>
      s.detailCandidates.all().map((row) => ({ productRef: row.product_ref, catalogRef: row.catalog_ref, watched: row.watched === 1, ordered: row.ordered === 1 })),

    needsDetail: (productRef: number): boolean => s.needsDetail.get(productRef) !== undefined,

    categoryFacts: (listed: ReadonlySet<number> | null): CategoryFacts => {
      const row = s.categoryFacts.get();
      const known = listed === null ? null : new Set(s.categoryRefs.all().map((c) => c.catalog_ref));
      const unknownListedRefs = known === null || listed === null ? (row?.unknown_refs ?? 0) : [...listed].filter((ref) => !known.has(ref)).length;
      return { stored: row?.stored ?? 0, oldestSyncedAt: row?.oldest ?? null, unknownListedRefs };
    },

    priceHistory: (productRef: number, variantRef: number): PriceHistoryEntry[] =>
      s.priceHistory.all(productRef, variantRef).map((row) => ({
        priceFen: row.price_fen,
        availability: row.availability,
        inventoryType: row.inventory_type,
        remainingUnits: row.remaining_units,
        recordedAt: row.recorded_at,
      })),

    /** A product the merchant says does not exist (404 on its detail): kept for orders, hidden from search. */
    markProductRemoved: (productRef: number): void => {
      s.markRemoved.run(nowSeconds(), productRef);
    },

    /** After a completed full sync that started at `since`: products it did not list are marked removed. */
    markUnlistedRemoved: (since: number): number => s.markUnlistedRemoved.run({ since, now: nowSeconds() }).changes,

    readSyncState: (): SyncState | null => {
      const row = s.readSyncState.get();
      if (!row) return null;
      return {
        // Old phase names resume as 'list'; an unknown one reads as done (sync-state.ts).
        phase: syncPhaseOf(row.phase),
        nextPage: row.next_page,
        itemsDone: row.items_done,
        itemsTotal: row.items_total,
        startedAt: row.started_at,
        updatedAt: row.updated_at,
        finishedAt: row.finished_at,
        lastSuccessAt: row.last_success_at,
        failure: toSyncFailure(row),
      };
    },

    writeSyncState: (state: SyncState): void => {
      s.writeSyncState.run({ ...syncStateParams(state), now: nowSeconds() });
    },

    counts: (): CatalogCounts => {
      const row = s.counts.get();
      return {
        categories: row?.categories ?? 0,
        products: row?.products ?? 0,
        removedProducts: row?.removed_products ?? 0,
        variants: row?.variants ?? 0,
        templates: row?.templates ?? 0,
        priceHistory: row?.price_history ?? 0,
      };
    },

    nowSeconds,
  };
}


/** Only the brand fields of interface v1 §2.4; unknown extra fields of a looser merchant are not stored. */
function pickBrand(brand: { brandRef: number; name: string; imageUrl: string | null }): BrandState {
  return { brandRef: brand.brandRef, name: brand.name, imageUrl: brand.imageUrl };
}

