// The one backoff of the app: waits that double after each failure up to a cap, with jitter so that
// many waiters failed by one outage (hundreds of order intents, every tab of a restarted web host)
// do not all come back in the same second. Core's outboxes and workers, the request sender's retries
// (interface v1 §7.5: growing, jittered) and the renderer's reconnection all compute their waits here; the
// polls that must not drift (their interval is what interface v1 §7.5 asks for) use the ceiling alone.

export interface BackoffRule {
  /** Wait after the first failure (ms). */
  readonly baseMs: number;
  readonly maxMs: number;
}

/** Doubling stops here: 2^30 times any base is past every cap, and the number stays exact. */
const MAX_EXPONENT = 30;

/** The ceiling after `failures` consecutive failures: min(max, base * 2^(failures-1)); base for 0 or 1. */
export function backoffCeilingMs(rule: BackoffRule, failures: number): number {
  const exponent = Math.max(0, Math.min(MAX_EXPONENT, failures - 1));
  return Math.min(rule.maxMs, rule.baseMs * 2 ** exponent);
}

/** Jitter over the upper half of the ceiling: between ceiling/2 and the ceiling, whole ms. */
export function backoffMs(rule: BackoffRule, failures: number, random: () => number = Math.random): number {
  const cap = backoffCeilingMs(rule, failures);
  return Math.round(cap / 2 + random() * (cap / 2));
}
