// Delays between restarts of a provider that went down: doubling from `initialMs` up to `maxMs`, so
// a cloudflared that dies at once is not respawned in a tight loop, with some jitter so that several
// desktops behind one failure do not come back in step.
export interface BackoffPolicy {
  readonly initialMs: number;
  readonly maxMs: number;
  /** A run that stayed up this long counts as healthy: the next failure starts from initialMs again. */
  readonly stableMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { initialMs: 1_000, maxMs: 60_000, stableMs: 60_000 };

/** Delay before restart number `attempt` (0-based) of a run of failures. */
export function backoffDelayMs(policy: BackoffPolicy, attempt: number, random: () => number = Math.random): number {
  const base = Math.min(policy.maxMs, policy.initialMs * 2 ** Math.min(attempt, 30));
  // ±20 %, never above the cap.
  return Math.min(policy.maxMs, Math.round(base * (0.8 + 0.4 * random())));
}
