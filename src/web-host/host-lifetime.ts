// When the web host stops: Ctrl+C (SIGINT), SIGTERM, a closed terminal (SIGHUP), the death of the
// process that started it (its parent, or the `npm` above the shell, which npm's own death
// leaves running), and stdin closing when asked. Each ends in one stop (core, then the throwaway data
// folder); a second Ctrl+C while stopping is not the default kill that would leave the folder behind,
// and a stop that hangs is cut short by `abandon` (core killed, folder removed) after a deadline.
import { findNpmLauncher, watchLauncher } from '../sandbox/launcher-watch';

export interface HostLifetimeOptions {
  /** The orderly stop: resolves once core has closed and the temporary folder is gone. */
  stop(): Promise<void>;
  /** The last resort when `stop` hangs: synchronous, kills core and removes the temporary folder. */
  abandon(): void;
  notice(line: string): void;
  /** Also stop when stdin ends (--exit-on-stdin-close). */
  exitOnStdinClose: boolean;
  /** Real ms between two looks at the parent and the launcher. */
  watchIntervalMs?: number;
  /** Real ms an orderly stop may take (the supervisor itself kills core after 10 s). */
  stopDeadlineMs?: number;
  exit?: (code: number) => void;
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Starts watching; answers the function that begins the stop (once) for any other reason. */
export function holdHostLifetime(options: HostLifetimeOptions): (why: string) => void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let stoppingSince: number | null = null;
  const stopWatching: (() => void)[] = [];
  const shutdown = (why: string): void => {
    if (stoppingSince !== null) {
      // A second Ctrl+C within a second is the same press (a terminal and a relay may both send it): only a later one is answered.
      if (Date.now() - stoppingSince > 1_000) options.notice(`still stopping (${why}): core is closing and the temporary data is being removed`);
      return;
    }
    stoppingSince = Date.now();
    for (const unwatch of stopWatching) unwatch();
    options.notice(`stopping (${why})`);
    const deadline = setTimeout(() => {
      options.notice('the stop took too long: ending the core process and removing the temporary data now');
      options.abandon();
      exit(1);
    }, options.stopDeadlineMs ?? 15_000);
    options.stop().then(
      () => {
        clearTimeout(deadline);
        exit(0);
      },
      (error: unknown) => {
        clearTimeout(deadline);
        options.notice(`stop failed: ${error instanceof Error ? error.message : String(error)}`);
        options.abandon();
        exit(1);
      },
    );
  };
  // Kept for the whole run: a signal during the stop is answered, never Node's default (instant death).
  for (const signal of STOP_SIGNALS) process.on(signal, () => shutdown(signal));
  const interval = options.watchIntervalMs ?? 500;
  // The parent's death reparents us: the shell npm started killed outright, or a test runner that started us directly.
  const parent = process.ppid;
  const parentWatch = setInterval(() => {
    if (process.ppid !== parent) shutdown('the process that started it ended');
  }, interval);
  parentWatch.unref();
  stopWatching.push(() => clearInterval(parentWatch));
  // `npm run web` killed alone: npm's shell may die while we run on as an orphan.
  const launcher = findNpmLauncher();
  if (launcher !== null) stopWatching.push(watchLauncher(launcher, () => shutdown('npm exited'), interval));
  if (options.exitOnStdinClose) {
    process.stdin.once('end', () => shutdown('stdin closed'));
    process.stdin.once('close', () => shutdown('stdin closed'));
  }
  return shutdown;
}
