// 0012 order intents parked by the merchant's refusals, and every requestId of their attempts (contract §7.9).
//
// Why it looks like this:
// - order_intents is rebuilt (SQLite cannot change a CHECK in place, as in 0010) to admit three statuses
//   for an intent the merchant refused to talk about at all (interface v1 §7.5: 401/403 are never retried):
//     needs_key           401001 INVALID_CREDENTIAL: the key is revoked, reset or wrong. Sent again only
//                         after a key was entered and GET /account accepted it (connect).
//     account_suspended   403005 CREDENTIAL_SUSPENDED: sent again once GET /account answers an
//                         accessState other than `suspended`.
//     access_denied       403002 SOURCE_IP_DENIED, or a 403 with a code we do not know: sent again once
//                         GET /account answers at all (it is refused from a denied address too).
//   A refusal runs before any order rule (contract §0.1), so the merchant holds nothing from the refused
//   request; it may still hold an order from an earlier attempt whose outcome was unknown, so
//   parked_from says where the intent goes back to: 'queued' (the merchant holds nothing: withdrawable
//   at once) or 'unknown' (looked up by GET /orders/{ref} first; a withdraw makes it withdrawing).
//   The CHECK keeps the three together: a parked row always knows where it returns.
// - request_ids_json: the requestId of every attempt of every call made for the intent, oldest first
//   (interface v1 §7.5 "500: keep requestId"; the sender tries a 500 three times), shown on the order's detail
//   for support. last_request_id stays the latest one. Rows written before start with the one they had.
import type { Migration } from '../migration';

const COLUMNS = `client_order_ref, batch_id, product_ref, variant_ref, product_type, units, purchase_schema_revision,
  purchase_entries_json, order_callback_url, image_url, status, attempts, last_attempt_at, next_attempt_at, last_error_code,
  last_error_message, last_request_id, created_at, updated_at, resolved_at, confirmed_unit_price_fen, guard_unit_price_fen,
  unavailable_reason, withdraw_requested_at, recharged_entries_sealed`;

export const orderAccessParksMigration: Migration = {
  id: 12,
  name: 'order-access-parks',
  rebuildsReferencedTables: true,
  sql: `
CREATE TABLE order_intents_0012 (
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
                      'price_changed', 'unavailable', 'withdrawing', 'needs_key', 'account_suspended', 'access_denied')),
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
  CHECK ((status IN ('needs_key', 'account_suspended', 'access_denied')) = (parked_from IS NOT NULL))
) STRICT;
INSERT INTO order_intents_0012 (${COLUMNS}, request_ids_json)
  SELECT ${COLUMNS}, CASE WHEN last_request_id IS NULL THEN '[]' ELSE json_array(last_request_id) END FROM order_intents;
DROP TABLE order_intents;
ALTER TABLE order_intents_0012 RENAME TO order_intents;
CREATE INDEX order_intents_outbox ON order_intents (next_attempt_at, created_at)
  WHERE status IN ('queued', 'sending', 'unknown', 'withdrawing');
CREATE INDEX order_intents_batch ON order_intents (batch_id) WHERE batch_id IS NOT NULL;
CREATE INDEX order_intents_created ON order_intents (created_at);
CREATE INDEX order_intents_access_parked ON order_intents (status)
  WHERE status IN ('needs_key', 'account_suspended', 'access_denied');
`,
};
