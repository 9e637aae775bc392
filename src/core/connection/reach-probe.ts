// While the merchant cannot be reached (offline, a certificate failure) or struggles (degraded), the
// background workers stop sending and ONE probe (GET /account) asks now and then whether it is back,
// waiting longer after each failed try (shared/backoff.ts) and never before a Retry-After the merchant
// gave. Its answer moves the connection state machine like any other; once that says "online" the
// workers resume by themselves (worker-pause.ts reads nextProbeAtMs). The buyer's own requests are
// not held: each one is an answer too, and a success ends the pause at once. A merchant that is only
// slow holds nothing back (holdsBackWork): its answers still come. While a window shows the state,
// the health watch (health-watch.ts) caps the wait so that the header learns of the return soon.
import { backoffMs, type BackoffRule } from '../../shared/backoff';
import type { Clock } from '../platform/clock';
import { createSingleFlight } from '../platform/single-flight';
import { holdsBackWork, type ConnectionStateMachine } from './connection-state';

/** From 2 s to 1 min between probes: a dropped network is noticed quickly, an outage is not hammered. */
export const REACH_PROBE_RULE: BackoffRule = { baseMs: 2_000, maxMs: 60_000 };

export interface ReachProbe {
  /** Client-clock ms of the next probe while the merchant is unreachable or struggling; null while it is not. */
  nextProbeAtMs(): number | null;
  /** Runs `probe` when one is due (one at a time, whoever asks); failures are swallowed, the state says them. */
  probeIfDue(probe: () => Promise<unknown>): Promise<void>;
  /** The next probe no later than `maxMs` from now (never before a Retry-After): someone is watching. */
  capWait(maxMs: number): void;
}

export function createReachProbe(connection: ConnectionStateMachine, clock: Clock, rule: BackoffRule = REACH_PROBE_RULE): ReachProbe {
  let failures = 0;
  let nextAtMs = 0;
  const flight = createSingleFlight();
  const unreachable = (): boolean => holdsBackWork(connection.view());
  const schedule = (): void => {
    failures += 1;
    const retryAt = connection.view().retryAtMs ?? 0;
    nextAtMs = Math.max(clock.nowMs() + backoffMs(rule, failures), retryAt);
  };
  connection.onChange((view) => {
    if (!holdsBackWork(view)) {
      failures = 0;
      return;
    }
    // Entering the state (or a new Retry-After in it): the first probe after the first backoff.
    if (failures === 0 || (view.retryAtMs !== null && view.retryAtMs > nextAtMs)) schedule();
  });
  return {
    nextProbeAtMs: () => (unreachable() ? nextAtMs : null),
    async probeIfDue(probe) {
      if (!unreachable()) return;
      const inFlight = flight.running();
      if (inFlight !== null) return inFlight;
      if (clock.nowMs() < nextAtMs) return;
      await flight.run(probe);
      if (unreachable()) schedule();
    },
    capWait(maxMs) {
      const latest = Math.max(clock.nowMs() + maxMs, connection.view().retryAtMs ?? 0);
      if (nextAtMs > latest) nextAtMs = latest;
    },
  };
}
