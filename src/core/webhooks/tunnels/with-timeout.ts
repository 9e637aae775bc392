// Bounds a provider's start: an agent that cannot reach its service may otherwise wait forever.
import type { Clock } from '../../platform/clock';
import { TunnelError } from './tunnel';

/**
 * Resolves or rejects like `work`, or rejects with `message` after `ms` of the clock's time. A
 * result arriving after the timeout is handed to `onLate` so that it can be closed.
 */
export function withTimeout<T>(work: Promise<T>, ms: number, clock: Clock, message: string, onLate?: (late: T) => void): Promise<T> {
  const abort = new AbortController();
  let timedOut = false;
  const timer = clock.sleep(ms, abort.signal).then(
    () => {
      timedOut = true;
      throw new TunnelError(message);
    },
    () => new Promise<never>(() => undefined),
  );
  work.then(
    (value) => {
      if (timedOut) onLate?.(value);
    },
    () => undefined,
  );
  return Promise.race([work, timer]).finally(() => abort.abort());
}
