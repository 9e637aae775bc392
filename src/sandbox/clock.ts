// The sandbox's clock. Sandbox time starts at the real time of start-up and then runs `timeScale`
// times faster, so that tests can watch a 30-second webhook schedule or a one-minute quota window
// pass in a fraction of that. Every duration in the sandbox (webhook schedule, quota windows,
// cooldowns, expiry, processing delays) is expressed in sandbox time and goes through here.

export interface SandboxClock {
  /** Sandbox time in milliseconds since the Unix epoch. */
  nowMs(): number;
  /** Sandbox time in whole Unix seconds, as every timestamp of the interface. */
  nowSeconds(): number;
  /** Runs `fn` after `sandboxMs` of sandbox time. */
  setTimeout(fn: () => void, sandboxMs: number): SandboxTimer;
  readonly timeScale: number;
}

export interface SandboxTimer {
  cancel(): void;
}

export function createScaledClock(timeScale: number, realNow: () => number = Date.now): SandboxClock {
  if (!(timeScale > 0) || !Number.isFinite(timeScale)) {
    throw new Error(`time scale must be a positive number, got ${timeScale}`);
  }
  const realStart = realNow();
  const nowMs = (): number => realStart + (realNow() - realStart) * timeScale;
  return {
    timeScale,
    nowMs,
    nowSeconds: () => Math.floor(nowMs() / 1000),
    setTimeout(fn, sandboxMs) {
      const handle = setTimeout(fn, Math.max(0, sandboxMs / timeScale));
      // Pending sandbox work (a webhook retry, an order advancing) must not keep a stopping process alive.
      handle.unref();
      return { cancel: () => clearTimeout(handle) };
    },
  };
}

/** A clock moved by hand, for unit tests of time-dependent sandbox parts. */
export interface ManualClock extends SandboxClock {
  advance(ms: number): void;
}

export function createManualClock(startMs = 1_790_000_000_000): ManualClock {
  let now = startMs;
  let timers: { at: number; fn: () => void; id: number }[] = [];
  let nextId = 1;
  return {
    timeScale: 1,
    nowMs: () => now,
    nowSeconds: () => Math.floor(now / 1000),
    setTimeout(fn, sandboxMs) {
      const id = nextId++;
      timers.push({ at: now + Math.max(0, sandboxMs), fn, id });
      return { cancel: () => void (timers = timers.filter((t) => t.id !== id)) };
    },
    advance(ms) {
      const target = now + ms;
      for (;;) {
        const due = timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
        if (!due) break;
        timers = timers.filter((t) => t.id !== due.id);
        now = Math.max(now, due.at);
        due.fn();
      }
      now = target;
    },
  };
}
