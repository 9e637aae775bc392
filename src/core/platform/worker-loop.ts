// The background loop every core worker runs (order outbox, order tracker, webhook inbox, after-sales):
// a pass, then a sleep until the next due item, again and again until stopped. A poke ends the sleep
// at once; a poke that arrives during a pass makes the next pass start without sleeping, so work
// queued mid-pass never waits a whole interval. A failing pass is logged and the loop goes on. Each
// sleep has its own controller, so an early wake leaves no timer or listener behind.
import type { Logger } from '../logging/logger';
import type { Clock } from './clock';

export interface WorkerLoopOptions {
  readonly clock: Clock;
  readonly logger: Logger;
  /** Names the worker in the log line of a failed pass. */
  readonly name: string;
  /** One pass over what is due; `signal` is aborted by stop(). */
  pass(signal: AbortSignal): Promise<unknown>;
  /** How long to sleep after a pass (real ms, already bounded by the worker's own rules). */
  waitMs(): number;
  /** When the merchant said to stop (Retry-After, a refused key): passes are skipped meanwhile. */
  readonly pause?: WorkerPause;
}

/**
 * A reason not to run passes for a while (merchant/worker-pause.ts builds the merchant's): the worker
 * sleeps until then instead of sending requests that are sure to be refused.
 */
export interface WorkerPause {
  /**
   * Clock ms until which passes are skipped (Infinity: until further notice); null to run. A time
   * already past still calls whilePaused once (e.g. a due probe) and runs the pass only if the pause is
   * then over.
   */
  pausedUntilMs(): number | null;
  /** Called on each paused wake-up (e.g. to ask GET /account whether a suspension is over). */
  whilePaused?(): Promise<void>;
}

/** A paused worker looks again at least this often (clock ms), so a lifted pause is noticed. */
const PAUSE_RECHECK_MS = 60_000;

export interface WorkerLoop {
  start(): void;
  /** Aborts the running pass's signal and resolves once the loop has ended. */
  stop(): Promise<void>;
  /** Runs the next pass now (ends the sleep, or skips the next one when a pass is running). */
  poke(): void;
  /** The running loop's signal; null while stopped. */
  signal(): AbortSignal | null;
}

export function createWorkerLoop(options: WorkerLoopOptions): WorkerLoop {
  const { clock, logger } = options;
  let stopper: AbortController | null = null;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  let poked = false;

  const sleep = async (signal: AbortSignal, ms: number = options.waitMs()): Promise<void> => {
    const waiting = new AbortController();
    const onStop = (): void => waiting.abort();
    signal.addEventListener('abort', onStop, { once: true });
    wake = () => waiting.abort();
    await clock.sleep(ms, waiting.signal).catch(() => undefined);
    signal.removeEventListener('abort', onStop);
    wake = null;
  };

  /** Clock ms to stay paused now; 0 to run the pass. */
  const pauseMs = async (): Promise<number> => {
    const pause = options.pause;
    if (pause === undefined) return 0;
    // A pause whose time has come may still hold (a probe is due and decides): only null runs at once.
    if (pause.pausedUntilMs() === null) return 0;
    try {
      await pause.whilePaused?.();
    } catch (error) {
      logger.warn(`${options.name} pause check failed`, { error: error instanceof Error ? error.message : 'unknown' });
    }
    return pausedFor(pause);
  };
  const pausedFor = (pause: WorkerPause): number => {
    const until = pause.pausedUntilMs();
    return until === null ? 0 : Math.max(0, until - clock.nowMs());
  };

  return {
    start(): void {
      if (stopper !== null) return;
      const controller = new AbortController();
      stopper = controller;
      const signal = controller.signal;
      loop = (async () => {
        while (!signal.aborted) {
          poked = false;
          const pausedFor = await pauseMs();
          if (pausedFor > 0) {
            // A poke during the pause check (new work) gets one more check at once, not a whole recheck interval later.
            if (!signal.aborted && !poked) await sleep(signal, Math.min(pausedFor, PAUSE_RECHECK_MS));
            continue;
          }
          try {
            await options.pass(signal);
          } catch (error) {
            logger.error(`${options.name} pass failed`, { error: error instanceof Error ? error.message : 'unknown' });
          }
          if (!signal.aborted && !poked) await sleep(signal);
        }
      })();
    },

    async stop(): Promise<void> {
      if (stopper === null) return;
      stopper.abort(new Error(`${options.name} stopped`));
      wake?.();
      await loop;
      loop = null;
      stopper = null;
    },

    poke(): void {
      poked = true;
      wake?.();
    },

    signal: () => stopper?.signal ?? null,
  };
}
