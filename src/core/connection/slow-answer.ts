// When a merchant answer counts as slow (contract §8.3): an answer that took longer than
// SLOW_ANSWER_MS, or a request still unanswered after it, makes the header say "merchant struggling"
// at once. Measured in real time, like the request timeout: a sandbox clock that runs faster in tests
// must not make a 50 ms answer look like three seconds.

/** Interface answers (an account, a page of products, an order) come in well under a second; 2.5 s is trouble. */
export const SLOW_ANSWER_MS = 2_500;

export interface AnswerStopwatch {
  /** Real ms since the request went out. */
  elapsedMs(): number;
  /** The answer came (or failed): no "still waiting" call after this. */
  stop(): void;
}

/** Times one request's HTTP exchange; calls `onStillWaiting` once if no answer came within the threshold. */
export interface AnswerTimer {
  readonly thresholdMs: number;
  start(onStillWaiting: (elapsedMs: number) => void): AnswerStopwatch;
}

export function realAnswerTimer(thresholdMs: number = SLOW_ANSWER_MS): AnswerTimer {
  return {
    thresholdMs,
    start(onStillWaiting) {
      const startedAt = performance.now();
      const elapsedMs = (): number => Math.round(performance.now() - startedAt);
      const timer = setTimeout(() => onStillWaiting(elapsedMs()), thresholdMs);
      // A process that is done must not be kept alive by a watch on an answer nobody waits for.
      timer.unref();
      return { elapsedMs, stop: () => clearTimeout(timer) };
    },
  };
}
