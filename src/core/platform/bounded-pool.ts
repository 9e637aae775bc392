// The one bounded pool of core: runs work over a list with at most a few items in work at once, for
// the catalog sync, the order outbox, the order tracker and the webhook catch-up. The pool only keeps
// the pipe full; the merchant client's quota model decides when each request may actually go, so a
// pool of 4–8 is enough to never leave a quota slot unused while waiting for a round trip.
// Items are taken in list order. Nothing new is taken once the caller says stop, the signal aborts or
// an item failed; the items already in work always finish before the pool settles, so no work is
// left running behind a caller that believes the pass is over.

export interface BoundedPoolOptions {
  /** Items in work at once; at least 1. */
  readonly concurrency: number;
  /** Asked before each item is taken; true ends the pass quietly (a pause, a stopping worker). */
  readonly stopWhen?: () => boolean;
  /** Aborted: no item is taken any more, and the pool rejects with the signal's reason. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Resolves when every item is done or the caller said stop. The first failure (or an abort) stops the
 * remaining items and is thrown once the items in work are done; a non-Error is wrapped in one.
 */
export async function runBounded<T>(items: readonly T[], work: (item: T) => Promise<void>, options: BoundedPoolOptions): Promise<void> {
  // One iterator shared by the workers: each item is taken exactly once, in list order.
  const queue = items.values();
  const next = (): T | undefined => {
    const taken = queue.next();
    return taken.done === true ? undefined : taken.value;
  };
  await runBoundedFrom(next, work, { ...options, concurrency: Math.min(options.concurrency, items.length) });
}

/**
 * The same pool over items picked one at a time by `next` (undefined: none left), so the caller may
 * choose each item when a worker is free (the catalog sync's details follow the buyer's focus).
 */
export async function runBoundedFrom<T>(next: () => T | undefined, work: (item: T) => Promise<void>, options: BoundedPoolOptions): Promise<void> {
  let failed = false;
  let failure: unknown = undefined;
  const fail = (error: unknown): void => {
    if (!failed) failure = error;
    failed = true;
  };
  const worker = async (): Promise<void> => {
    while (!failed) {
      if (options.signal?.aborted === true) {
        fail(options.signal.reason);
        return;
      }
      if (options.stopWhen?.() === true) return;
      const taken = next();
      if (taken === undefined) return;
      try {
        await work(taken);
      } catch (error) {
        fail(error);
      }
    }
  };
  const workers = Math.max(1, options.concurrency);
  await Promise.all(Array.from({ length: workers }, worker));
  if (failed) throw failure instanceof Error ? failure : new Error(String(failure));
}
