// 0001 catalog: the offline copy of the merchant's catalog, the price/stock history and the
// search index.
//
// Why it looks like this:
// - Money is INTEGER fen and times INTEGER Unix seconds; tables are STRICT so a yuan float or a
//   numeric string can never slip into a fen column.
// - Merchant enums (product_type, availability, inventory_type, entry_mode, subscription_state) are
//   plain TEXT without CHECK: an unknown value from a newer merchant is stored raw and shown as
//   unknown (interface v1 §3.1), never rejected and never mistaken for a known one.
// - products.revision is the revision of the data stored (detail or product.changed snapshot);
//   listed_revision is the newest one seen in GET /goods/catalog. The detail phase of a sync is
//   therefore resumable from the data alone: fetch where revision IS NULL OR listed_revision >
//   revision. A trigger refuses to lower revision, so a stale snapshot can never overwrite a newer
//   one even if a caller forgets to compare.
// - listed_at + removed_at: a completed full sync marks products it did not see as removed instead
//   of deleting them, so orders and history keep their product.
// - categories and catalog_ref carry no foreign key: a product.changed snapshot may name a
//   category before the next category sync has seen it.
// - variants cascade with their product; templates hang off the product, not the variant, because
//   the variant list is replaced whole on every snapshot and a template must survive that when its
//   purchaseSchemaRevision did not change.
// - price_history is written by triggers on variants, so sync and webhooks (the same code, or not)
//   record exactly when price, stock, availability or inventory type changes; recorded_at is the
//   variant's synced_at, i.e. the injected clock, not SQLite's.
// - products.price_from_fen (sort key for price ordering) is kept equal to the lowest variant
//   price by triggers; before a product's detail is fetched it holds the catalog list's priceFrom.
// - product_search is an FTS5 trigram index (any substring of 3+ characters, Chinese included) with
//   a second column of padded 1- and 2-character grams so that short Chinese queries ("会员") use
//   the index too. Its rows are written by the repository (core/db/product-search-index.ts), not by
//   triggers: the document is derived text (normalised, grams) SQL cannot compute, and one rewrite
//   per product is much cheaper than one per variant row. Only deletion and removal (which need
//   no text) are done by trigger. Only products not removed have a document. It is contentless
//   (contentless_delete) because the text lives in products/variants already.
// - catalog_sync_state is a single row describing the current or last full sync, so a crash
//   resumes at the page it reached instead of starting over.
import type { Migration } from '../migration';

