// `npm run web` as people run it: one JSON line with a one-time URL on stdout, a fresh one for each
// line typed on stdin, the memory notice on stderr, the page served (without any credential), a clean
// stop on SIGTERM and when stdin closes, clear refusals for bad usage.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { fakeRendererDir, redeemLaunchUrl } from './web-host-kit';

interface Started {
  child: ChildProcess;
  line: string;
  /** Resolves with the next line printed on stdout. */
  nextLine: () => Promise<string>;
  stderr: () => string;
  exited: Promise<number | null>;
}

function startWeb(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Started> {
  const child = spawn('npm', ['run', '--silent', 'web', '--', ...args], {
    cwd: process.cwd(),
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
    env: { ...process.env, PROCURE_PASSPHRASE: '', ...env },
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const nextLine = (): Promise<string> => new Promise((resolve) => lines.once('line', resolve));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`web host did not start in time; stderr:\n${stderr}`)), 45_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve({ child, line, nextLine, stderr: () => stderr, exited });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      resolve({ child, line: '', nextLine, stderr: () => stderr, exited: Promise.resolve(code) });
    });
  });
}

// POSIX only: npm runs in a process group of its own and is signalled (Windows has no groups or SIGTERM
// to send them, and its npm.cmd runs only through a shell).
describe.skipIf(process.platform === 'win32')('npm run web', () => {
  it('prints a one-time URL as one JSON line, a new one per line on stdin, serves the page, and stops on SIGTERM', async () => {
    const started = await startWeb(['--renderer', fakeRendererDir().dir]);
    const printed = JSON.parse(started.line) as { url: string };
    expect(Object.keys(printed)).toEqual(['url']);
    expect(printed.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#k=[A-Za-z0-9_-]{43}$/);
    const page = await fetch(printed.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<meta name="procure-desk-bridge" content="/bridge" />');
    expect(started.stderr()).toContain('NOTICE: no --data folder');
    expect(started.stderr()).toContain('Press Enter here for a new one');
    const secret = printed.url.split('#k=')[1] ?? '';
    expect(started.stderr()).not.toContain(secret);

    expect((await redeemLaunchUrl(printed.url)).status).toBe(204);
    expect((await redeemLaunchUrl(printed.url)).status).toBe(403);
    const another = started.nextLine();
    started.child.stdin?.write('\n');
    const second = JSON.parse(await another) as { url: string };
    expect(second.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#k=[A-Za-z0-9_-]{43}$/);
    expect(second.url).not.toBe(printed.url);
    expect((await redeemLaunchUrl(second.url)).status).toBe(204);
    expect(started.stderr()).not.toContain(second.url.split('#k=')[1] ?? '');
    // The whole group (npm, tsx, node) gets it, as from a terminal; npm itself dies of the signal.
    process.kill(-(started.child.pid ?? 0), 'SIGTERM');
    await started.exited;
    await expect.poll(() => started.stderr()).toContain('stopping (SIGTERM)');
    await expect(fetch(printed.url)).rejects.toThrow();
  });

  it('stops when stdin closes, if asked', async () => {
    const started = await startWeb(['--renderer', fakeRendererDir().dir, '--exit-on-stdin-close']);
    expect(started.line, started.stderr()).toContain('"url"');
    started.child.stdin?.end();
    expect(await started.exited).toBe(0);
  });

  it('keeps a --data folder under PROCURE_PASSPHRASE (the CLI\'s secret file), and does not remove it', async () => {
    const { dir, parent } = fakeRendererDir();
    const data = join(parent, 'data');
    const started = await startWeb(['--renderer', dir, '--data', data, '--exit-on-stdin-close'], { PROCURE_PASSPHRASE: 'correct horse battery staple' });
    expect(started.line).toContain('"url"');
    expect(started.stderr()).not.toContain('NOTICE');
    started.child.stdin?.end();
    expect(await started.exited).toBe(0);
    expect(existsSync(join(data, 'secrets.json'))).toBe(true);
    expect(existsSync(join(data, 'procure-desk.sqlite'))).toBe(true);
  });

  it('refuses an unknown flag, --data without a passphrase, and a missing build, with exit code 2', async () => {
    const unknown = await startWeb(['--bogus']);
    expect(await unknown.exited).toBe(2);
    expect(unknown.stderr()).toContain('unknown option --bogus');
    const noPassphrase = await startWeb(['--renderer', fakeRendererDir().dir, '--data', fakeRendererDir().parent]);
    expect(await noPassphrase.exited).toBe(2);
    expect(noPassphrase.stderr()).toContain('--data needs PROCURE_PASSPHRASE');
    const notBuilt = await startWeb(['--renderer', fakeRendererDir().parent + '/nothing-here']);
    expect(await notBuilt.exited).toBe(2);
    expect(notBuilt.stderr()).toContain('electron-vite build');
  });
});
