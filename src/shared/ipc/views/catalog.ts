// The local catalog as the renderer sees it: categories, search, product detail, price history, purchase
// templates, and the catalog sync's progress. Merchant enum values stay raw (shared/merchant/known-values).
import { z } from 'zod';
import { TRANSPORT_REASONS } from '../../transport-reasons';
import { fen, seconds } from './view-fields';
import { PRICE_RANGE_MESSAGE, priceRangeProblem } from '../../price-range';

export const categoryViewSchema = z.object({
  catalogRef: z.number().int(),
  name: z.string(),
  parentRef: z.number().int().nullable(),
  productCount: z.number().int(),
});
export type CategoryView = z.infer<typeof categoryViewSchema>;

/**
 * How much of a product the cache holds (contract §11.1): listOnly, only the catalog list's facts (no
 * variants, no stock); stale, a stored detail older than the revision the list names; stored, current.
 */
export const DETAIL_STATES = ['listOnly', 'stale', 'stored'] as const;
export type DetailState = (typeof DETAIL_STATES)[number];

export const productHitSchema = z.object({
  productRef: z.number().int(),
  catalogRef: z.number().int(),
  name: z.string(),
  productType: z.string(),
  availability: z.string(),
  brandName: z.string().nullable(),
  imageUrl: z.string().nullable(),
  priceFromFen: fen.nullable(),
  /** For a listOnly hit, the list's variantCount (0 when not known). */
  variantCount: z.number().int(),
  /** False for a listOnly hit: its stock is not known yet. */
  inStock: z.boolean(),
  detailState: z.enum(DETAIL_STATES),
});
export type ProductHit = z.infer<typeof productHitSchema>;

