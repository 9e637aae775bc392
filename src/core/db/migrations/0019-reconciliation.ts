// 0019 reconciliation: a run's progress through the merchant's order list, what it read, its report,
// and the foreign orders the buyer recorded (contract §12.2).
//
// Why it looks like this:
// - reconcile_runs is one row per run of one merchant (base URL, user ID) over one range. next_page and
//   the first page's total are written in the same transaction as the page's items, so a crash or the
//   merchant going away resumes at the next page, and a page whose answer was stored is never read
//   again. created_to is the list's upper bound fixed when the run began (the range's end, or the
//   start of the run when the range ends later): orders placed while the run pages are outside it, so
//   they cannot push the list's items onto later pages (the next run sees them).
// - reconcile_items holds each listed order as the list told it (the order object without card_list,
//   CHECKed like orders.detail_json): the compare runs over them at the end, resumed or not. The key is
//   (run, clientOrderRef): an order listed twice is kept once, with its highest revision.
// - report_json is the finished run's report (no card secret can be in it: it is built from counts and
//   the list's items); the screen and the CLI show the latest finished run.
// - foreign_orders: an order placed elsewhere with the same account, recorded read-only from an
//   authenticated GET /orders/{ref} (never from the list alone). It is not an order_intents row, so
//   nothing in the app (outbox, tracker, actions, after-sales) can act on it as the app's own; the
//   books count its charge and refunds. detail_json carries no card_list, as for orders.
import type { Migration } from '../migration';

export const reconciliationMigration: Migration = {
  id: 19,
  name: 'reconciliation',
  sql: `
CREATE TABLE reconcile_runs (
  id INTEGER PRIMARY KEY,
  base_url TEXT NOT NULL,
  user_id TEXT NOT NULL,
  from_day TEXT NOT NULL CHECK (from_day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
  to_day TEXT NOT NULL CHECK (to_day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' AND to_day >= from_day),
  created_from INTEGER NOT NULL,
  created_to INTEGER NOT NULL CHECK (created_to >= created_from - 1),
  page_size INTEGER NOT NULL CHECK (page_size BETWEEN 1 AND 100),
  next_page INTEGER NOT NULL DEFAULT 1 CHECK (next_page >= 1),
  first_total INTEGER CHECK (first_total IS NULL OR first_total >= 0),
  pages_read INTEGER NOT NULL DEFAULT 0 CHECK (pages_read >= 0),
  requests INTEGER NOT NULL DEFAULT 0 CHECK (requests >= 0),
  status TEXT NOT NULL DEFAULT 'paging' CHECK (status IN ('paging', 'finished', 'abandoned')),
  last_error TEXT,
  started_at_ms INTEGER NOT NULL,
  finished_at_ms INTEGER,
  report_json TEXT CHECK (report_json IS NULL OR json_valid(report_json)),
  CHECK ((status = 'finished') = (report_json IS NOT NULL))
) STRICT;
CREATE INDEX reconcile_runs_by_merchant ON reconcile_runs (base_url, user_id, status, id);

CREATE TABLE reconcile_items (
  run_id INTEGER NOT NULL REFERENCES reconcile_runs (id) ON DELETE CASCADE,
  client_order_ref TEXT NOT NULL,
  revision INTEGER NOT NULL,
  page INTEGER NOT NULL CHECK (page >= 1),
  item_json TEXT NOT NULL CHECK (json_valid(item_json) AND coalesce(json_type(item_json, '$.card_list'), 'null') = 'null'),
  PRIMARY KEY (run_id, client_order_ref)
) STRICT;

CREATE TABLE foreign_orders (
  base_url TEXT NOT NULL,
  user_id TEXT NOT NULL,
  client_order_ref TEXT NOT NULL,
  platform_order_ref TEXT NOT NULL,
  product_name TEXT,
  units INTEGER NOT NULL,
  total_fen INTEGER NOT NULL CHECK (total_fen >= 0),
  refunded_fen INTEGER NOT NULL DEFAULT 0 CHECK (refunded_fen >= 0),
  state TEXT NOT NULL,
  revision INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  completed_at INTEGER,
  detail_json TEXT NOT NULL CHECK (json_valid(detail_json) AND coalesce(json_type(detail_json, '$.card_list'), 'null') = 'null'),
  recorded_at_ms INTEGER NOT NULL,
  request_id TEXT,
  PRIMARY KEY (base_url, user_id, client_order_ref)
) STRICT;
CREATE INDEX foreign_orders_created ON foreign_orders (base_url, user_id, created_at);
`,
};
