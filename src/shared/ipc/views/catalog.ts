// The local catalog as the renderer sees it: categories, search, product detail, price history, purchase
// templates, and the catalog sync's progress. Merchant enum values stay raw (shared/merchant/known-values).
import { z } from 'zod';
import { fen, seconds } from './view-fields';
import { PRICE_RANGE_MESSAGE, priceRangeProblem } from '../../price-range';

export const categoryViewSchema = z.object({
  catalogRef: z.number().int(),
  name: z.string(),
  parentRef: z.number().int().nullable(),
  productCount: z.number().int(),
});
export type CategoryView = z.infer<typeof categoryViewSchema>;

export const productHitSchema = z.object({
  productRef: z.number().int(),
  catalogRef: z.number().int(),
  name: z.string(),
  productType: z.string(),
  availability: z.string(),
  brandName: z.string().nullable(),
  imageUrl: z.string().nullable(),
  priceFromFen: fen.nullable(),
  variantCount: z.number().int(),
  inStock: z.boolean(),
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
});
export type ProductView = z.infer<typeof productViewSchema>;

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

export const syncProgressSchema = z.object({
  phase: z.string(),
  done: z.number().int(),
  total: z.number().int().nullable(),
  etaMs: z.number().nullable(),
});
export type SyncProgressView = z.infer<typeof syncProgressSchema>;

export const syncStatusSchema = z.object({
  running: z.boolean(),
  phase: z.string().nullable(),
  lastSyncedAt: seconds.nullable(),
  lastError: z.string().nullable(),
  products: z.number().int(),
});
export type SyncStatus = z.infer<typeof syncStatusSchema>;
