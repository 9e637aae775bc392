// Runs work items with a few in flight at once. The pool only keeps the pipe full; the merchant
// client's quota model decides when each request may actually go, so a pool of 4–8 is enough to
// never leave a quota slot unused while waiting for a round trip.

/** Resolves when every item is done; the first failure (or an abort) stops the remaining items and is thrown. */
export async function runPool<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>, signal?: AbortSignal): Promise<void> {
  let next = 0;
  let failed = false;
  let failure: unknown = undefined;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      if (signal?.aborted) {
        failed = true;
        failure ??= signal.reason;
        return;
      }
      const item = items[next];
      next += 1;
      if (item === undefined) continue;
      try {
        await work(item);
      } catch (error) {
        if (!failed) failure = error;
        failed = true;
      }
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, () => worker());
  await Promise.all(workers);
  if (failed) throw failure instanceof Error ? failure : new Error(String(failure));
}
