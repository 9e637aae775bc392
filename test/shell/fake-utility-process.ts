// A stand-in for Electron's utilityProcess that runs the real entry in a real child process
// (child_process.fork through tsx, with utility-parent-port-shim.ts giving it `process.parentPort`), so the
// core process main starts in tests is the one it starts in the app. The parent's side behaves as
// Electron's UtilityProcess: postMessage, on('message', message), on('exit', code), kill(), and a pid that is
// undefined once the process is gone. Every fork and every message both ways is recorded for the tests.
import { fork as forkNode, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const repo = join(import.meta.dirname, '../..');

/**
 * Under vitest main runs from src/main, where the build's out/main/core-process.js does not exist: the
 * source it is built from (electron.vite.config.ts) is run in its place.
 */
const BUILT_FROM_SOURCE = new Map([[join(repo, 'src/main/core-process.js'), join(repo, 'src/core/process/core-process-main.ts')]]);

type Stdio = 'pipe' | 'ignore' | 'inherit';

export interface FakeForkOptions {
  env?: NodeJS.ProcessEnv;
  execArgv?: string[];
  cwd?: string;
  stdio?: Stdio | Stdio[];
  serviceName?: string;
}

export class FakeUtilityChild extends EventEmitter {
  /** What the parent posted, in order. */
  readonly posted: unknown[] = [];
  /** What the child posted, in order. */
  readonly received: unknown[] = [];
  exitCode: number | null = null;
  readonly #process: ChildProcess;

  constructor(child: ChildProcess) {
    super();
    this.#process = child;
    child.once('spawn', () => this.emit('spawn'));
    child.on('message', (message: unknown) => {
      this.received.push(message);
      this.emit('message', message);
    });
    child.once('exit', (code, signal) => {
      // Electron reports a number from waitpid; a process ended by a signal gets the shell's 128 + n.
      this.exitCode = code ?? 128 + (signal === null ? 0 : signalNumber(signal));
      this.emit('exit', this.exitCode);
    });
  }

  get pid(): number | undefined {
    return this.exitCode === null ? this.#process.pid : undefined;
  }

  postMessage(message: unknown): void {
    this.posted.push(message);
    if (this.#process.connected) this.#process.send(message as object);
  }

  /** As Electron's: SIGTERM, true when the signal was sent. */
  kill(): boolean {
    return this.#process.kill('SIGTERM');
  }
}

function signalNumber(signal: NodeJS.Signals): number {
  const numbers: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
  return numbers[signal] ?? 0;
}

function stdioOf(stdio: FakeForkOptions['stdio']): [Stdio, Stdio] {
  if (stdio === undefined) return ['inherit', 'inherit'];
  if (typeof stdio === 'string') return [stdio, stdio];
  return [stdio[1] ?? 'inherit', stdio[2] ?? 'inherit'];
}

export interface ForkRecord {
  readonly modulePath: string;
  readonly args: readonly string[];
  readonly options: FakeForkOptions;
  readonly child: FakeUtilityChild;
}

export function fakeUtilityProcess() {
  const forks: ForkRecord[] = [];
  const shim = pathToFileURL(join(import.meta.dirname, 'utility-parent-port-shim.ts')).href;
  return {
    forks,
    fork(modulePath: string, args: string[] = [], options: FakeForkOptions = {}): FakeUtilityChild {
      const entry = existsSync(modulePath) ? modulePath : (BUILT_FROM_SOURCE.get(modulePath) ?? modulePath);
      const [stdout, stderr] = stdioOf(options.stdio);
      const child = forkNode(entry, args, {
        execArgv: ['--import', import.meta.resolve('tsx'), '--import', shim, ...(options.execArgv ?? [])],
        env: options.env ?? process.env,
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
        // Structured clone, as Electron's postMessage.
        serialization: 'advanced',
        stdio: ['ignore', stdout, stderr, 'ipc'],
      });
      const fake = new FakeUtilityChild(child);
      forks.push({ modulePath, args, options, child: fake });
      return fake;
    },
  };
}