export const searchQuerySchema = z.object({
  text: z.string().max(200).optional(),
  catalogRef: z.number().int().positive().optional(),
  availability: z.string().max(40).optional(),
  inStock: z.boolean().optional(),
  minPriceFen: fen.nonnegative().optional(),
  maxPriceFen: fen.nonnegative().optional(),
  sort: z.enum(['relevance', 'priceAsc', 'priceDesc', 'nameAsc', 'recentlyChanged']).optional(),
  limit: z.number().int().min(1).max(200).optional(),
  offset: z.number().int().nonnegative().optional(),
}).superRefine((query, ctx) => {
  const field = priceRangeProblem(query.minPriceFen, query.maxPriceFen);
  if (field !== null) ctx.addIssue({ code: 'custom', path: [field], message: PRICE_RANGE_MESSAGE });
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;

export const searchResultSchema = z.object({
  total: z.number().int(),
  /** More matched than were counted: show "10,000+". */
  totalIsLowerBound: z.boolean(),
  items: z.array(productHitSchema),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

export const variantViewSchema = z.object({
  variantRef: z.number().int(),
  title: z.string(),
  priceFen: fen,
  faceValueFen: fen.nullable(),
  availability: z.string(),
  inventoryType: z.string(),
  remainingUnits: z.number().int().nullable(),
});

export const productViewSchema = z.object({
  productRef: z.number().int(),
  catalogRef: z.number().int(),
  name: z.string(),
  productType: z.string(),
  description: z.string().nullable(),
  imageUrl: z.string().nullable(),
  availability: z.string(),
  brand: z.object({ brandRef: z.number().int(), name: z.string(), imageUrl: z.string().nullable() }).nullable(),
  variants: z.array(variantViewSchema),
  watched: z.boolean(),
  syncedAt: seconds.nullable(),
  /** listOnly: no variants yet (the list's priceFrom and variantCount stand in); stale: older than the list says. */
  detailState: z.enum(DETAIL_STATES),
  /** The lowest price: of the stored variants, or the list's priceFrom while listOnly. */
  priceFromFen: fen.nullable(),
  /** The stored variants; while listOnly, the list's variantCount (0 when not known). */
  variantCount: z.number().int(),
  /** The merchant said the product is gone (404001 on its detail, or a full sync no longer lists it). */
  removed: z.boolean(),
});
export type ProductView = z.infer<typeof productViewSchema>;

/**
 * What catalog.openProduct did about the product's detail (contract §11.2):
 * - current: the stored detail is as new as the list says; nothing was sent;
 * - fetched: GET /goods/{productRef} was sent now, as the buyer's request, and its answer stored;
 * - merchantUnreachable: not sent, the merchant is not reachable now (offline, refused key, …) or
 *   did not answer; the list data is shown and the detail loads when it is reachable again;
 * - failed: sent, and the merchant answered with an error other than "gone";
 * - removed: the merchant says the product does not exist (404001): marked removed.
 */
/**
 * How long a stored product reading stands as current for a buyer who opens the product (the drawer, the
 * order form): older, catalog.openProduct reads it again before it is shown as the price to decide on
 * (contract §11.2). One catalog request per open at most, far inside the buyer's reserve of the quota.
 */
export const DETAIL_FRESH_FOR_S = 60;

export const DETAIL_LOADS = ['current', 'fetched', 'merchantUnreachable', 'failed', 'removed'] as const;
export type DetailLoad = (typeof DETAIL_LOADS)[number];

export const openedProductSchema = z.object({
  product: productViewSchema,
  detailLoad: z.enum(DETAIL_LOADS),
  /** The merchant's requestId of a failed load, for support; null otherwise. */
  requestId: z.string().nullable(),
});
export type OpenedProduct = z.infer<typeof openedProductSchema>;

export const pricePointSchema = z.object({
  priceFen: fen,
  remainingUnits: z.number().int().nullable(),
  availability: z.string(),
  recordedAt: seconds,
});
export type PricePoint = z.infer<typeof pricePointSchema>;

export const purchaseFieldViewSchema = z.object({
  fieldRef: z.string(),
  label: z.string(),
  type: z.string(),
  required: z.boolean(),
  pattern: z.string().nullable(),
  minLength: z.number().int().nullable(),
  maxLength: z.number().int().nullable(),
  options: z.array(z.object({ value: z.string(), label: z.string() })).nullable(),
  placeholder: z.string().nullable(),
  sensitive: z.boolean(),
});

export const templateViewSchema = z.object({
  productRef: z.number().int(),
  variantRef: z.number().int(),
  productType: z.string(),
  purchaseSchemaRevision: z.number().int(),
  entryMode: z.string(),
  purchaseFields: z.array(purchaseFieldViewSchema),
  unitRule: z.object({ min: z.number().int(), max: z.number().int(), step: z.number().int() }),
});
export type TemplateView = z.infer<typeof templateViewSchema>;

/**
 * The work phases of a full sync, in order (interface v1 §4 "standard order of use", issue 15): the
 * list (catalog pages, and the categories when due: docs/contract.md "What a sync asks for"), the
 * details, then the templates.
 */
export const SYNC_WORK_PHASES = ['list', 'details', 'templates'] as const;
export type SyncWorkPhase = (typeof SYNC_WORK_PHASES)[number];

/**
 * Which templates a sync fetches: 'wanted' those of watched products and of variants ordered in the
 * last 30 days (plus any cached one whose purchaseSchemaRevision moved), 'all' one for every variant.
 */
export const TEMPLATE_SCOPES = ['wanted', 'all'] as const;
export type TemplateScope = (typeof TEMPLATE_SCOPES)[number];

export const syncProgressSchema = z.object({
  /** A work phase while it runs; then 'done', 'failed' or 'stopped' once the run has ended. */
  phase: z.string(),
  /** 1-based place of `phase` among `phaseCount` work phases; null once the run has ended. */
  phaseIndex: z.number().int().positive().nullable(),
  phaseCount: z.number().int().positive(),
  /** Requests of this phase answered so far, and of how many (null while the phase's size is unknown). */
  done: z.number().int(),
  total: z.number().int().nullable(),
  /** The whole sync's share done, 0..1, weighted by requests; null (an indeterminate bar) while some phase's work is unknown. Never goes back within a run. */
  fraction: z.number().min(0).max(1).nullable(),
  /** Client-clock ms until the whole sync ends; null until it can be known (see catalog/sync-eta.ts). */
  etaMs: z.number().nullable(),
  /** Which templates this run fetches: the templates phase says "for N watched/ordered variants" under 'wanted'. */
  templateScope: z.enum(TEMPLATE_SCOPES),
});
export type SyncProgressView = z.infer<typeof syncProgressSchema>;

/** Why a sync did not finish, kept structured so the screen says it in the buyer's language. */
export const SYNC_FAILURE_KINDS = ['merchant', 'transport', 'paging', 'notBefore', 'malformed', 'other'] as const;
export type SyncFailureKind = (typeof SYNC_FAILURE_KINDS)[number];

export const syncFailureSchema = z.object({
  kind: z.enum(SYNC_FAILURE_KINDS),
  /** The merchant's business code (kind merchant). */
  merchantCode: z.number().int().nullable(),
  /** Why no answer came (kind transport); see shared/transport-reasons.ts. */
  transportReason: z.enum(TRANSPORT_REASONS).nullable(),
  /** The merchant's requestId of the failed request, for support. */
  requestId: z.string().nullable(),
  /** Kind notBefore: when the merchant lets the sync go on (it resumes by itself then). */
  notBeforeAt: seconds.nullable(),
  at: seconds,
});
export type SyncFailureView = z.infer<typeof syncFailureSchema>;

export const syncStatusSchema = z.object({
  running: z.boolean(),
  phase: z.string().nullable(),
  /** When the last sync that ran to its end finished: kept through later failures and runs. */
  lastSyncedAt: seconds.nullable(),
  /** Why the last run did not finish; null after a success and while a run goes on. */
  failure: syncFailureSchema.nullable(),
  /** The running sync's latest progress; null when none runs. */
  progress: syncProgressSchema.nullable(),
  products: z.number().int(),
});
export type SyncStatus = z.infer<typeof syncStatusSchema>;
