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
 * One run per key at a time, whose answer every caller of that key shares (failure too): concurrent
 * asks for the same purchase template send one request. The key is free again once the run ends.
 */
export interface KeyedSingleFlight<T> {
  run(key: string, task: () => Promise<T>): Promise<T>;
}

export function createKeyedSingleFlight<T>(): KeyedSingleFlight<T> {
  const running = new Map<string, Promise<T>>();
  return {
    run(key, task) {
      const current = running.get(key);
      if (current !== undefined) return current;
      const started = task().finally(() => {
        if (running.get(key) === started) running.delete(key);
      });
      running.set(key, started);
      return started;
    },
  };
}
