// How `npm run web` ends (issue 26), as real processes: started through npm in a process group of its
// own, then Ctrl+C as a terminal sends it (SIGINT to the whole group, twice: a hurried buyer), SIGTERM to npm alone, npm killed outright (the host's parent: npm's shell
// execs it). Each time no process of the group is left (npm, the host, its core
// process) and the temporary data folder the notice promised to remove is gone. A folder left by a
// host killed with SIGKILL is removed by the next start.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { removeAbandonedFolders } from '../../src/web-host/web-host-storage';
import { fakeRendererDir } from './web-host-kit';

interface Host {
  npm: ChildProcess;
  /** The process group: npm's pid (started detached). */
  group: number;
  folder: string;
  stderr: () => string;
}

const started: Host[] = [];
afterAll(() => {
  // Whatever a failed test left: the groups we started, and only those.
  for (const host of started) for (const pid of groupPids(host.group)) killQuietly(pid, 'SIGKILL');
});

function killQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Gone already.
  }
}

/** The pids of a process group, read from /proc (field 5 of stat, after the parenthesised name). */
function groupPids(group: number): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === group && state !== 'Z') pids.push(Number(name));
  }
  return pids;
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

async function startHost(): Promise<Host> {
  const npm = spawn('npm', ['run', '--silent', 'web', '--', '--renderer', fakeRendererDir().dir], {
    cwd: process.cwd(),
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
    env: { ...process.env, PROCURE_PASSPHRASE: '' },
  });
  let stderr = '';
  npm.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const lines = createInterface({ input: npm.stdout as NodeJS.ReadableStream });
  const host: Host = { npm, group: npm.pid ?? 0, folder: '', stderr: () => stderr };
  started.push(host);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`web host did not start in time; stderr:\n${stderr}`)), 60_000);
    lines.once('line', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  // The notice that says how to stop it comes right after the URL, naming the folder it removes.
  await expect.poll(() => stderr, { timeout: 10_000 }).toMatch(/\[web\] to stop it: press Ctrl\+C here \(the temporary folder (\S+) is removed\)/);
  host.folder = /the temporary folder (\S+) is removed/.exec(stderr)?.[1] ?? '';
  expect(existsSync(host.folder)).toBe(true);
  expect(host.folder).toMatch(new RegExp(`procure-desk-web-\\d+-[A-Za-z0-9]{6}$`));
  // npm, the host (node --import tsx: no tsx relay that would kill it 30 ms after a Ctrl+C) and core.
  expect(groupPids(host.group).length, groupPids(host.group).map(commandLine).join('\n')).toBeGreaterThanOrEqual(3);
  return host;
}

async function expectAllGone(host: Host): Promise<void> {
  await expect.poll(() => groupPids(host.group).map(commandLine), { timeout: 30_000, interval: 200 }).toEqual([]);
  expect(existsSync(host.folder), host.stderr()).toBe(false);
}

// Linux only: a process group's members are read from /proc (macOS has none) and Windows has neither
// process groups nor Ctrl+C as a signal to one.
describe.runIf(process.platform === 'linux')('npm run web ends with everything it started', () => {
  it('Ctrl+C (SIGINT to the whole group, twice): no process and no temporary folder left', async () => {
    const host = await startHost();
    process.kill(-host.group, 'SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 300));
    killQuietly(-host.group, 'SIGINT'); // the group may already be gone: a quick stop takes less than 300 ms
    await expectAllGone(host);
    expect(host.stderr()).toContain('[web] stopping (SIGINT)');
  }, 120_000);

  it('SIGTERM to npm alone (what a test runner or `kill <pid>` does): nothing left', async () => {
    const host = await startHost();
    process.kill(host.group, 'SIGTERM');
    await expectAllGone(host);
  }, 120_000);

  it('npm killed outright (SIGKILL): the host notices its launcher is gone and stops', async () => {
    const host = await startHost();
    process.kill(host.group, 'SIGKILL');
    await expectAllGone(host);
    expect(host.stderr()).toContain('stopping (npm exited)');
  }, 120_000);
});

describe('folders of hosts that were killed', () => {
  it('are removed at the next start when their pid no longer runs; a running host\'s folder stays', () => {
    const parent = mkdtempSync(join(tmpdir(), 'procure-web-abandoned-'));
    try {
      const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
      const deadPid = Number(dead.stdout);
      const abandoned = join(parent, `procure-desk-web-${deadPid}-Ab12Cd`);
      const running = join(parent, `procure-desk-web-${process.ppid}-Ef34Gh`);
      const own = join(parent, `procure-desk-web-${process.pid}-Ij56Kl`);
      const someoneElses = join(parent, 'procure-desk-web-notapid');
      for (const dir of [abandoned, running, own, someoneElses]) mkdirSync(join(dir, 'exports'), { recursive: true });
      expect(removeAbandonedFolders(parent)).toEqual([`procure-desk-web-${deadPid}-Ab12Cd`]);
      expect(existsSync(abandoned)).toBe(false);
      for (const dir of [running, own, someoneElses]) expect(existsSync(dir)).toBe(true);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
