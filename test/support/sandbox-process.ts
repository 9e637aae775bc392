// Starts the merchant sandbox exactly as people do (`npm run sandbox -- …`) and reads the JSON line it
// prints first. The child is tied to our stdin pipe (`--exit-on-stdin-close`) so that it stops by
// itself even when the test runner dies without cleaning up.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { npmCommand } from './npm-command';

export interface SandboxInfo {
  baseUrl: string;
  controlUrl: string;
  /** The control API's bearer token (test/support/control-auth.ts). */
  controlToken: string;
  userId: string;
  apiKey: string;
  caCertFile: string;
}

export interface RunningSandbox extends SandboxInfo {
  /** PEM of the CA that signed the sandbox's HTTPS certificate. */
  ca: string;
  child: ChildProcess;
  /** What the sandbox wrote to stderr so far (its log). */
  stderr(): string;
  stop(): Promise<void>;
}

export async function startSandbox(args: string[] = []): Promise<RunningSandbox> {
  const npm = npmCommand(['run', '--silent', 'sandbox', '--', '--port', '0', '--control-port', '0', '--exit-on-stdin-close', ...args]);
  // A process group of its own on POSIX, stopped as one; Windows has no groups (and a detached child
  // gets a console window of its own), so there it ends when its stdin closes.
  const grouped = process.platform !== 'win32';
  const child = spawn(npm.command, npm.args, { cwd: process.cwd(), stdio: ['pipe', 'pipe', 'pipe'], detached: grouped });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const first = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sandbox did not start in time; stderr:\n${stderr}`)), 45_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve(line);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited with ${String(code)} before printing its address; stderr:\n${stderr}`));
    });
  });
  const info = JSON.parse(first) as SandboxInfo;
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    if (!grouped) child.stdin?.end();
    else if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    await exited;
  };
  return { ...info, ca: readFileSync(info.caCertFile, 'utf8'), child, stderr: () => stderr, stop };
}
