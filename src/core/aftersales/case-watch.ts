// Notices what changed in the after-sales tables so the UI can be told, whoever wrote it: the
// webhook inbox (aftersale.message.created), a poll, a refresh, the outbox, a read. A cheap
// fingerprint per case (state, updatedAt, actions, message count, outbox statuses, read position)
// is compared scan to scan (the first scan is the baseline), and every message from the merchant's
// side past the case's notified position is reported once: the position is stored with the report,
// so neither a second scan, a second writer nor a restart reports it again. Messages the buyer has
// already read (the chat was open) are marked without being reported.
import { periodicScan, type PeriodicScan } from '../platform/periodic-scan';
import type { Database } from 'better-sqlite3';
import type { Logger } from '../logging/logger';
import { markNotified, unnotifiedMessages, type UnnotifiedMessage } from './tracking-store';

export interface CaseWatchOptions {
  readonly db: Database;
  readonly logger: Logger;
  /** Real milliseconds between scans; default 500. */
  readonly intervalMs?: number;
  readonly onCases: (platformCaseRefs: readonly string[]) => void;
  readonly onMerchantMessages: (messages: readonly UnnotifiedMessage[]) => void;
}

const CASE_SCAN = `
  SELECT c.platform_case_ref AS ref,
    c.state || '|' || c.updated_at || '|' || c.allowed_actions_json || '|' ||
    (SELECT count(*) FROM aftersale_messages m WHERE m.platform_case_ref = c.platform_case_ref) || '|' ||
    (SELECT coalesce(group_concat(o.status || ':' || o.attempts, ','), '') FROM aftersale_outbox o WHERE o.platform_case_ref = c.platform_case_ref) || '|' ||
    coalesce(t.read_position, -1) AS sig
  FROM aftersale_cases c LEFT JOIN aftersale_tracking t ON t.platform_case_ref = c.platform_case_ref`;

/** Pushes case changes and new merchant messages: a periodic scan of the stored cases (start, stop, poke). */
export type CaseWatch = PeriodicScan;

export function createCaseWatch(options: CaseWatchOptions): CaseWatch {
  const { db, logger } = options;
  const caseScan = db.prepare<[], { ref: string; sig: string }>(CASE_SCAN);
  const seen = new Map<string, string>();
  let baseline = true;

  const takeUnnotified = db.transaction((): UnnotifiedMessage[] => {
    const messages = unnotifiedMessages(db);
    const last = new Map<string, number>();
    for (const m of messages) last.set(m.platformCaseRef, Math.max(last.get(m.platformCaseRef) ?? -1, m.position));
    for (const [ref, position] of last) markNotified(db, ref, position);
    return messages.filter((m) => !m.alreadyRead);
  });

  const scan = (): void => {
    try {
      const changed: string[] = [];
      for (const row of caseScan.all()) {
        const before = seen.get(row.ref);
        seen.set(row.ref, row.sig);
        if (!baseline && before !== row.sig) changed.push(row.ref);
      }
      baseline = false;
      // Stored first, reported after: a crash in between loses a notification, never repeats one.
      // The write lock is taken only when there is something to mark, so an idle scan never waits on it.
      const fresh = unnotifiedMessages(db).length > 0 ? takeUnnotified.immediate() : [];
      if (changed.length > 0) options.onCases(changed);
      if (fresh.length > 0) options.onMerchantMessages(fresh);
    } catch (error) {
      logger.warn('after-sales scan failed', { error: error instanceof Error ? error.message : 'unknown' });
    }
  };

  return periodicScan(scan, options.intervalMs ?? 500);
}
