// A reconciliation run's durable progress (reconcile_runs, reconcile_items; migration 0019): where the
// paging stands, what the list said, and the finished report. A page's items and the next page number
// are written in one transaction, so a crash resumes at the page after the last one stored.
import type { Database } from 'better-sqlite3';
import type { ReconcileReport } from '../../shared/ipc/views/reconcile';
import { reconcileReportSchema } from '../../shared/ipc/views/reconcile';
import type { BalanceOwner } from './balance-history';
import type { MerchantOrderFacts } from './reconcile-compare';
import type { ReconcileRange } from './reconcile-range';

export interface ReconcileRun {
  readonly id: number;
  readonly fromDay: string;
  readonly toDay: string;
  readonly createdFrom: number;
  /** The list's fixed upper bound (range end, or the run's start when the range ends later). */
  readonly createdTo: number;
  readonly pageSize: number;
  readonly nextPage: number;
  readonly firstTotal: number | null;
  readonly pagesRead: number;
  readonly requests: number;
  readonly status: 'paging' | 'finished' | 'abandoned';
  readonly startedAtMs: number;
}

interface RunRow {
  id: number;
  from_day: string;
  to_day: string;
  created_from: number;
  created_to: number;
  page_size: number;
  next_page: number;
  first_total: number | null;
  pages_read: number;
  requests: number;
  status: 'paging' | 'finished' | 'abandoned';
  started_at_ms: number;
}

const toRun = (r: RunRow): ReconcileRun => ({
  id: r.id,
  fromDay: r.from_day,
  toDay: r.to_day,
  createdFrom: r.created_from,
  createdTo: r.created_to,
  pageSize: r.page_size,
  nextPage: r.next_page,
  firstTotal: r.first_total,
  pagesRead: r.pages_read,
  requests: r.requests,
  status: r.status,
  startedAtMs: r.started_at_ms,
});

const RUN_COLUMNS = 'id, from_day, to_day, created_from, created_to, page_size, next_page, first_total, pages_read, requests, status, started_at_ms';

export interface ReconcileRunStore {
  /** The unfinished run of this range, to resume; null when there is none. */
  unfinished(range: ReconcileRange): ReconcileRun | null;
  /** A new run; an unfinished run of another range is abandoned (one run pages at a time). */
  begin(range: ReconcileRange, createdTo: number, pageSize: number, nowMs: number): ReconcileRun;
  get(id: number): ReconcileRun;
  /** Stores one page: its items (an order listed twice kept once, at its highest revision), the next page, the totals. */
  storePage(id: number, page: number, items: readonly MerchantOrderFacts[], total: number, pageSize: number): void;
  /** The listing shrank while it was paged: the run lists again from page 1 (items dropped). */
  restart(id: number): void;
  /** One more request of this run (a look-up). */
  countRequest(id: number): void;
  items(id: number): MerchantOrderFacts[];
  finish(id: number, report: ReconcileReport, nowMs: number): void;
  fail(id: number, message: string): void;
  /** The latest finished report of this merchant, or null. */
  latestReport(): ReconcileReport | null;
}

export function createReconcileRunStore(db: Database, owner: BalanceOwner): ReconcileRunStore {
  const get = (id: number): ReconcileRun => {
    const row = db.prepare<[number], RunRow>(`SELECT ${RUN_COLUMNS} FROM reconcile_runs WHERE id = ?`).get(id);
    if (row === undefined) throw new Error(`no reconciliation run ${id}`);
    return toRun(row);
  };
  const upsertItem = db.prepare<[number, string, number, number, string]>(
    `INSERT INTO reconcile_items (run_id, client_order_ref, revision, page, item_json) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (run_id, client_order_ref) DO UPDATE SET revision = excluded.revision, page = excluded.page, item_json = excluded.item_json
     WHERE excluded.revision >= reconcile_items.revision`,
  );
  return {
    unfinished(range) {
      const row = db
        .prepare<[string, string, string, string], RunRow>(`SELECT ${RUN_COLUMNS} FROM reconcile_runs WHERE base_url = ? AND user_id = ? AND from_day = ? AND to_day = ? AND status = 'paging' ORDER BY id DESC LIMIT 1`)
        .get(owner.baseUrl, owner.userId, range.fromDay, range.toDay);
      return row === undefined ? null : toRun(row);
    },
    begin(range, createdTo, pageSize, nowMs) {
      return db.transaction(() => {
        db.prepare("UPDATE reconcile_runs SET status = 'abandoned' WHERE base_url = ? AND user_id = ? AND status = 'paging'").run(owner.baseUrl, owner.userId);
        const info = db
          .prepare('INSERT INTO reconcile_runs (base_url, user_id, from_day, to_day, created_from, created_to, page_size, started_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
          .run(owner.baseUrl, owner.userId, range.fromDay, range.toDay, range.createdFrom, createdTo, pageSize, nowMs);
        // Abandoned runs keep their row (for the history), not their items.
        db.prepare("DELETE FROM reconcile_items WHERE run_id IN (SELECT id FROM reconcile_runs WHERE status = 'abandoned')").run();
        return get(Number(info.lastInsertRowid));
      })();
    },
    get,
    storePage(id, page, items, total, pageSize) {
      db.transaction(() => {
        for (const item of items) upsertItem.run(id, item.clientOrderRef, item.revision, page, JSON.stringify(item));
        db.prepare('UPDATE reconcile_runs SET next_page = ?, first_total = coalesce(first_total, ?), page_size = ?, pages_read = pages_read + 1, requests = requests + 1 WHERE id = ?').run(page + 1, total, pageSize, id);
      })();
    },
    restart(id) {
      db.transaction(() => {
        db.prepare('DELETE FROM reconcile_items WHERE run_id = ?').run(id);
        db.prepare('UPDATE reconcile_runs SET next_page = 1, first_total = NULL WHERE id = ?').run(id);
      })();
    },
    countRequest(id) {
      db.prepare('UPDATE reconcile_runs SET requests = requests + 1 WHERE id = ?').run(id);
    },
    items(id) {
      return db
        .prepare<[number], { item_json: string }>('SELECT item_json FROM reconcile_items WHERE run_id = ? ORDER BY page, client_order_ref')
        .all(id)
        .map((r) => JSON.parse(r.item_json) as MerchantOrderFacts);
    },
    finish(id, report, nowMs) {
      db.prepare("UPDATE reconcile_runs SET status = 'finished', finished_at_ms = ?, report_json = ?, last_error = NULL WHERE id = ?").run(nowMs, JSON.stringify(report), id);
    },
    fail(id, message) {
      db.prepare('UPDATE reconcile_runs SET last_error = ? WHERE id = ?').run(message, id);
    },
    latestReport() {
      const row = db
        .prepare<[string, string], { report_json: string }>("SELECT report_json FROM reconcile_runs WHERE base_url = ? AND user_id = ? AND status = 'finished' ORDER BY finished_at_ms DESC, id DESC LIMIT 1")
        .get(owner.baseUrl, owner.userId);
      if (row === undefined) return null;
      const parsed = reconcileReportSchema.safeParse(JSON.parse(row.report_json));
      return parsed.success ? parsed.data : null;
    },
  };
}
