// The merchant's "not before" times (Retry-After on a 429 or 503), per quota group, in SQLite (0013),
// so that every process on this data folder obeys a wait one of them was told: the app, `cli run`, a
// command, and a process restarted after the answer. `total` holds back every group (contract §8.1:
// a 429 whose X-RateLimit-Limit is the account's total).
import type { Database } from 'better-sqlite3';
import type { QuotaGroup } from '../../shared/merchant-quotas';

export type NotBeforeScope = QuotaGroup | 'total';

export interface NotBeforeHold {
  readonly scope: NotBeforeScope;
  /** Client-clock Unix milliseconds. */
  readonly untilMs: number;
  readonly requestId: string | null;
}

export interface NotBeforeStore {
  /** The latest hold on `group` (its own or the total's) still in force at `nowMs`; null when free. */
  holdOn(group: QuotaGroup, nowMs: number): NotBeforeHold | null;
  /** Records a hold; an earlier hold of the same scope never shortens a later one already stored. */
  hold(scope: NotBeforeScope, untilMs: number, requestId: string | null, nowMs: number): void;
  /** The latest hold in force on any of `groups`, for a worker that uses several. */
  latestOn(groups: readonly QuotaGroup[], nowMs: number): NotBeforeHold | null;
  /** Another merchant account: its waits do not apply. */
  clear(): void;
}

export function createNotBeforeStore(db: Database): NotBeforeStore {
  const read = db.prepare<[string, string, number], { scope: string; not_before_ms: number; request_id: string | null }>(
    `SELECT scope, not_before_ms, request_id FROM merchant_not_before
     WHERE scope IN (?, ?) AND not_before_ms > ? ORDER BY not_before_ms DESC LIMIT 1`,
  );
  const write = db.prepare<[string, number, string | null, number]>(
    `INSERT INTO merchant_not_before (scope, not_before_ms, request_id, set_at_ms) VALUES (?, ?, ?, ?)
     ON CONFLICT (scope) DO UPDATE SET not_before_ms = excluded.not_before_ms, request_id = excluded.request_id, set_at_ms = excluded.set_at_ms
     WHERE excluded.not_before_ms > merchant_not_before.not_before_ms`,
  );
  const clear = db.prepare('DELETE FROM merchant_not_before');

  const holdOn = (group: QuotaGroup, nowMs: number): NotBeforeHold | null => {
    const row = read.get(group, 'total', Math.floor(nowMs));
    return row === undefined ? null : { scope: row.scope as NotBeforeScope, untilMs: row.not_before_ms, requestId: row.request_id };
  };

  return {
    holdOn,
    hold(scope, untilMs, requestId, nowMs) {
      write.run(scope, Math.ceil(untilMs), requestId, Math.floor(nowMs));
    },
    latestOn(groups, nowMs) {
      let latest: NotBeforeHold | null = null;
      for (const group of groups) {
        const hold = holdOn(group, nowMs);
        if (hold !== null && (latest === null || hold.untilMs > latest.untilMs)) latest = hold;
      }
      return latest;
    },
    clear() {
      clear.run();
    },
  };
}
