// 0015 catalog sync outcome: the last successful sync's time, kept through failures and new runs, and
// why the last run did not finish as data instead of an English sentence.
//
// Why it looks like this:
// - last_success_at is its own column: finished_at belongs to the run in the row and is cleared when
//   the next run starts, so "last synced 21:21" became "never synced" after a failed run (issue 14).
//   Backfilled from a finished run.
// - The failure is columns, not text: kind (merchant code, transport reason, paging anomaly, the
//   merchant's not-before time, a malformed answer, other), the code or reason, the requestId and the
//   time. The screen puts them in the buyer's language. last_error (English, for the log) is dropped;
//   a run that had failed keeps that it failed, as kind other.
import type { Migration } from '../migration';

export const catalogSyncOutcomeMigration: Migration = {
  id: 15,
  name: 'catalog-sync-outcome',
  sql: `
ALTER TABLE catalog_sync_state ADD COLUMN last_success_at INTEGER;
ALTER TABLE catalog_sync_state ADD COLUMN failure_kind TEXT
  CHECK (failure_kind IS NULL OR failure_kind IN ('merchant', 'transport', 'paging', 'notBefore', 'malformed', 'other'));
ALTER TABLE catalog_sync_state ADD COLUMN failure_code INTEGER;
ALTER TABLE catalog_sync_state ADD COLUMN failure_transport TEXT;
ALTER TABLE catalog_sync_state ADD COLUMN failure_request_id TEXT;
ALTER TABLE catalog_sync_state ADD COLUMN failure_not_before INTEGER;
ALTER TABLE catalog_sync_state ADD COLUMN failure_at INTEGER;
UPDATE catalog_sync_state SET last_success_at = finished_at WHERE phase = 'done' AND finished_at IS NOT NULL;
UPDATE catalog_sync_state SET failure_kind = 'other', failure_at = updated_at WHERE last_error IS NOT NULL;
ALTER TABLE catalog_sync_state DROP COLUMN last_error;
`,
};
