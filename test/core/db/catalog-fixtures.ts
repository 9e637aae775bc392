// Minimal catalog rows for tests, written the way the catalog repository will: product row,
// variants, then the search document in the same transaction.
import type { Database } from 'better-sqlite3';
import { refreshProductSearch } from '../../../src/core/db/product-search-index';

export interface VariantFixture {
  readonly variantRef: number;
  readonly title: string;
  readonly priceFen: number;
  readonly availability?: string;
  readonly inventoryType?: string;
  readonly remainingUnits?: number | null;
  readonly purchaseSchemaRevision?: number;
}

export interface ProductFixture {
  readonly productRef: number;
  readonly catalogRef: number;
  readonly name: string;
  readonly productType?: string;
  readonly brandName?: string | null;
  readonly availability?: string;
  readonly revision?: number;
  readonly variants: readonly VariantFixture[];
}

export const FIXTURE_NOW = 1_790_000_000;

export function insertCategory(db: Database, catalogRef: number, name: string, parentRef: number | null = null): void {
  db.prepare('INSERT INTO categories (catalog_ref, name, parent_ref, sort, product_count, synced_at) VALUES (?, ?, ?, 0, 0, ?)').run(
    catalogRef,
    name,
    parentRef,
    FIXTURE_NOW,
  );
}

export function insertProduct(db: Database, product: ProductFixture, syncedAt = FIXTURE_NOW): void {
  db.transaction(() => {
    db.prepare(
      `INSERT INTO products (product_ref, catalog_ref, name, product_type, brand_name, availability, revision, listed_revision, synced_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      product.productRef,
      product.catalogRef,
      product.name,
      product.productType ?? 'card',
      product.brandName ?? null,
      product.availability ?? 'available',
      product.revision ?? syncedAt,
      product.revision ?? syncedAt,
      syncedAt,
    );
    product.variants.forEach((variant, position) => insertVariant(db, product.productRef, variant, position, syncedAt));
    refreshProductSearch(db, product.productRef);
  })();
}

export function insertVariant(db: Database, productRef: number, variant: VariantFixture, position = 0, syncedAt = FIXTURE_NOW): void {
  const inventoryType = variant.inventoryType ?? 'unlimited';
  db.prepare(
    `INSERT INTO variants (product_ref, variant_ref, position, title, price_fen, availability, inventory_type, remaining_units,
                           purchase_schema_revision, synced_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    productRef,
    variant.variantRef,
    position,
    variant.title,
    variant.priceFen,
    variant.availability ?? 'available',
    inventoryType,
    variant.remainingUnits === undefined ? (inventoryType === 'tracked' ? 10 : null) : variant.remainingUnits,
    variant.purchaseSchemaRevision ?? 1,
    syncedAt,
  );
}
