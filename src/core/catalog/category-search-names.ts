// A product's search document holds its category's and parent category's names (so "话费" finds
// every product of 话费充值), so a category that is new, renamed, moved or dropped rewrites the
// documents of the products in it and in its children, in the same transaction as the categories.
import type { Database } from 'better-sqlite3';
import { refreshProductSearch } from '../db/product-search-index';
import type { Category } from '../../shared/merchant/catalog';

export type StoredCategoryNames = ReadonlyMap<number, string>;

/** Name and parent of every stored category, read before the categories are replaced. */
export function storedCategoryNames(db: Database): StoredCategoryNames {
  const rows = db.prepare<[], { catalog_ref: number; name: string; parent_ref: number | null }>('SELECT catalog_ref, name, parent_ref FROM categories').all();
  return new Map(rows.map((row) => [row.catalog_ref, categoryKey(row.name, row.parent_ref)]));
}

export function refreshRenamedCategories(db: Database, before: StoredCategoryNames, categories: readonly Category[]): void {
  const changed = new Set<number>();
  const kept = new Set<number>();
  for (const category of categories) {
    kept.add(category.catalogRef);
    if (before.get(category.catalogRef) !== categoryKey(category.name, category.parentRef)) changed.add(category.catalogRef);
  }
  for (const ref of before.keys()) if (!kept.has(ref)) changed.add(ref);
  if (changed.size === 0) return;
  const products = db.prepare<{ refs: string }, { product_ref: number }>(
    `SELECT product_ref FROM products WHERE removed_at IS NULL AND (catalog_ref IN (SELECT value FROM json_each(@refs))
       OR catalog_ref IN (SELECT catalog_ref FROM categories WHERE parent_ref IN (SELECT value FROM json_each(@refs))))`,
  );
  for (const row of products.all({ refs: JSON.stringify([...changed]) })) refreshProductSearch(db, row.product_ref);
}

function categoryKey(name: string, parentRef: number | null): string {
  return `${parentRef ?? ''}\u0000${name}`;
}
