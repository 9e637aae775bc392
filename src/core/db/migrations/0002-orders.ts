// 0002 orders: order intents (the outbox), the merchant's orders as last seen, refunds and refund
// intents.
//
// Why it looks like this:
// - order_intents is written, with a freshly generated client_order_ref, in one transaction before
//   any request is sent; every retry and every recovery (GET /orders/{ref}) reuses that row, so an
//   intent can never get a second ref. Its status is OUR state machine, so a CHECK lists it:
//     queued → sending → accepted | rejected | unknown | needs_confirmation;  unknown → sending …;
//     queued | needs_confirmation → withdrawn (the user gave up before it was ever accepted).
//   'sending' found at start-up means "a request may have left": it is resolved like 'unknown'.
// - purchase_entries_json holds the top-up entries (phone numbers, game accounts; fields the
//   template may flag sensitive) in plain JSON because a resend after a crash must carry exactly
//   the same content for the merchant's idempotency check. They are account identifiers, not
//   credentials; they never go to a log, and the orders module may clear the column once the
//   outcome is final (accepted or rejected) since nothing is resent after that.
// - last_error_code is TEXT: a merchant code ("409101") or a local one ("TIMEOUT").
// - orders keeps the merchant's state and allowedActions raw (no CHECK): an unknown state stays
//   unknown, never success. Its key is the intent's key: every order the app tracks started as an
//   intent here. detail_json is the last authenticated detail WITHOUT card_list: card secrets only
//   live sealed in the vault (0003).
// - revision is the merchant's order revision; a trigger refuses to lower it so an old webhook
//   snapshot or a slow poll can never roll an order back.
// - refunds are recorded only from authenticated order details; refund_ref is the merchant's key,
//   client_refund_ref is unique but may be NULL (a refund not requested through this app).
// - refund_intents store client_refund_ref before the first send, like order intents; at most one
//   refund intent per order may be in flight, mirroring the merchant's "one pending refund" rule.
//   amount_fen NULL means "everything refundable" (the amount field left out), and stays NULL on
//   every resend so the content is identical.
// - The CHECK on orders.detail_json makes it impossible to store a detail that still carries
//   card_list, whatever code path writes it.
import type { Migration } from '../migration';

export const ordersMigration: Migration = {
  id: 2,
  name: 'orders',
  sql: `
CREATE TABLE order_intents (
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
    CHECK (status IN ('queued', 'sending', 'unknown', 'accepted', 'rejected', 'needs_confirmation', 'withdrawn')),
  attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  last_attempt_at INTEGER,
  next_attempt_at INTEGER,
  last_error_code TEXT,
  last_error_message TEXT,
  last_request_id TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  resolved_at INTEGER
) STRICT;
CREATE INDEX order_intents_outbox ON order_intents (next_attempt_at, created_at)
  WHERE status IN ('queued', 'sending', 'unknown');
CREATE INDEX order_intents_batch ON order_intents (batch_id) WHERE batch_id IS NOT NULL;
CREATE INDEX order_intents_created ON order_intents (created_at);

CREATE TABLE orders (
  client_order_ref TEXT PRIMARY KEY REFERENCES order_intents (client_order_ref) ON DELETE RESTRICT,
  platform_order_ref TEXT NOT NULL,
  product_ref INTEGER NOT NULL,
  variant_ref INTEGER NOT NULL,
  product_name TEXT,
  variant_title TEXT,
  product_type TEXT,
  units INTEGER NOT NULL,
  unit_price_fen INTEGER NOT NULL CHECK (unit_price_fen >= 0),
  total_fen INTEGER NOT NULL CHECK (total_fen >= 0),
  refunded_fen INTEGER NOT NULL DEFAULT 0 CHECK (refunded_fen >= 0),
  state TEXT NOT NULL,
  allowed_actions_json TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(allowed_actions_json)),
  revision INTEGER NOT NULL,
  failure_reason TEXT,
  verification_hint TEXT,
  entry_count INTEGER,
  order_callback_url TEXT,
  image_url TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  completed_at INTEGER,
  detail_json TEXT NOT NULL CHECK (json_valid(detail_json) AND coalesce(json_type(detail_json, '$.card_list'), 'null') = 'null'),
  fetched_at INTEGER NOT NULL,
  last_polled_at INTEGER,
  next_poll_at INTEGER,
  unchanged_polls INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE UNIQUE INDEX orders_platform_ref ON orders (platform_order_ref);
CREATE INDEX orders_created ON orders (created_at);
CREATE INDEX orders_state ON orders (state, created_at);
CREATE INDEX orders_next_poll ON orders (next_poll_at) WHERE next_poll_at IS NOT NULL;

CREATE TRIGGER orders_revision_never_decreases
BEFORE UPDATE OF revision ON orders
WHEN NEW.revision < OLD.revision
BEGIN
  SELECT RAISE(ABORT, 'stale order snapshot: revision may not decrease');
END;

CREATE TABLE refunds (
  refund_ref TEXT PRIMARY KEY,
  client_refund_ref TEXT UNIQUE,
  client_order_ref TEXT NOT NULL REFERENCES orders (client_order_ref) ON DELETE CASCADE,
  amount_fen INTEGER NOT NULL CHECK (amount_fen > 0),
  state TEXT NOT NULL,
  reason TEXT,
  merchant_note TEXT,
  created_at INTEGER NOT NULL,
  resolved_at INTEGER,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX refunds_order ON refunds (client_order_ref);

CREATE TABLE refund_intents (
  client_refund_ref TEXT PRIMARY KEY
    CHECK (length(client_refund_ref) BETWEEN 1 AND 64 AND client_refund_ref NOT GLOB '*[^A-Za-z0-9_-]*'),
  client_order_ref TEXT NOT NULL REFERENCES orders (client_order_ref) ON DELETE CASCADE,
  amount_fen INTEGER CHECK (amount_fen > 0),
  reason TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'queued'
    CHECK (status IN ('queued', 'sending', 'unknown', 'accepted', 'rejected', 'withdrawn')),
  attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  last_attempt_at INTEGER,
  next_attempt_at INTEGER,
  last_error_code TEXT,
  last_error_message TEXT,
  last_request_id TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  resolved_at INTEGER
) STRICT;
CREATE UNIQUE INDEX refund_intents_one_in_flight ON refund_intents (client_order_ref)
  WHERE status IN ('queued', 'sending', 'unknown');
`,
};
