// 0017 order intents that wait for their purchase template (contract §7.10).
//
// Why it looks like this:
// - order_intents is rebuilt (SQLite cannot change a CHECK in place, as in 0010 and 0012) to admit one
//   more status, needs_template: the buyer placed an order while the merchant could not be reached and
//   no trusted template was cached. It holds what the buyer confirmed (units, unit price, the entries
//   the form could give) under its clientOrderRef, written before anything is sent, like every intent.
//   It is NEVER sent as it is: when the merchant answers again the outbox fetches the template and
//   moves it to queued (units and entries valid, the revision stored) or needs_confirmation (the buyer
//   gives what the template asks). So a needs_template row has no revision yet, and a CHECK says so:
//   nothing can send it with a guessed one.
// - next_attempt_at of a needs_template row is when the outbox next tries to fetch its template; the
//   outbox index covers the status so the worker finds it without a scan.
import type { Migration } from '../migration';

const COLUMNS = `client_order_ref, batch_id, product_ref, variant_ref, product_type, units, purchase_schema_revision,
  purchase_entries_json, order_callback_url, image_url, status, attempts, last_attempt_at, next_attempt_at, last_error_code,
  last_error_message, last_request_id, created_at, updated_at, resolved_at, confirmed_unit_price_fen, guard_unit_price_fen,
  unavailable_reason, withdraw_requested_at, recharged_entries_sealed, parked_from, request_ids_json`;

export const orderNeedsTemplateMigration: Migration = {
  id: 17,
  name: 'order-needs-template',
  rebuildsReferencedTables: true,
  sql: `
CREATE TABLE order_intents_0017 (
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
                      'needs_template')),
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
  CHECK (status <> 'price_changed' OR guard_unit_price_fen IS NOT NULL),
  CHECK (status <> 'unavailable' OR unavailable_reason IS NOT NULL),
  CHECK ((status IN ('needs_key', 'account_suspended', 'access_denied')) = (parked_from IS NOT NULL)),
  CHECK (status <> 'needs_template' OR (purchase_schema_revision IS NULL AND attempts = 0 AND confirmed_unit_price_fen IS NOT NULL))
) STRICT;
INSERT INTO order_intents_0017 (${COLUMNS}) SELECT ${COLUMNS} FROM order_intents;
DROP TABLE order_intents;
ALTER TABLE order_intents_0017 RENAME TO order_intents;
CREATE INDEX order_intents_outbox ON order_intents (next_attempt_at, created_at)
  WHERE status IN ('queued', 'sending', 'unknown', 'withdrawing', 'needs_template');
CREATE INDEX order_intents_batch ON order_intents (batch_id) WHERE batch_id IS NOT NULL;
CREATE INDEX order_intents_created ON order_intents (created_at);
CREATE INDEX order_intents_access_parked ON order_intents (status)
  WHERE status IN ('needs_key', 'account_suspended', 'access_denied');
`,
};
