// 0011 order state history: every merchant state an order was seen in, by the order's revision, so
// the timeline shows the states the order actually passed through in the merchant's order — not a
// "completed" made up from completedAt (which the merchant also sets for failed and cancelled) beside
// the last state.
//
// Why it looks like this:
// - One row per (order, revision) where the state differs from the state of the previous recorded
//   revision: a poll that only moved allowedActions or a refund adds nothing. States we never saw (a
//   poll that slept through `processing`) are absent; the timeline shows what is known, never guesses.
// - `at` is the merchant's updatedAt of that revision (its clock, its order); `seen_at` is ours.
// - The state is raw TEXT (no list of values): an unknown state is history too, shown as unknown;
//   nothing here can refuse what the orders row itself accepted, so recording never fails an apply.
// - Existing orders get one row: their current state, as last seen.
import type { Migration } from '../migration';

export const orderStateHistoryMigration: Migration = {
  id: 11,
  name: 'order-state-history',
  sql: `
CREATE TABLE order_state_history (
  client_order_ref TEXT NOT NULL REFERENCES orders (client_order_ref) ON DELETE CASCADE,
  revision INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (length(state) <= 64),
  at INTEGER NOT NULL,
  seen_at INTEGER NOT NULL,
  PRIMARY KEY (client_order_ref, revision)
) STRICT;
INSERT INTO order_state_history (client_order_ref, revision, state, at, seen_at)
  SELECT client_order_ref, revision, substr(state, 1, 64), updated_at, fetched_at FROM orders;
`,
};
