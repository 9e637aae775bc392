// While a window shows the header, it must say within seconds that the merchant went away or slowed
// down, even when nothing is being asked of it (contract §8.3). Every request already feeds the state
// machine; this fills the silences: after IDLE_PROBE_MS without any observation (at once when a
// watch begins after a long silence), one GET /account
// (one attempt, background quota) is sent, and its answer, failure or slowness moves the state like
// any other. While work is held back (offline, certificate, errors) the reach probe decides, with
// its backoff capped so the return is seen soon. Nothing is sent while no window watches (the tray).
import type { Clock } from '../platform/clock';
import { createSingleFlight } from '../platform/single-flight';
import { holdsBackWork, isRefusalState, type ConnectionStateMachine } from './connection-state';
import type { ReachProbe } from './reach-probe';

/** Silence (client-clock ms) after which the merchant is asked again: with SLOW_ANSWER_MS, a change is shown within 5 s. */
export const IDLE_PROBE_MS = 1_500;
/** How long one watch lasts; a visible window renews it well before it ends. */
export const WATCH_LEASE_MS = 15_000;
/** While watched, a merchant that cannot be reached is asked again at least this often. */
export const WATCHED_REACH_MAX_MS = 10_000;
/** The shortest sleep between two looks, so that a clock that does not move cannot spin the loop. */
const MIN_STEP_MS = 100;

export interface HealthWatchDeps {
  readonly connection: ConnectionStateMachine;
  readonly reach: ReachProbe;
  readonly clock: Clock;
  /** GET /account, sent once (no retries: the next probe is the retry). */
  readonly probe: (signal: AbortSignal) => Promise<unknown>;
}

export interface HealthWatch {
  /** A window shows this connection's state: keep it checked for the next WATCH_LEASE_MS. */
  watch(): void;
  watching(): boolean;
  start(): void;
  /** Ends the loop and aborts a probe in flight. */
  stop(): Promise<void>;
}

export function createHealthWatch({ connection, reach, clock, probe }: HealthWatchDeps): HealthWatch {
  let watchedUntilMs = -Infinity;
  let lastProbeAtMs = -Infinity;
  let stopper: AbortController | null = null;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  /** A wake-up that came while no sleep was under way: the next sleep is skipped. */
  let poked = false;
  const poke = (): void => {
    poked = true;
    wake?.();
  };
  let unsubscribe: (() => void) | null = null;
  const flight = createSingleFlight();
  const watching = (): boolean => clock.nowMs() < watchedUntilMs;

  /** One look: probes when one is due; answers how long to sleep before the next look. */
  const step = async (signal: AbortSignal): Promise<number> => {
    if (!watching()) return WATCH_LEASE_MS;
    const send = (): Promise<unknown> => {
      lastProbeAtMs = clock.nowMs();
      return probe(signal);
    };
    const view = connection.view();
    // A refusal has its own re-check (access-gate.ts): asking more often would not lift it sooner.
    if (isRefusalState(view.state)) return IDLE_PROBE_MS;
    if (holdsBackWork(view)) {
      reach.capWait(WATCHED_REACH_MAX_MS);
      await reach.probeIfDue(send);
      // A failed probe scheduled the next by the unwatched backoff: bring it within the cap again.
      reach.capWait(WATCHED_REACH_MAX_MS);
      const next = reach.nextProbeAtMs();
      return next === null ? 0 : next - clock.nowMs();
    }
    // Online or merely slow: any observation (or our own probe) in the last IDLE_PROBE_MS is enough.
    const latest = Math.max(connection.lastObservedAtMs() ?? -Infinity, lastProbeAtMs);
    const idleMs = clock.nowMs() - latest;
    if (idleMs < IDLE_PROBE_MS) return IDLE_PROBE_MS - idleMs;
    await flight.run(send);
    return 0;
  };

  const sleep = async (ms: number, signal: AbortSignal): Promise<void> => {
    if (poked) {
      poked = false;
      return;
    }
    const waiting = new AbortController();
    const onStop = (): void => waiting.abort();
    signal.addEventListener('abort', onStop, { once: true });
    wake = () => waiting.abort();
    await clock.sleep(Math.min(WATCH_LEASE_MS, Math.max(MIN_STEP_MS, ms)), waiting.signal).catch(() => undefined);
    signal.removeEventListener('abort', onStop);
    wake = null;
    poked = false;
  };

  return {
    watch() {
      const was = watching();
      watchedUntilMs = clock.nowMs() + WATCH_LEASE_MS;
      if (!was) poke();
    },
    watching,
    start() {
      if (loop !== null) return;
      const controller = new AbortController();
      stopper = controller;
      // A transition (say, offline) changes what is due: look again at once.
      unsubscribe = connection.onChange(poke);
      loop = (async () => {
        while (!controller.signal.aborted) {
          const ms = await step(controller.signal).catch(() => IDLE_PROBE_MS);
          if (controller.signal.aborted) break;
          await sleep(ms, controller.signal);
        }
      })();
    },
    async stop() {
      unsubscribe?.();
      unsubscribe = null;
      stopper?.abort(new Error('health watch stopped'));
      stopper = null;
      await loop;
      loop = null;
    },
  };
}
