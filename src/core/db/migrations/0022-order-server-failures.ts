// 0022 order intents that met the ceiling on the merchant's 500 answers (contract §7.12).
//
// Why it looks like this:
// - server_failures counts the 500-class answers (any 5xx but 503) one intent met over its whole life,
//   its creates and its look-ups together, so that a restart does not start the count again: at
//   MAX_SERVER_FAILURES (merchant/retry-policy.ts) nothing more is sent for it.
// - order_intents is rebuilt (SQLite cannot change a CHECK in place, as in 0010, 0012 and 0017) to admit
//   merchant_failing: the intent waits for the buyer, never sent or looked up by itself, and never
//   withdrawn at once (a create that met a 500 may have been taken). A CHECK keeps it with a count and
//   without a due time, so no worker can pick it up; the buyer's retry resets the count.
import type { Migration } from '../migration';

const COLUMNS = `client_order_ref, batch_id, product_ref, variant_ref, product_type, units, purchase_schema_revision,
  purchase_entries_json, order_callback_url, image_url, status, attempts, last_attempt_at, next_attempt_at, last_error_code,
  last_error_message, last_request_id, created_at, updated_at, resolved_at, confirmed_unit_price_fen, guard_unit_price_fen,
  unavailable_reason, withdraw_requested_at, recharged_entries_sealed, parked_from, request_ids_json`;

export const orderServerFailuresMigration: Migration = {
  id: 22,
  name: 'order-server-failures',
  rebuildsReferencedTables: true,
  sql: `
CREATE TABLE order_intents_0022 (
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
                      'price_changed', 'unavailable', 'withdrawing', 'needs_key', 'account_suspended', 'access_denied',
                      'needs_template', 'merchant_failing')),
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
  parked_from TEXT CHECK (parked_from IS NULL OR parked_from IN ('queued', 'unknown')),
  request_ids_json TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(request_ids_json) AND json_type(request_ids_json) = 'array'),
  server_failures INTEGER NOT NULL DEFAULT 0 CHECK (server_failures >= 0),
  CHECK (status <> 'price_changed' OR guard_unit_price_fen IS NOT NULL),
  CHECK (status <> 'unavailable' OR unavailable_reason IS NOT NULL),
  CHECK ((status IN ('needs_key', 'account_suspended', 'access_denied')) = (parked_from IS NOT NULL)),
  CHECK (status <> 'needs_template' OR (purchase_schema_revision IS NULL AND attempts = 0 AND confirmed_unit_price_fen IS NOT NULL)),
  CHECK (status <> 'merchant_failing' OR (server_failures > 0 AND next_attempt_at IS NULL))
) STRICT;
INSERT INTO order_intents_0022 (${COLUMNS}) SELECT ${COLUMNS} FROM order_intents;
DROP TABLE order_intents;
ALTER TABLE order_intents_0022 RENAME TO order_intents;
CREATE INDEX order_intents_outbox ON order_intents (next_attempt_at, created_at)
  WHERE status IN ('queued', 'sending', 'unknown', 'withdrawing', 'needs_template');
CREATE INDEX order_intents_batch ON order_intents (batch_id) WHERE batch_id IS NOT NULL;
CREATE INDEX order_intents_created ON order_intents (created_at);
CREATE INDEX order_intents_access_parked ON order_intents (status)
  WHERE status IN ('needs_key', 'account_suspended', 'access_denied');
CREATE INDEX order_intents_merchant_failing ON order_intents (status) WHERE status = 'merchant_failing';
`,
};
