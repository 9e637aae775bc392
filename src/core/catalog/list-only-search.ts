// How search treats a product known only from the catalog list (contract §11.1): its detail (variants,
// stock) is not stored yet, as for most of the catalog during a first sync. The list's facts stand in:
// its priceFrom is its price for the price range and the price sorts, and its availability decides
// "in stock only", where an available list-only product is kept (its stock is not known yet, which
// the hit's detailState says) rather than hidden for want of a detail the buyer can open at once.
//
// The price bounds below apply to every product: a product with variants has price_min_fen and
// price_max_fen, so the list's price_from_fen is only read where no variant is stored. The stock
// rules change the query only while such products exist (hasListOnlyProducts), so a fully synced
// cache runs exactly the plans it ran before (the search benchmark's p95 is measured on one).
import type { Database, Statement } from 'better-sqlite3';
/**
 * The lowest and highest price a price range and the matched price read: of the variants (in stock,
 * when asked), or the list's priceFrom for a product without stored variants. With inStock, the
 * stock set (inStockSet) has already let through only in-stock products and available list-only
 * ones, and only the latter lack stock_price_*.
 */
export function priceBounds(inStock: boolean): readonly [low: string, high: string] {
  return inStock
    ? ['coalesce(p.stock_price_min_fen, p.price_from_fen)', 'coalesce(p.stock_price_max_fen, p.price_from_fen)']
    : ['coalesce(p.price_min_fen, p.price_from_fen)', 'coalesce(p.price_max_fen, p.price_from_fen)'];
}

// products_needing_detail (0001) is partial on exactly this OR; repeating it lets the planner use the
// index, which holds only products whose detail is missing or behind (none once a sync finished).
const LIST_ONLY = (alias: string): string =>
  `(${alias}.revision IS NULL OR ${alias}.listed_revision > ${alias}.revision) AND ${alias}.revision IS NULL AND ${alias}.removed_at IS NULL`;

const presence = new WeakMap<Database, Statement<[], { present: number }>>();

/** Some listed product has no stored detail: the stock rules for list-only products apply. */
export function hasListOnlyProducts(db: Database): boolean {
  let statement = presence.get(db);
  if (statement === undefined) {
    statement = db.prepare<[], { present: number }>(`SELECT EXISTS (SELECT 1 FROM products l INDEXED BY products_needing_detail WHERE ${LIST_ONLY('l')}) AS present`);
    presence.set(db, statement);
  }
  return statement.get()?.present === 1;
}

/**
 * "In stock only" as a set test on a product_ref: not among the out-of-stock products (in_stock = 0,
 * the small side on a synced cache), where an available list-only product does not count as out of
 * stock.
 */
export function inStockSet(ref: string, listOnly: boolean): string {
  const outOfStock = 'SELECT o.product_ref FROM products o INDEXED BY products_in_stock_price WHERE o.removed_at IS NULL AND o.in_stock = 0';
  if (!listOnly) return `${ref} NOT IN (${outOfStock})`;
  return `${ref} NOT IN (${outOfStock}
    EXCEPT SELECT l.product_ref FROM products l INDEXED BY products_needing_detail WHERE ${LIST_ONLY('l')} AND l.availability = 'available')`;
}

/** "In stock only" as a condition on the products row p (a count or page driven by a filter index). */
export function inStockRow(listOnly: boolean): string {
  return listOnly ? "(p.in_stock = 1 OR (p.revision IS NULL AND p.availability = 'available'))" : 'p.in_stock = 1';
}
