// 0010 order price guard, withdraw and the recharged account (contract §7.7, 7.8).
//
// Why it looks like this:
// - order_intents is rebuilt (SQLite cannot change a CHECK in place) to admit three statuses:
//     queued → price_changed | unavailable   the guard's read of GET /goods/{productRef} right before a
//                                            send found a higher price, or a product/variant that
//                                            cannot be supplied; nothing was sent, the buyer decides;
//     price_changed | unavailable → queued (re-confirmed, same ref) | withdrawn;
//     unknown → withdrawing                  the buyer withdrew an order whose send outcome is not
//                                            known: it is never sent again, only resolved by
//                                            GET /orders/{ref} (404002 → withdrawn, found → accepted).
//   orders and cards keep referencing order_intents by name; the rebuild runs with foreign key
//   enforcement off (SQLite's procedure) and foreign_key_check must come out clean in the same
//   transaction (migrate.ts), so no reference is lost.
// - confirmed_unit_price_fen: the unit price the buyer saw and confirmed, stored with the intent in the
//   same transaction as its ref. The guard parks the intent when the merchant asks more.
//   Intents written before this migration have none. Those still waiting to be sent (queued,
//   needs_confirmation) get the price their variant had in the catalog cache when the intent was
//   written (the newest price_history row recorded at or before created_at): that is what the buyer
//   was shown, so the guard protects them too. Where the cache held no price then, the column stays
//   NULL and the guard still checks availability and stock but sends at the merchant's price, as
//   before this migration (there is no confirmed price to hold it to, and parking every old intent
//   would strand orders the buyer did place). Intents already sent keep NULL: the merchant's own
//   unit price is on their order.
// - guard_unit_price_fen: the price the guard read when it parked as price_changed, so the buyer sees
//   old and new side by side; unavailable_reason is a short code (productUnavailable,
//   variantUnavailable, variantGone, outOfStock). A park always carries its column; both are cleared
//   when the buyer re-confirms and kept when the buyer withdraws (why it was given up stays visible).
// - withdraw_requested_at: the buyer withdrew while a create was in flight; the answer decides
//   (unknown → withdrawing, surely-not-created → withdrawn, accepted → accepted, never resent).
// - recharged_entries_sealed: the top-up entries (the account that was recharged) kept once the
//   merchant accepted, so a finished order can show them. 0002 cleared them at acceptance; they are
//   account identifiers the template may flag sensitive, and unlike the plain column (needed only
//   until the outcome is final, to resend identical content) they would stay for the life of the
//   order, so they are sealed with the vault's cipher (AES-256-GCM, associated data naming the
//   intent) like card secrets.
import type { Migration } from '../migration';

const COLUMNS = `client_order_ref, batch_id, product_ref, variant_ref, product_type, units, purchase_schema_revision,
  purchase_entries_json, order_callback_url, image_url, status, attempts, last_attempt_at, next_attempt_at, last_error_code,
  last_error_message, last_request_id, created_at, updated_at, resolved_at`;

export const orderPriceGuardMigration: Migration = {
  id: 10,
  name: 'order-price-guard',
  rebuildsReferencedTables: true,
  sql: `
CREATE TABLE order_intents_0010 (
  client_order_ref TEXT PRIMARY KEY
    CHECK (length(client_order_ref) BETWEEN 1 AND 64 AND client_order_ref NOT GLOB '*[^A-Za-z0-9_-]*'),
  batch_id TEXT,
  product_ref INTEGER NOT NULL,
  variant_ref INTEGER NOT NULL DEFAULT 0,
  product_type TEXT NOT NULL,
  units INTEGER NOT NULL CHECK (units > 0),
  purchase_schema_revision INTEGER,
  purchase_entries_json TEXT CHECK (purchase_entries_json IS NULL OR json_valid(purchase_entries_json)),
  order_callback_url TEXT,
  image_url TEXT,
  status TEXT NOT NULL DEFAULT 'queued'
    CHECK (status IN ('queued', 'sending', 'unknown', 'accepted', 'rejected', 'needs_confirmation', 'withdrawn',
                      'price_changed', 'unavailable', 'withdrawing')),
  attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  last_attempt_at INTEGER,
  next_attempt_at INTEGER,
  last_error_code TEXT,
  last_error_message TEXT,
  last_request_id TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  resolved_at INTEGER,
  confirmed_unit_price_fen INTEGER CHECK (confirmed_unit_price_fen IS NULL OR confirmed_unit_price_fen >= 0),
  guard_unit_price_fen INTEGER CHECK (guard_unit_price_fen IS NULL OR guard_unit_price_fen >= 0),
  unavailable_reason TEXT,
  withdraw_requested_at INTEGER,
  recharged_entries_sealed BLOB,
  CHECK (status <> 'price_changed' OR guard_unit_price_fen IS NOT NULL),
  CHECK (status <> 'unavailable' OR unavailable_reason IS NOT NULL)
) STRICT;
INSERT INTO order_intents_0010 (${COLUMNS}) SELECT ${COLUMNS} FROM order_intents;
DROP TABLE order_intents;
ALTER TABLE order_intents_0010 RENAME TO order_intents;
CREATE INDEX order_intents_outbox ON order_intents (next_attempt_at, created_at)
  WHERE status IN ('queued', 'sending', 'unknown', 'withdrawing');
CREATE INDEX order_intents_batch ON order_intents (batch_id) WHERE batch_id IS NOT NULL;
CREATE INDEX order_intents_created ON order_intents (created_at);

UPDATE order_intents SET confirmed_unit_price_fen = (
  SELECT h.price_fen FROM price_history h
  WHERE h.product_ref = order_intents.product_ref AND h.variant_ref = order_intents.variant_ref AND h.recorded_at <= order_intents.created_at
  ORDER BY h.recorded_at DESC, h.id DESC LIMIT 1
) WHERE status IN ('queued', 'needs_confirmation');
`,
};
