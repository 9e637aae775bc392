// How long the rest of the sync takes, only when that can be known: the remaining requests are known
// (or bounded), enough of them were answered to have a rate, and the catalog group's quota is counted.
//
// Why the quota (issue 14: "about 2 s left" for a minute): the first ~114 requests of a sync go at
// once, then the quota model holds the sync until the minute's window frees. A rate measured over that
// burst says seconds; the window says a minute. So the estimate is the larger of the measured pace and
// what the window allows: GROUP_QUOTAS.catalog per minute, less the slots background work leaves to
// the buyer. Requests the sync yields to the buyer (interactive ones go first) slow the measured pace
// once a window has passed, so they are counted there.
import { GROUP_QUOTAS, MINUTE_WINDOW_MS } from '../../shared/merchant-quotas';
import { backgroundReserveOf } from '../merchant/quota-model';

/** Fewer answers than this give no rate worth showing. */
export const ETA_MIN_SAMPLES = 10;

/** Requests a background sync may send in one quota window. */
export const SYNC_WINDOW_CAPACITY = GROUP_QUOTAS.catalog.perMinute - backgroundReserveOf(GROUP_QUOTAS.catalog.perMinute);

export interface EtaTracker {
  /** One request answered at `atMs` (client clock). */
  answered(atMs: number): void;
  /** Ms until `remaining` more requests are answered, or null when not known. */
  estimate(nowMs: number, remaining: number | null): number | null;
}

export function createEtaTracker(): EtaTracker {
  /** Answer times of the last window, oldest first. */
  const recent: number[] = [];
  let answers = 0;
  const prune = (nowMs: number): void => {
    while (recent.length > 0 && (recent[0] ?? 0) <= nowMs - MINUTE_WINDOW_MS) recent.shift();
  };
  return {
    answered(atMs) {
      answers += 1;
      recent.push(atMs);
      prune(atMs);
    },
    estimate(nowMs, remaining) {
      if (remaining === null) return null;
      if (remaining === 0) return 0;
      prune(nowMs);
      const first = recent[0];
      if (answers < ETA_MIN_SAMPLES || recent.length < 2 || first === undefined) return null;
      const paceMs = ((recent[recent.length - 1] ?? first) - first) / (recent.length - 1);
      return Math.round(Math.max(remaining * paceMs, quotaBoundMs(nowMs, recent, remaining)));
    },
  };
}

/**
 * The least time the window lets `remaining` requests take: what still fits in the current window goes
 * now, every further `SYNC_WINDOW_CAPACITY` waits one more window, the first of them until the oldest
 * answer of this window ages out.
 */
export function quotaBoundMs(nowMs: number, recent: readonly number[], remaining: number): number {
  const free = Math.max(0, SYNC_WINDOW_CAPACITY - recent.length);
  if (remaining <= free) return 0;
  const windows = Math.ceil((remaining - free) / SYNC_WINDOW_CAPACITY);
  const untilFirstFrees = Math.max(0, (recent[0] ?? nowMs) + MINUTE_WINDOW_MS - nowMs);
  return untilFirstFrees + (windows - 1) * MINUTE_WINDOW_MS;
}
