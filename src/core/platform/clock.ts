// Core's clock port. Everything in core that waits or timestamps goes through it, so that tests and
// benchmarks can run core against a sandbox whose time runs faster (both sides scaled alike).

export interface Clock {
  /** Milliseconds since the Unix epoch (possibly scaled). */
  nowMs(): number;
  /** Resolves after `ms` of this clock's time; rejects with the signal's reason when aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export function createScaledClock(scale = 1, realNow: () => number = Date.now): Clock {
  if (!(scale > 0) || !Number.isFinite(scale)) throw new Error(`clock scale must be positive, got ${scale}`);
  const start = realNow();
  return {
    nowMs: () => start + (realNow() - start) * scale,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) {
          reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
          return;
        }
        const onAbort = (): void => {
          clearTimeout(timer);
          reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
        };
        const timer = setTimeout(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        }, Math.max(0, ms / scale));
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
  };
}

export const systemClock: Clock = createScaledClock(1);
