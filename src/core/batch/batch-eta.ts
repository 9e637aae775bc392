// How long the rest of a batch takes to send (contract §13.4): the quota decides the pace, not the
// app. Sends are the buyer's own (interactive) requests of the orderCreate group: at most
// GROUP_QUOTAS.orderCreate.perMinute creates in any 60 s and its burst in any second (spec §8). What
// fits in the minute's free slots goes at the burst pace; every further minute's worth waits one more
// window, the first until the oldest create of this window ages out. Like sync-eta.ts, the larger of
// this bound and the pace measured so far (a slow merchant is slower than its quota), in merchant time.
import { BURST_WINDOW_MS, GROUP_QUOTAS, MINUTE_WINDOW_MS } from '../../shared/merchant-quotas';

const PER_MINUTE = GROUP_QUOTAS.orderCreate.perMinute;
const BURST = GROUP_QUOTAS.orderCreate.burst ?? PER_MINUTE;

/** The least time the quota lets `remaining` creates take, given the creates answered in the last minute (ms, oldest first). */
export function batchQuotaBoundMs(nowMs: number, recentMs: readonly number[], remaining: number): number {
  if (remaining <= 0) return 0;
  const inWindow = recentMs.filter((at) => at > nowMs - MINUTE_WINDOW_MS);
  const free = Math.max(0, PER_MINUTE - inWindow.length);
  const burstMs = (count: number): number => Math.max(0, Math.ceil(count / BURST) - 1) * BURST_WINDOW_MS;
  if (remaining <= free) return burstMs(remaining);
  const rest = remaining - free;
  const windows = Math.ceil(rest / PER_MINUTE);
  const untilFirstFrees = Math.max(0, (inWindow[0] ?? nowMs) + MINUTE_WINDOW_MS - nowMs);
  const byWindows = untilFirstFrees + (windows - 1) * MINUTE_WINDOW_MS + burstMs(rest - (windows - 1) * PER_MINUTE);
  // The burst holds too: a slot freeing soon does not let the free ones before it go faster than the
  // burst pace (119 free, the 120th's slot freeing in 8 s: the 119 alone take 11 s).
  return Math.max(byWindows, burstMs(remaining));
}

/**
 * Ms until `remaining` rows are sent, or null when nothing is left to send. `answeredMs` are the
 * batch's create attempts so far (merchant time, ms, any order).
 */
export function batchEtaMs(nowMs: number, answeredMs: readonly number[], remaining: number): number | null {
  if (remaining <= 0) return null;
  const sorted = [...answeredMs].sort((a, b) => a - b);
  const bound = batchQuotaBoundMs(nowMs, sorted, remaining);
  const recent = sorted.filter((at) => at > nowMs - MINUTE_WINDOW_MS);
  const first = recent[0];
  const last = recent[recent.length - 1];
  if (recent.length < 10 || first === undefined || last === undefined || last === first) return bound;
  const paceMs = (last - first) / (recent.length - 1);
  return Math.round(Math.max(bound, remaining * paceMs));
}
