// A scan that runs now, then every `intervalMs` while started, and again on demand (poke) after a
// handler changed something. The timer never keeps the process alive. Shared by the watches that
// turn database changes into pushed events (app/change-watch.ts, aftersales/case-watch.ts).
export interface PeriodicScan {
  /** Scans now. */
  poke(): void;
  start(): void;
  stop(): void;
}

export function periodicScan(scan: () => void, intervalMs: number): PeriodicScan {
  let timer: ReturnType<typeof setInterval> | null = null;
  return {
    poke: scan,
    start(): void {
      if (timer !== null) return;
      scan();
      timer = setInterval(scan, intervalMs);
      timer.unref();
    },
    stop(): void {
      if (timer !== null) clearInterval(timer);
      timer = null;
    },
  };
}
