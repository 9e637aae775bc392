// 0013 merchant trust: what the merchant's refusals and unsigned webhooks may leave behind.
//
// - merchant_not_before: the "not before" time of a Retry-After, per quota group (`total` for the
//   account's whole quota, contract §8.1), so that a restarted process, the app and `cli run` all
//   obey a wait that one of them was told. Client-clock Unix milliseconds; one row per scope, the
//   later time kept. A row in the past holds nothing back and is simply overwritten later.
// - products.revision: up to now a product.changed webhook (unsigned, interface v1 §6.4 rule 9) could store its
//   snapshot and its revision, and a forged revision far in the future made every authenticated
//   detail "stale" for good. From this version on only authenticated details write a product, so a
//   revision that no authenticated answer vouches for is reset to 0: above the revision the
//   authenticated catalog list last showed, or with no listed revision at all. The next detail then
//   always applies (a sync fetches it at once for listed products, since listed_revision > 0). The
//   never-decreases trigger is dropped for that one update and created again exactly as 0001 made it.
import type { Migration } from '../migration';

export const merchantTrustMigration: Migration = {
  id: 13,
  name: 'merchant-trust',
  sql: `
CREATE TABLE merchant_not_before (
  scope TEXT PRIMARY KEY CHECK (length(scope) BETWEEN 1 AND 32),
  not_before_ms INTEGER NOT NULL CHECK (not_before_ms >= 0),
  request_id TEXT CHECK (request_id IS NULL OR length(request_id) <= 128),
  set_at_ms INTEGER NOT NULL
) STRICT;

DROP TRIGGER products_revision_never_decreases;
UPDATE products SET revision = 0
  WHERE revision IS NOT NULL AND (listed_revision IS NULL OR revision > listed_revision);
CREATE TRIGGER products_revision_never_decreases
BEFORE UPDATE OF revision ON products
WHEN OLD.revision IS NOT NULL AND (NEW.revision IS NULL OR NEW.revision < OLD.revision)
BEGIN
  SELECT RAISE(ABORT, 'stale product snapshot: revision may not decrease');
END;
`,
};
