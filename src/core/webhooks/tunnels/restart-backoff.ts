// Delays between restarts of a provider that went down: the app's one backoff (shared/backoff.ts),
// doubling from `initialMs` up to `maxMs` so a cloudflared that dies at once is not respawned in a
// tight loop, jittered so that several desktops behind one failure do not come back in step.
import { backoffMs } from '../../../shared/backoff';

export interface BackoffPolicy {
  readonly initialMs: number;
  readonly maxMs: number;
  /** A run that stayed up this long counts as healthy: the next failure starts from initialMs again. */
  readonly stableMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { initialMs: 1_000, maxMs: 60_000, stableMs: 60_000 };

/** Delay before restart number `attempt` (0-based) of a run of failures. */
export function backoffDelayMs(policy: BackoffPolicy, attempt: number, random: () => number = Math.random): number {
  return backoffMs({ baseMs: policy.initialMs, maxMs: policy.maxMs }, attempt + 1, random);
}
