// Collects fetched items and stores them a batch per transaction. better-sqlite3 is synchronous and
// every commit fsyncs (synchronous=FULL), so one commit per answer would hold the event loop about a
// millisecond each time, delaying the sends the quota allows. Batching keeps the sync quota-bound;
// a crash loses at most one unflushed batch, which the resumed sync simply fetches again.

export interface WriteBatcher<T> {
  add(item: T): void;
  /** Stores whatever is buffered now. */
  flush(): void;
}

export function createWriteBatcher<T>(store: (items: readonly T[]) => void, options: { maxItems: number; maxAgeMs: number; nowMs: () => number }): WriteBatcher<T> {
  let buffer: T[] = [];
  let oldest = 0;
  const flush = (): void => {
    if (buffer.length === 0) return;
    const items = buffer;
    buffer = [];
    store(items);
  };
  return {
    add(item) {
      if (buffer.length === 0) oldest = options.nowMs();
      buffer.push(item);
      if (buffer.length >= options.maxItems || options.nowMs() - oldest >= options.maxAgeMs) flush();
    },
    flush,
  };
}
