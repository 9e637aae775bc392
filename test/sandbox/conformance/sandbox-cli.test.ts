// How the sandbox starts and stops (docs/sandbox.md): the first stdout line
// with exactly its five keys, --http, --domain, a clean stop when only npm is signalled, and a
// refusal of an unknown flag. Each test starts its own `npm run sandbox`, as people and graders do.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { sleep } from '../../support/wire-checks';

interface Started {
  child: ChildProcess;
  info: Record<string, unknown>;
  stderr(): string;
  exited: Promise<number | null>;
}

const children: ChildProcess[] = [];

afterEach(() => {
  // Whatever a test left running: the whole group (npm, shell, tsx, node).
  for (const child of children.splice(0)) {
    if (child.pid !== undefined && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
});

/** `npm run sandbox -- …` without the test suite's --exit-on-stdin-close, reading the first line. */
async function launch(args: string[]): Promise<Started> {
  const child = spawn('npm', ['run', '--silent', 'sandbox', '--', ...args], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.push(child);
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const first = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no first line; stderr:\n${stderr}`)), 45_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve(line);
    });
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`exited before its first line; stderr:\n${stderr}`));
    });
  });
  return { child, info: JSON.parse(first) as Record<string, unknown>, stderr: () => stderr, exited };
}

function text(value: unknown): string {
  if (typeof value !== 'string') throw new Error(`expected a string, got ${JSON.stringify(value)}`);
  return value;
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

function get(url: string, headers: Record<string, string>, tls?: { ca: string; servername?: string }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const onResponse = (res: IncomingMessage): void => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(body) as Record<string, unknown> }));
    };
    const req = tls ? httpsRequest(url, { headers, ca: tls.ca, agent: false, ...(tls.servername === undefined ? {} : { servername: tls.servername }) }, onResponse) : httpRequest(url, { headers, agent: false }, onResponse);
    req.on('error', reject);
    req.end();
  });
}

function credentials(info: Record<string, unknown>): Record<string, string> {
  return { 'X-Service-User-Id': text(info.userId), 'X-Service-Key': text(info.apiKey) };
}

async function controlAnswers(controlUrl: string): Promise<boolean> {
  try {
    await fetch(`${controlUrl}/control/deliveries`);
    return true;
  } catch {
    return false;
  }
}

// POSIX only: npm runs in a process group of its own and is signalled (Windows has no groups or SIGTERM
// to send them, and its npm.cmd runs only through a shell).
describe.skipIf(process.platform === 'win32')('npm run sandbox', () => {
  it('prints exactly {baseUrl, controlUrl, controlToken, userId, apiKey, caCertFile} first, logs without the key, and stops cleanly when only npm gets SIGTERM', async () => {
    const started = await launch(['--port', '0', '--products', '50']);
    const { info } = started;
    expect(Object.keys(info).sort()).toEqual(['apiKey', 'baseUrl', 'caCertFile', 'controlToken', 'controlUrl', 'userId']);
    expect(text(info.controlToken)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(started.stderr()).not.toContain(text(info.controlToken));
    expect(text(info.baseUrl)).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/openapi\/v1$/);
    expect(text(info.controlUrl)).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(text(info.apiKey)).toMatch(/^AK_[0-9a-f]{32}$/);
    expect(readFileSync(text(info.caCertFile), 'utf8')).toContain('BEGIN CERTIFICATE');
    const ok = await get(`${text(info.baseUrl)}/account`, credentials(info), { ca: readFileSync(text(info.caCertFile), 'utf8') });
    expect(ok.status).toBe(200);
    expect(started.stderr()).not.toContain(text(info.apiKey));

    // The npm process alone, as a test runner's terminate() does: the sandbox must not outlive it.
    process.kill(started.child.pid ?? 0, 'SIGTERM');
    await started.exited;
    const controlUrl = text(info.controlUrl);
    for (let i = 0; i < 40 && (await controlAnswers(controlUrl)); i++) await sleep(250);
    expect(await controlAnswers(controlUrl), 'the control port is closed').toBe(false);
    await sleep(500);
    expect(existsSync(dirname(text(info.caCertFile))), 'its own CA folder is removed on a clean stop').toBe(false);
  });

  it('--http serves the interface over plain HTTP', async () => {
    const { info } = await launch(['--port', '0', '--control-port', '0', '--products', '50', '--http']);
    expect(text(info.baseUrl)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/openapi\/v1$/);
    const ok = await get(`${text(info.baseUrl)}/account`, credentials(info));
    expect(ok.status).toBe(200);
    expect(ok.body.code).toBe(0);
  });

  it('--domain NAME: only Host NAME reaches the interface (its certificate covers NAME); any other Host is 404 before authentication', async () => {
    const { info } = await launch(['--port', '0', '--products', '50', '--domain', 'api.shop.test']);
    const ca = readFileSync(text(info.caCertFile), 'utf8');
    const url = `${text(info.baseUrl)}/account`;
    const main = await get(url, { ...credentials(info), host: 'api.shop.test' }, { ca, servername: 'api.shop.test' });
    expect(main.status).toBe(200);
    expect(main.body.code).toBe(0);
    for (const host of ['127.0.0.1', 'shop.test', 'sub.api.shop.test']) {
      const other = await get(url, { host }, { ca, servername: 'api.shop.test' });
      expect(other.status, host).toBe(404);
      expect(other.body.code, host).toBe(404001);
    }
  });

  it('an unknown flag stops start-up with exit code 2 and nothing on stdout', async () => {
    const child = spawn('npm', ['run', '--silent', 'sandbox', '--', '--no-such-flag'], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    children.push(child);
    let stdout = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => (stdout += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stdout).toBe('');
  });
});
