// Starts the web host exactly as people do (`npm run web -- --demo …`, here through tsx directly so
// that the process group is ours to stop) with its own data folder, and reads the JSON line it prints
// first. `--exit-on-stdin-close` ties it to our stdin pipe: a test runner that dies leaves no host.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

// PROCURE_E2E_OUT: a build folder other than out/ (`electron-vite build --outDir DIR`), so that two
// people building at once on one machine do not pull the files from under each other's tests.
const BUILD_DIR = process.env.PROCURE_E2E_OUT ?? join(process.cwd(), 'out');
const RENDERER_DIR = join(BUILD_DIR, 'renderer');
export const RENDERER_INDEX = join(RENDERER_DIR, 'index.html');
const TSX = join(process.cwd(), 'node_modules', '.bin', 'tsx');

export interface RunningWebHost {
  /** The one-time URL the host printed first (`…/#k=SECRET`): opens one browser session. */
  url: string;
  /** Asks the host for another one-time URL, as a person presses Enter in its terminal. */
  newLaunchUrl(): Promise<string>;
  /** The demo merchant's control API (the web host was started with --demo) and its token. */
  controlUrl: string;
  controlToken: string;
  dataDir: string;
  /** The process started (tsx); the web host and its core process run beneath it. */
  pid: number;
  stderr(): string;
  stop(): Promise<void>;
}

export interface WebHostStart {
  /** Extra environment, e.g. NODE_EXTRA_CA_CERTS so that a second sandbox's CA is trusted. */
  env?: Readonly<Record<string, string>>;
  /** Fills the data folder before the host opens it (the UI benchmark prefills the catalog cache). */
  prepare?: (dataDir: string) => void;
  /** No --data: the host's throwaway folder and secrets in memory only (the card-code warnings show). */
  memorySecrets?: boolean;
}

export async function startWebHost(options: WebHostStart = {}): Promise<RunningWebHost> {
  if (!existsSync(RENDERER_INDEX)) throw new Error(`no built renderer at ${RENDERER_INDEX}: run \`npm run build:web\` first`);
  // A folder per test: the database, the passphrase-protected secrets, nothing shared between tests.
  const dataDir = mkdtempSync(join(tmpdir(), 'procure-e2e-data-'));
  options.prepare?.(dataDir);
  const data = options.memorySecrets === true ? [] : ['--data', dataDir];
  const child = spawn(TSX, ['src/web-host/cli.ts', '--demo', '--port', '0', ...data, '--renderer', RENDERER_DIR, '--exit-on-stdin-close'], {
    cwd: process.cwd(),
    env: { ...process.env, PROCURE_PASSPHRASE: 'e2e-passphrase-not-secret', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`web host did not start in time; stderr:\n${stderr}`)), 45_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve(line);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`web host exited with ${String(code)} before printing its address; stderr:\n${stderr}`));
    });
  });
  // Later lines are fresh one-time URLs, each asked for by a line written to the host's stdin.
  const waiting: ((line: string) => void)[] = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  const newLaunchUrl = async (): Promise<string> => {
    const next = new Promise<string>((resolve) => waiting.push(resolve));
    child.stdin.write('\n');
    return (JSON.parse(await next) as { url: string }).url;
  };
  const printed = JSON.parse(first) as { url: string; demoControlUrl?: string; demoControlToken?: string };
  if (printed.demoControlUrl === undefined || printed.demoControlToken === undefined) throw new Error('web host printed no demoControlUrl and demoControlToken');
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      // Closing stdin is the polite way (the host stops cleanly); SIGTERM to the group if it lingers.
      child.stdin.end();
      const late = setTimeout(() => {
        if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
      }, 5_000);
      await exited;
      clearTimeout(late);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  if (child.pid === undefined) throw new Error('the web host has no pid');
  return { url: printed.url, newLaunchUrl, controlUrl: printed.demoControlUrl, controlToken: printed.demoControlToken, dataDir, pid: child.pid, stderr: () => stderr, stop };
}
