// 0023 search spelling: product search documents now carry pinyin spellings, category names and
// name markers for ranking (core/db/product-search-index.ts), which SQL cannot compute. This
// migration only queues every listed product; core rewrites the queued documents when it opens
// the database (rebuildStaleSearchDocuments), in batches, each in one transaction, so an
// interrupted rebuild resumes where it stopped. Until then a product is found as before.
import type { Migration } from '../migration';

export const searchSpellingMigration: Migration = {
  id: 23,
  name: 'search-spelling',
  sql: `
CREATE TABLE product_search_stale (product_ref INTEGER PRIMARY KEY);
INSERT INTO product_search_stale (product_ref) SELECT product_ref FROM products WHERE removed_at IS NULL;
`,
};