export const catalogMigration: Migration = {
  id: 1,
  name: 'catalog',
  sql: `
CREATE TABLE categories (
  catalog_ref INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  parent_ref INTEGER,
  sort INTEGER NOT NULL DEFAULT 0,
  product_count INTEGER NOT NULL DEFAULT 0,
  synced_at INTEGER NOT NULL
) STRICT;
CREATE INDEX categories_parent ON categories (parent_ref, sort);

CREATE TABLE products (
  product_ref INTEGER PRIMARY KEY,
  catalog_ref INTEGER NOT NULL,
  name TEXT NOT NULL,
  product_type TEXT NOT NULL,
  brand_ref INTEGER,
  brand_name TEXT,
  brand_image_url TEXT,
  availability TEXT NOT NULL,
  description TEXT,
  image_url TEXT,
  price_from_fen INTEGER CHECK (price_from_fen >= 0),
  revision INTEGER,
  listed_revision INTEGER,
  detail_json TEXT CHECK (detail_json IS NULL OR json_valid(detail_json)),
  subscription_state TEXT,
  subscription_expires_at INTEGER,
  listed_at INTEGER,
  removed_at INTEGER,
  synced_at INTEGER NOT NULL
) STRICT;
-- Search and browse only ever read products not removed, so the sort and filter indexes are
-- partial on that: smaller, and a browse of 100,000 products sorted by price reads 50 index entries
-- instead of sorting. Price ascending puts unpriced products last; descending does so by itself.
CREATE INDEX products_catalog ON products (catalog_ref, price_from_fen) WHERE removed_at IS NULL;
CREATE INDEX products_availability ON products (availability) WHERE removed_at IS NULL;
CREATE INDEX products_price_ascending ON products ((price_from_fen IS NULL), price_from_fen) WHERE removed_at IS NULL;
CREATE INDEX products_price ON products (price_from_fen) WHERE removed_at IS NULL;
CREATE INDEX products_name ON products (name) WHERE removed_at IS NULL;
CREATE INDEX products_revision ON products (revision) WHERE removed_at IS NULL;
CREATE INDEX products_needing_detail ON products (product_ref)
  WHERE revision IS NULL OR listed_revision > revision;

CREATE TRIGGER products_revision_never_decreases
BEFORE UPDATE OF revision ON products
WHEN OLD.revision IS NOT NULL AND (NEW.revision IS NULL OR NEW.revision < OLD.revision)
BEGIN
  SELECT RAISE(ABORT, 'stale product snapshot: revision may not decrease');
END;

CREATE TABLE variants (
  product_ref INTEGER NOT NULL REFERENCES products (product_ref) ON DELETE CASCADE,
  variant_ref INTEGER NOT NULL,
  position INTEGER NOT NULL DEFAULT 0,
  title TEXT NOT NULL,
  price_fen INTEGER NOT NULL CHECK (price_fen >= 0),
  face_value_fen INTEGER CHECK (face_value_fen >= 0),
  availability TEXT NOT NULL,
  inventory_type TEXT NOT NULL,
  remaining_units INTEGER CHECK (remaining_units >= 0),
  purchase_schema_revision INTEGER NOT NULL,
  synced_at INTEGER NOT NULL,
  PRIMARY KEY (product_ref, variant_ref)
) STRICT;
CREATE INDEX variants_price ON variants (price_fen);

CREATE TABLE templates (
  product_ref INTEGER NOT NULL REFERENCES products (product_ref) ON DELETE CASCADE,
  variant_ref INTEGER NOT NULL,
  product_type TEXT NOT NULL,
  purchase_schema_revision INTEGER NOT NULL,
  entry_mode TEXT NOT NULL,
  template_json TEXT NOT NULL CHECK (json_valid(template_json)),
  fetched_at INTEGER NOT NULL,
  PRIMARY KEY (product_ref, variant_ref)
) STRICT;

CREATE TABLE price_history (
  id INTEGER PRIMARY KEY,
  product_ref INTEGER NOT NULL REFERENCES products (product_ref) ON DELETE CASCADE,
  variant_ref INTEGER NOT NULL,
  price_fen INTEGER NOT NULL,
  availability TEXT NOT NULL,
  inventory_type TEXT NOT NULL,
  remaining_units INTEGER,
  recorded_at INTEGER NOT NULL
) STRICT;
CREATE INDEX price_history_variant ON price_history (product_ref, variant_ref, id);

-- A variant inserted again after a whole-list replacement is compared with its latest history
-- row, so replacing an unchanged list records nothing.
CREATE TRIGGER variants_history_on_insert
AFTER INSERT ON variants
WHEN NOT EXISTS (
  SELECT 1 FROM (
    SELECT price_fen, availability, inventory_type, remaining_units FROM price_history
    WHERE product_ref = NEW.product_ref AND variant_ref = NEW.variant_ref
    ORDER BY id DESC LIMIT 1
  ) AS latest
  WHERE latest.price_fen IS NEW.price_fen
    AND latest.availability IS NEW.availability
    AND latest.inventory_type IS NEW.inventory_type
    AND latest.remaining_units IS NEW.remaining_units
)
BEGIN
  INSERT INTO price_history (product_ref, variant_ref, price_fen, availability, inventory_type, remaining_units, recorded_at)
  VALUES (NEW.product_ref, NEW.variant_ref, NEW.price_fen, NEW.availability, NEW.inventory_type, NEW.remaining_units, NEW.synced_at);
END;

CREATE TRIGGER variants_history_on_update
AFTER UPDATE OF price_fen, availability, inventory_type, remaining_units ON variants
WHEN OLD.price_fen IS NOT NEW.price_fen
  OR OLD.availability IS NOT NEW.availability
  OR OLD.inventory_type IS NOT NEW.inventory_type
  OR OLD.remaining_units IS NOT NEW.remaining_units
BEGIN
  INSERT INTO price_history (product_ref, variant_ref, price_fen, availability, inventory_type, remaining_units, recorded_at)
  VALUES (NEW.product_ref, NEW.variant_ref, NEW.price_fen, NEW.availability, NEW.inventory_type, NEW.remaining_units, NEW.synced_at);
END;

CREATE TRIGGER variants_price_from_on_insert
AFTER INSERT ON variants
BEGIN
  UPDATE products SET price_from_fen = (SELECT min(price_fen) FROM variants WHERE product_ref = NEW.product_ref)
  WHERE product_ref = NEW.product_ref;
END;

CREATE TRIGGER variants_price_from_on_update
AFTER UPDATE OF price_fen ON variants
BEGIN
  UPDATE products SET price_from_fen = (SELECT min(price_fen) FROM variants WHERE product_ref = NEW.product_ref)
  WHERE product_ref = NEW.product_ref;
END;

-- With no variant left the list price is kept: the next snapshot always carries at least one.
CREATE TRIGGER variants_price_from_on_delete
AFTER DELETE ON variants
BEGIN
  UPDATE products SET price_from_fen = coalesce((SELECT min(price_fen) FROM variants WHERE product_ref = OLD.product_ref), price_from_fen)
  WHERE product_ref = OLD.product_ref;
END;

CREATE VIRTUAL TABLE product_search USING fts5 (
  text,
  grams,
  tokenize = 'trigram',
  content = '',
  contentless_delete = 1
);

-- Only products still listed have a document, so a text-only count needs no join. Removing one
-- needs no derived text, so it is automatic (deleted, or marked removed by a completed sync).
CREATE TRIGGER products_search_on_delete
AFTER DELETE ON products
BEGIN
  DELETE FROM product_search WHERE rowid = OLD.product_ref;
END;

CREATE TRIGGER products_search_on_removal
AFTER UPDATE OF removed_at ON products
WHEN NEW.removed_at IS NOT NULL
BEGIN
  DELETE FROM product_search WHERE rowid = NEW.product_ref;
END;

CREATE TABLE catalog_sync_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  phase TEXT NOT NULL,
  next_page INTEGER NOT NULL DEFAULT 1,
  items_done INTEGER NOT NULL DEFAULT 0,
  items_total INTEGER,
  started_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  finished_at INTEGER,
  last_error TEXT
) STRICT;
`,
};
