// 0008 product search price: covering indexes that answer a search's price filter without reading
// the products row, for one product_ref and along the ascending price order.
//
// Why it looks like this:
// - A text search is driven by the FTS index, which yields product_refs; with a price filter each
//   match was checked by reading its products row, about 1 KB (description, detail JSON), so a
//   broad text ("卡": most of the catalog) with a price range spent most of its time there.
// - This index holds, per listed product, exactly what the price filter and the price sorts read
//   (0005's summary bounds and price_from_fen), so the check is one seek in a small index that
//   stays cached. Search names it (INDEXED BY) where it covers the query; the planner would
//   otherwise take the rowid lookup into the table.
// - products_price_ascending_prices is products_price_ascending (0001) with the same price columns:
//   a search in a price range sorted by price walks it from the cheapest product, and most of the
//   products it passes on the way (cheapest variant below the range, dearest too) are rejected from
//   the index entry instead of a row read each.
// - Partial on removed_at IS NULL like every search index (0001): search only reads listed products.
import type { Migration } from '../migration';

export const productSearchPriceMigration: Migration = {
  id: 8,
  name: 'product-search-price',
  sql: `
CREATE INDEX products_search_price ON products
  (product_ref, price_min_fen, price_max_fen, stock_price_min_fen, stock_price_max_fen, price_from_fen)
  WHERE removed_at IS NULL;
CREATE INDEX products_price_ascending_prices ON products
  ((price_from_fen IS NULL), price_from_fen, price_min_fen, price_max_fen, stock_price_min_fen, stock_price_max_fen)
  WHERE removed_at IS NULL;
`,
};
