// 0016 listed variant count: the catalog list's variantCount (contract §3), kept so that a product
// known only from the list can say how many variants it has before its detail arrives.
//
// Why it looks like this:
// - variant_count (0005) counts the stored variants and is kept by triggers; it is 0 until a detail is
//   stored, which is the truth about the cache but not about the product. The list's own number is a
//   separate fact with its own column, written by every list page like listed_revision.
// - NULL until the next list page names the product (an upgraded cache): unknown, shown as no count.
// - Search reads it only for a product without a stored detail (catalog-search.ts), so no index.
import type { Migration } from '../migration';

export const listedVariantCountMigration: Migration = {
  id: 16,
  name: 'listed-variant-count',
  sql: `
ALTER TABLE products ADD COLUMN listed_variant_count INTEGER CHECK (listed_variant_count IS NULL OR listed_variant_count >= 0);
`,
};
