// 0018 balance history: every balance GET /account answered, kept so the books can say what the
// balance was at the start and end of a day (reconciliation) and draw it over time (the dashboard).
//
// Why it looks like this:
// - One row per run of equal answers, not per answer: the worker probe may ask GET /account every few
//   seconds while the merchant struggles, and a row per answer would grow without telling anything new.
//   A row says "the balance was B from first_seen to last_seen, as far as the answers tell"; between
//   two rows the balance changed at some moment nobody saw (reconciliation treats it so).
// - Keyed by the merchant (base URL, user ID) and the account's ref: balances of another merchant or
//   account never mix with this one's, and they stay as history after a switch.
// - The request ID of the answer that opened the row, so a difference can be taken to the merchant.
import type { Migration } from '../migration';

export const balanceHistoryMigration: Migration = {
  id: 18,
  name: 'balance-history',
  sql: `
CREATE TABLE balance_history (
  id INTEGER PRIMARY KEY,
  base_url TEXT NOT NULL,
  user_id TEXT NOT NULL,
  account_ref INTEGER NOT NULL,
  currency TEXT NOT NULL,
  balance_fen INTEGER NOT NULL,
  first_seen_at_ms INTEGER NOT NULL,
  last_seen_at_ms INTEGER NOT NULL CHECK (last_seen_at_ms >= first_seen_at_ms),
  answers INTEGER NOT NULL DEFAULT 1 CHECK (answers >= 1),
  request_id TEXT
);
CREATE INDEX balance_history_by_merchant_time ON balance_history (base_url, user_id, first_seen_at_ms);
`,
};
