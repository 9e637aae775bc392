// 0005 product stock summary: what search filters and shows about a product's variants, stored on
// the product row so that a search over 100,000 products never visits the variants table per row.
//
// Why it looks like this:
// - variant_count and in_stock were computed per result row by subqueries, and the in-stock and
//   price filters probed variants for every candidate: a filter-only search matching ~90,000
//   products spent hundreds of ms there. Now they are columns a covering index can answer.
// - in_stock means exactly what search always meant (catalog-search.ts): the product is
//   'available' and has a variant that is 'available' with known stock (unlimited, undisclosed, or
//   tracked with units left). An unknown inventory type is never claimed to be in stock.
// - A price range must hold on ONE variant (the same one that is in stock, when asked). The lowest
//   and highest price over all variants (price_min_fen/price_max_fen) and over in-stock variants
//   (stock_price_*) decide that for every product except one whose range strictly contains the
//   asked range; search checks the variants of those few only. They are NULL when there is no such
//   variant. price_from_fen (0001) is not reused: it keeps the list price when no variant is known.
// - Triggers keep the columns right in the same transaction as every variant write and every
//   change of product availability, whoever writes (repository, webhook, test fixture): a summary
//   maintained by the repository alone could silently drift from its variants.
// - Existing rows are filled once here, so an upgraded cache is searchable at once.
// - products_in_stock_price serves "in stock within a price range" (count and filter) from the index
//   alone; products_catalog_ref lets a category filter walk catalog_ref then product_ref in order.
import type { Migration } from '../migration';

export const productStockSummaryMigration: Migration = {
  id: 5,
  name: 'product-stock-summary',
  sql: `
ALTER TABLE products ADD COLUMN variant_count INTEGER NOT NULL DEFAULT 0 CHECK (variant_count >= 0);
ALTER TABLE products ADD COLUMN in_stock INTEGER NOT NULL DEFAULT 0 CHECK (in_stock IN (0, 1));
ALTER TABLE products ADD COLUMN price_min_fen INTEGER;
ALTER TABLE products ADD COLUMN price_max_fen INTEGER;
ALTER TABLE products ADD COLUMN stock_price_min_fen INTEGER;
ALTER TABLE products ADD COLUMN stock_price_max_fen INTEGER;

CREATE VIEW product_stock_summary AS
SELECT p.product_ref,
       (SELECT count(*) FROM variants v WHERE v.product_ref = p.product_ref) AS variant_count,
       (p.availability = 'available' AND EXISTS (
          SELECT 1 FROM variants v WHERE v.product_ref = p.product_ref AND v.availability = 'available'
            AND (v.inventory_type IN ('unlimited', 'undisclosed') OR (v.inventory_type = 'tracked' AND v.remaining_units > 0)))) AS in_stock,
       (SELECT min(price_fen) FROM variants v WHERE v.product_ref = p.product_ref) AS price_min_fen,
       (SELECT max(price_fen) FROM variants v WHERE v.product_ref = p.product_ref) AS price_max_fen,
       (SELECT min(price_fen) FROM variants v WHERE v.product_ref = p.product_ref AND v.availability = 'available'
          AND (v.inventory_type IN ('unlimited', 'undisclosed') OR (v.inventory_type = 'tracked' AND v.remaining_units > 0))) AS stock_price_min_fen,
       (SELECT max(price_fen) FROM variants v WHERE v.product_ref = p.product_ref AND v.availability = 'available'
          AND (v.inventory_type IN ('unlimited', 'undisclosed') OR (v.inventory_type = 'tracked' AND v.remaining_units > 0))) AS stock_price_max_fen
FROM products p;

UPDATE products SET (variant_count, in_stock, price_min_fen, price_max_fen, stock_price_min_fen, stock_price_max_fen) =
  (SELECT s.variant_count, s.in_stock, s.price_min_fen, s.price_max_fen, s.stock_price_min_fen, s.stock_price_max_fen
   FROM product_stock_summary s WHERE s.product_ref = products.product_ref);

CREATE TRIGGER variants_summary_on_insert
AFTER INSERT ON variants
BEGIN
  UPDATE products SET (variant_count, in_stock, price_min_fen, price_max_fen, stock_price_min_fen, stock_price_max_fen) =
    (SELECT s.variant_count, s.in_stock, s.price_min_fen, s.price_max_fen, s.stock_price_min_fen, s.stock_price_max_fen
     FROM product_stock_summary s WHERE s.product_ref = NEW.product_ref)
  WHERE product_ref = NEW.product_ref;
END;

CREATE TRIGGER variants_summary_on_delete
AFTER DELETE ON variants
BEGIN
  UPDATE products SET (variant_count, in_stock, price_min_fen, price_max_fen, stock_price_min_fen, stock_price_max_fen) =
    (SELECT s.variant_count, s.in_stock, s.price_min_fen, s.price_max_fen, s.stock_price_min_fen, s.stock_price_max_fen
     FROM product_stock_summary s WHERE s.product_ref = OLD.product_ref)
  WHERE product_ref = OLD.product_ref;
END;

-- A variant moved to another product (never done today) updates both.
CREATE TRIGGER variants_summary_on_update
AFTER UPDATE OF product_ref, price_fen, availability, inventory_type, remaining_units ON variants
BEGIN
  UPDATE products SET (variant_count, in_stock, price_min_fen, price_max_fen, stock_price_min_fen, stock_price_max_fen) =
    (SELECT s.variant_count, s.in_stock, s.price_min_fen, s.price_max_fen, s.stock_price_min_fen, s.stock_price_max_fen
     FROM product_stock_summary s WHERE s.product_ref = products.product_ref)
  WHERE product_ref IN (OLD.product_ref, NEW.product_ref);
END;

CREATE TRIGGER products_in_stock_on_availability
AFTER UPDATE OF availability ON products
WHEN OLD.availability IS NOT NEW.availability
BEGIN
  UPDATE products SET in_stock = (SELECT s.in_stock FROM product_stock_summary s WHERE s.product_ref = NEW.product_ref)
  WHERE product_ref = NEW.product_ref;
END;

CREATE INDEX products_in_stock_price ON products (in_stock, stock_price_min_fen, stock_price_max_fen) WHERE removed_at IS NULL;
CREATE INDEX products_catalog_ref ON products (catalog_ref, product_ref) WHERE removed_at IS NULL;
`,
};
