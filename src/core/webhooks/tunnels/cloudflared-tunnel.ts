// A Cloudflare quick tunnel: `cloudflared tunnel --no-autoupdate --url http://127.0.0.1:PORT` runs
// as a child process and prints a random https://….trycloudflare.com URL on stderr. If it dies it
// is started again with backoff (each run gets a new URL, reported through onChange so the
// subscriptions follow); stop() ends it with SIGTERM, then SIGKILL after a grace period, and a
// process-exit hook kills it should the app quit without calling stop(), so no cloudflared outlives us.
import { spawn } from 'node:child_process';
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Logger } from '../../logging/logger';
import type { Clock } from '../../platform/clock';
import { findQuickTunnelUrl } from './cloudflared-output';
import { findExecutable } from './find-executable';
import type { BackoffPolicy } from './restart-backoff';
import { DEFAULT_BACKOFF, backoffDelayMs } from './restart-backoff';
import type { Tunnel, TunnelStatus } from './tunnel';
import { TunnelError } from './tunnel';
import { TunnelState, checkLocalPort, errorMessage } from './tunnel-state';

export type SpawnProcess = (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;

export interface CloudflaredTimings {
  /** How long a run may take to print its URL before it is killed as failed. Default 60 s. */
  readonly urlTimeoutMs: number;
  /** Between SIGTERM and SIGKILL on stop. Default 5 s. */
  readonly stopGraceMs: number;
  readonly backoff: BackoffPolicy;
}

const DEFAULT_CLOUDFLARED_TIMINGS: CloudflaredTimings = { urlTimeoutMs: 60_000, stopGraceMs: 5_000, backoff: DEFAULT_BACKOFF };

export interface CloudflaredTunnelDeps {
  logger: Logger;
  clock: Clock;
  /** A configured cloudflared; otherwise `cloudflared` is looked up on PATH. */
  executablePath?: string;
  /** Environment for the PATH lookup and the child. Default process.env. */
  env?: NodeJS.ProcessEnv;
  spawnProcess?: SpawnProcess;
  timings?: Partial<CloudflaredTimings>;
}

export function cloudflaredArgs(localPort: number): string[] {
  return ['tunnel', '--no-autoupdate', '--url', `http://127.0.0.1:${localPort}`];
}

const KEPT_LINES = 20;

interface Run {
  readonly child: ChildProcess;
  readonly startedAt: number;
  readonly exited: Promise<void>;
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/**
 * Reads cloudflared's output: the quick tunnel URL once printed, the last lines for error messages,
 * and `died`, which resolves with a reason once the process is gone (a restart is due then).
 */
function readOutput(
  child: ChildProcess,
  exited: Promise<void>,
  logger: Logger,
): { urlFound: Promise<string>; died: Promise<string>; lastLines: () => string; printedAnything: () => boolean } {
  const lines: string[] = [];
  const lastLines = (): string => lines.slice(-3).join(' | ');
  let onUrl: (url: string) => void = () => undefined;
  const urlFound = new Promise<string>((resolve) => {
    onUrl = resolve;
  });
  let spawnError: Error | null = null;
  child.once('error', (error) => {
    spawnError = error;
  });
  for (const stream of [child.stdout, child.stderr]) {
    if (stream === null) continue;
    const reader = createInterface({ input: stream, crlfDelay: Infinity });
    reader.on('line', (line) => {
      lines.push(line);
      if (lines.length > KEPT_LINES) lines.shift();
      logger.debug('cloudflared output', { kind: 'cloudflared', line });
      const url = findQuickTunnelUrl(line);
      if (url !== null) onUrl(url);
    });
  }
  const died = exited.then(() => {
    if (spawnError !== null) return `cloudflared could not be started: ${spawnError.message}`;
    const how = child.signalCode !== null ? `signal ${child.signalCode}` : `code ${String(child.exitCode)}`;
    const tail = lastLines();
    return `cloudflared exited (${how})${tail === '' ? '' : `: ${tail}`}`;
  });
  return { urlFound, died, lastLines, printedAnything: () => lines.length > 0 };
}

/** SIGTERM, then SIGKILL if it is still there after the grace period. */
async function terminateRun(target: Run, clock: Clock, stopGraceMs: number, logger: Logger): Promise<void> {
  if (!hasExited(target.child)) {
    target.child.kill('SIGTERM');
    const grace = new AbortController();
    const gone = await Promise.race([
      target.exited.then(() => true),
      clock.sleep(stopGraceMs, grace.signal).then(
        () => false,
        () => true,
      ),
    ]);
    grace.abort();
    if (!gone && !hasExited(target.child)) {
      logger.warn('cloudflared ignored SIGTERM; killing it', { kind: 'cloudflared', pid: target.child.pid });
      target.child.kill('SIGKILL');
    }
  }
  await target.exited;
}

export function createCloudflaredTunnel(deps: CloudflaredTunnelDeps): Tunnel {
  const state = new TunnelState('cloudflared', deps.logger);
  const timings: CloudflaredTimings = { ...DEFAULT_CLOUDFLARED_TIMINGS, ...deps.timings };
  const spawnProcess: SpawnProcess = deps.spawnProcess ?? spawn;
  const env = deps.env ?? process.env;
  let run: Run | null = null;
  let lifetime: AbortController | null = null;
  let supervising: Promise<void> | null = null;

  // The safety net for a quit that skips stop(): 'exit' handlers must be synchronous, so SIGKILL.
  const killOnExit = (): void => {
    if (run !== null && !hasExited(run.child)) run.child.kill('SIGKILL');
  };

  /** Spawns one cloudflared and resolves with its URL; on any failure it is gone before this rejects. */
  const launch = async (executable: string, localPort: number, signal: AbortSignal): Promise<{ run: Run; url: string; died: Promise<string> }> => {
    const child = spawnProcess(executable, cloudflaredArgs(localPort), { stdio: ['ignore', 'pipe', 'pipe'], env, windowsHide: true });
    const exited = new Promise<void>((resolve) => {
      if (hasExited(child)) resolve();
      else child.once('exit', () => resolve());
      // A spawn failure (ENOENT, EACCES) emits 'error' and maybe no 'exit'.
      child.once('error', () => resolve());
    });
    const current: Run = { child, startedAt: deps.clock.nowMs(), exited };
    run = current;
    const { urlFound, died, lastLines, printedAnything } = readOutput(child, exited, deps.logger);

    const giveUp = new AbortController();
    const onAbort = (): void => giveUp.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const outcome = await Promise.race([
        urlFound.then((url) => ({ url })),
        died.then((reason) => ({ failure: `${reason}; no tunnel URL was printed` })),
        deps.clock.sleep(timings.urlTimeoutMs, giveUp.signal).then(
          () => ({ failure: `cloudflared printed no tunnel URL within ${timings.urlTimeoutMs} ms${printedAnything() ? `: ${lastLines()}` : ''}` }),
          () => ({ failure: 'stopped' }),
        ),
      ]);
      if ('url' in outcome && !signal.aborted) return { run: current, url: outcome.url, died };
      await terminate(current);
      throw new TunnelError('failure' in outcome ? outcome.failure : 'stopped');
    } finally {
      giveUp.abort();
      signal.removeEventListener('abort', onAbort);
    }
  };

  /** SIGTERM, then SIGKILL if it is still there after the grace period; the run is forgotten once gone. */
  const terminate = async (target: Run): Promise<void> => {
    await terminateRun(target, deps.clock, timings.stopGraceMs, deps.logger);
    if (run === target) run = null;
  };

  /** Watches a healthy run; when it dies, restarts with backoff until one comes up or stop() is called. */
  const supervise = async (executable: string, localPort: number, first: { run: Run; died: Promise<string> }, signal: AbortSignal): Promise<void> => {
    let current = first;
    let attempt = 0;
    while (!signal.aborted) {
      const reason = await current.died;
      if (signal.aborted) return;
      if (run === current.run) run = null;
      if (deps.clock.nowMs() - current.run.startedAt >= timings.backoff.stableMs) attempt = 0;
      deps.logger.warn('cloudflared died; restarting', { kind: 'cloudflared', reason });
      state.update({ up: false, publicUrl: null, lastError: reason });
      for (;;) {
        const delay = backoffDelayMs(timings.backoff, attempt);
        attempt++;
        try {
          await deps.clock.sleep(delay, signal);
        } catch {
          return;
        }
        try {
          const next = await launch(executable, localPort, signal);
          current = next;
          const restarts = state.snapshot().restarts + 1;
          state.update({ up: true, publicUrl: next.url, lastError: null, restarts });
          deps.logger.info('cloudflared tunnel up again', { kind: 'cloudflared', publicUrl: next.url, restarts });
          break;
        } catch (error) {
          if (signal.aborted) return;
          state.update({ lastError: errorMessage(error) });
          deps.logger.warn('cloudflared restart failed', { kind: 'cloudflared', error: errorMessage(error) });
        }
      }
    }
  };

  return {
    kind: 'cloudflared',
    async start(localPort: number): Promise<string> {
      checkLocalPort(localPort);
      if (lifetime !== null) throw new TunnelError('the cloudflared tunnel is already started');
      const controller = new AbortController();
      lifetime = controller;
      try {
        const executable = await findExecutable(deps.executablePath ?? 'cloudflared', env);
        if (executable === null) {
          throw new TunnelError(
            deps.executablePath === undefined ? 'cloudflared is not installed (no cloudflared on PATH)' : `no executable cloudflared at ${deps.executablePath}`,
          );
        }
        process.on('exit', killOnExit);
        const first = await launch(executable, localPort, controller.signal);
        state.update({ up: true, publicUrl: first.url, lastError: null });
        deps.logger.info('cloudflared tunnel up', { kind: 'cloudflared', publicUrl: first.url, pid: first.run.child.pid });
        supervising = supervise(executable, localPort, first, controller.signal);
        return first.url;
      } catch (error) {
        if (lifetime === controller) {
          lifetime = null;
          process.removeListener('exit', killOnExit);
          state.update({ up: false, publicUrl: null, lastError: errorMessage(error) });
        }
        throw error instanceof TunnelError ? error : new TunnelError(`cloudflared failed to start: ${errorMessage(error)}`);
      }
    },
    async stop(): Promise<void> {
      const controller = lifetime;
      lifetime = null;
      controller?.abort();
      if (run !== null) await terminate(run);
      await supervising;
      supervising = null;
      // A launch racing with stop has been ended by its own abort handling; nothing is left.
      if (run !== null) await terminate(run);
      process.removeListener('exit', killOnExit);
      state.update({ up: false, publicUrl: null });
    },
    status: (): TunnelStatus => state.snapshot(),
    onChange: (listener) => state.subscribe(listener),
  };
}
