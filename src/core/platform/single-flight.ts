// One run of a task at a time: a caller that comes while it runs waits for that run instead of
// starting another (the probes that decide whether a paused worker may resume: every paused worker
// asks, one request goes). The task's failure is swallowed: what it found out reaches the state it
// feeds, not the callers.
export interface SingleFlight {
  /** The run in progress, or null. */
  running(): Promise<void> | null;
  /** Starts `task` unless a run is in progress (then that one is returned). */
  run(task: () => Promise<unknown>): Promise<void>;
}

export function createSingleFlight(): SingleFlight {
  let current: Promise<void> | null = null;
  return {
    running: () => current,
    run(task) {
      if (current !== null) return current;
      const started: Promise<void> = task()
        .then(
          () => undefined,
          () => undefined,
        )
        .finally(() => {
          if (current === started) current = null;
        });
      current = started;
      return started;
    },
  };
}

/**
 * One run per key at a time whose result every caller shares: a caller that comes while the key's
 * run is under way gets that run's promise (its result or its failure) instead of starting another.
 * The buyer opening a product twice, or two screens asking for it, sends one GET /goods/{ref}; concurrent
 * asks for the same purchase template send one request.
 */
export interface KeyedSingleFlight<K, T> {
  run(key: K, task: () => Promise<T>): Promise<T>;
}

export function createKeyedSingleFlight<K, T>(): KeyedSingleFlight<K, T> {
  const current = new Map<K, Promise<T>>();
  return {
    run(key, task) {
      const running = current.get(key);
      if (running !== undefined) return running;
      const started = task().finally(() => {
        if (current.get(key) === started) current.delete(key);
      });
      current.set(key, started);
      return started;
    },
  };
}
