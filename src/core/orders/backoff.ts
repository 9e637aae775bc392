// Waits between the outbox's attempts and the tracker's polls: exponential, capped, with jitter so
// that hundreds of intents failed by one outage do not all come back in the same second.

export interface BackoffRule {
  /** Wait after the first failure (ms of the core clock). */
  readonly baseMs: number;
  readonly maxMs: number;
}

/** Full jitter over the upper half: between cap/2 and cap, cap = min(max, base * 2^(n-1)). */
export function backoffMs(rule: BackoffRule, failures: number, random: () => number = Math.random): number {
  const exponent = Math.max(0, Math.min(30, failures - 1));
  const cap = Math.min(rule.maxMs, rule.baseMs * 2 ** exponent);
  return Math.round(cap / 2 + random() * (cap / 2));
}
