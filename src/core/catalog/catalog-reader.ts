// Named reads of the cached catalog for the product page, the order form and tests: one product
// with its variants, a variant's purchase template, and the category tree. Works offline.
import type { Database } from 'better-sqlite3';
import { purchaseTemplateSchema } from '../../shared/merchant/template';
import type { PurchaseTemplate } from '../../shared/merchant/template';
import type { BrandState } from './catalog-changes';

export interface CachedVariant {
  readonly variantRef: number;
  readonly title: string;
  readonly priceFen: number;
  readonly faceValueFen: number | null;
  readonly availability: string;
  readonly inventoryType: string;
  readonly remainingUnits: number | null;
  readonly purchaseSchemaRevision: number;
}

export interface CachedProduct {
  readonly productRef: number;
  readonly catalogRef: number;
  readonly name: string;
  readonly productType: string;
  readonly brand: BrandState | null;
  readonly availability: string;
  readonly description: string | null;
  readonly imageUrl: string | null;
  readonly priceFromFen: number | null;
  /** null until a detail or snapshot was stored (only the catalog list is known). */
  readonly revision: number | null;
  readonly listedRevision: number | null;
  /** The catalog list's variantCount (null before a list page named it, 0016). */
  readonly listedVariantCount: number | null;
  readonly subscriptionState: string | null;
  readonly subscriptionExpiresAt: number | null;
  readonly removedAt: number | null;
  /** Unix seconds (core clock) the stored data was last written from the merchant: a detail read, or the list before any. */
  readonly syncedAt: number;
  /** In the merchant's order. */
  readonly variants: readonly CachedVariant[];
}

export interface CachedCategory {
  readonly catalogRef: number;
  readonly name: string;
  readonly parentRef: number | null;
  readonly sort: number;
  readonly productCount: number;
}

export interface CachedTemplate {
  readonly fetchedAt: number;
  readonly template: PurchaseTemplate;
}

interface ProductRow {
  product_ref: number;
  catalog_ref: number;
  name: string;
  product_type: string;
  brand_ref: number | null;
  brand_name: string | null;
  brand_image_url: string | null;
  availability: string;
  description: string | null;
  image_url: string | null;
  price_from_fen: number | null;
  revision: number | null;
  listed_revision: number | null;
  listed_variant_count: number | null;
  subscription_state: string | null;
  subscription_expires_at: number | null;
  removed_at: number | null;
  synced_at: number;
}

interface VariantRow {
  variant_ref: number;
  title: string;
  price_fen: number;
  face_value_fen: number | null;
  availability: string;
  inventory_type: string;
  remaining_units: number | null;
  purchase_schema_revision: number;
}

/** The cached catalog as the order path reads it: products, templates, categories. */
export interface CatalogReader {
  /** The cached product with its variants; null when not in the local catalog. */
  readProduct(productRef: number): CachedProduct | null;
  /** The stored template, validated again so that a damaged row is a clear error, not a bad form. */
  readTemplate(productRef: number, variantRef: number): CachedTemplate | null;
  /** Every cached category. */
  listCategories(): CachedCategory[];
}

export function createCatalogReader(db: Database): CatalogReader {
  const product = db.prepare<[number], ProductRow>(
    `SELECT product_ref, catalog_ref, name, product_type, brand_ref, brand_name, brand_image_url, availability, description, image_url,
            price_from_fen, revision, listed_revision, listed_variant_count, subscription_state, subscription_expires_at, removed_at, synced_at
     FROM products WHERE product_ref = ?`,
  );
  const variants = db.prepare<[number], VariantRow>(
    `SELECT variant_ref, title, price_fen, face_value_fen, availability, inventory_type, remaining_units, purchase_schema_revision
     FROM variants WHERE product_ref = ? ORDER BY position, variant_ref`,
  );
  const template = db.prepare<[number, number], { template_json: string; fetched_at: number }>(
    'SELECT template_json, fetched_at FROM templates WHERE product_ref = ? AND variant_ref = ?',
  );
  const categories = db.prepare<[], { catalog_ref: number; name: string; parent_ref: number | null; sort: number; product_count: number }>(
    'SELECT catalog_ref, name, parent_ref, sort, product_count FROM categories ORDER BY catalog_ref',
  );

  return {
    readProduct: (productRef: number): CachedProduct | null => {
      const row = product.get(productRef);
      if (!row) return null;
      return {
        productRef: row.product_ref,
        catalogRef: row.catalog_ref,
        name: row.name,
        productType: row.product_type,
        brand: row.brand_ref !== null && row.brand_name !== null ? { brandRef: row.brand_ref, name: row.brand_name, imageUrl: row.brand_image_url } : null,
        availability: row.availability,
        description: row.description,
        imageUrl: row.image_url,
        priceFromFen: row.price_from_fen,
        revision: row.revision,
        listedRevision: row.listed_revision,
        listedVariantCount: row.listed_variant_count,
        subscriptionState: row.subscription_state,
        subscriptionExpiresAt: row.subscription_expires_at,
        removedAt: row.removed_at,
        syncedAt: row.synced_at,
        variants: variants.all(productRef).map((v) => ({
          variantRef: v.variant_ref,
          title: v.title,
          priceFen: v.price_fen,
          faceValueFen: v.face_value_fen,
          availability: v.availability,
          inventoryType: v.inventory_type,
          remainingUnits: v.remaining_units,
          purchaseSchemaRevision: v.purchase_schema_revision,
        })),
      };
    },

    /** The stored template, validated again so that a damaged row is a clear error, not a bad form. */
    readTemplate: (productRef: number, variantRef: number): CachedTemplate | null => {
      const row = template.get(productRef, variantRef);
      if (!row) return null;
      return { fetchedAt: row.fetched_at, template: purchaseTemplateSchema.parse(JSON.parse(row.template_json)) };
    },

    listCategories: (): CachedCategory[] =>
      categories.all().map((c) => ({ catalogRef: c.catalog_ref, name: c.name, parentRef: c.parent_ref, sort: c.sort, productCount: c.product_count })),
  };
}

