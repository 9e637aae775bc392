// Electron main with core in its own process, against the fake `electron` module whose utilityProcess runs
// the real core entry in a real child: main starts it with its init and no secret in argv or the
// environment; a renderer call through the IPC binding is answered by that process; the core reaches
// main's secret store (safeStorage) and AppHost (the demo merchant) only over its port; after the process
// is killed main starts another and the renderer hears `core.state` reconnecting then ready; quitting
// stops it cleanly with no restart.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { BrowserWindow } from 'electron';
import { APP_INDEX_URL } from '../../src/main/app-protocol';
import { SAFE_STORAGE_FILE } from '../../src/main/secrets/desktop-secret-store';
import type { MainServices } from '../../src/main/main-services';
import { createAppUrlMatcher } from '../../src/main/security';
import { ipcChannelName, ipcEventName } from '../../src/shared/ipc/ipc-names';
import type { ChannelName } from '../../src/shared/ipc/contract';
import { fakeElectron } from './fake-electron-app';
import { fakeWebContents } from './fake-electron-ipc';

vi.mock('electron', async () => (await import('./fake-electron-app')).electronModule);
vi.mock('../../resources/icon.png?asset', () => ({ default: '/icon.png' }));

const repo = join(import.meta.dirname, '../..');
const ENV_KEY = 'AK_from_the_environment_0123456789';
const ENV_PASSPHRASE = 'passphrase from the environment';

const sent: { channel: string; payload: unknown }[] = [];
const contents = Object.assign(fakeWebContents(), { send: (channel: string, payload: unknown) => sent.push({ channel, payload }) });
// main-services reads only webContents of its window.
const window = { webContents: contents } as unknown as BrowserWindow;
let services: MainServices | null = null;
/** The demo merchant's key, as core stored it in main's secret store. */
let demoKey = '';

const call = (channel: ChannelName, input?: unknown): Promise<unknown> => fakeElectron.ipcMain.invoke(ipcChannelName(channel), contents, contents.mainFrame, input);
const coreStates = (): unknown[] => sent.filter((s) => s.channel === ipcEventName('core.state')).map((s) => s.payload);
const hostCalls = (received: readonly unknown[]): unknown[] => received.filter((m): m is { t: string } => typeof m === 'object' && m !== null && 't' in m && m.t === 'hostCall');

afterAll(async () => {
  await services?.stop();
  rmSync(fakeElectron.userData, { recursive: true, force: true });
});

describe('main with core in its own process', () => {
  it('starts core through utilityProcess with its init and no secret in argv or the environment, and relays the renderer to it', async () => {
    process.env['PROCURE_API_KEY'] = ENV_KEY;
    process.env['PROCURE_PASSPHRASE'] = ENV_PASSPHRASE;
    try {
      const { startMainServices } = await import('../../src/main/main-services');
      let opened = 0;
      services = await startMainServices({
        isAppUrl: createAppUrlMatcher(APP_INDEX_URL),
        mainWindow: () => window,
        showWindow: () => undefined,
        unlock: { ask: () => Promise.resolve(null), opened: () => (opened += 1), dispose: () => undefined },
      });
      expect(opened).toBe(1);
    } finally {
      delete process.env['PROCURE_API_KEY'];
      delete process.env['PROCURE_PASSPHRASE'];
    }

    expect(fakeElectron.forks).toHaveLength(1);
    const [first] = fakeElectron.forks;
    if (first === undefined) throw new Error('no fork');
    // Beside main's own file: out/main/core-process.js in the app, src/main here.
    expect(first.modulePath).toBe(join(repo, 'src/main/core-process.js'));
    expect(first.args).toEqual([]);
    expect(first.options.serviceName).toBe('Procure Desk core');
    const env = first.options.env ?? {};
    expect(Object.keys(env).filter((name) => name.startsWith('PROCURE'))).toEqual([]);
    expect(JSON.stringify(env)).not.toContain(ENV_KEY);
    expect(JSON.stringify(env)).not.toContain(ENV_PASSPHRASE);
    expect(first.child.posted[0]).toEqual({
      t: 'init',
      init: { dataDir: join(fakeElectron.userData, 'data'), logLevel: 'info', secretStoreKind: 'safe-storage', capabilities: { writeClipboard: true, chooseExportPath: true, usePassphraseFile: true, desktop: { closeToTray: 'tray', startAtLogin: 'notInstalled' } } },
    });
    expect(JSON.stringify(first.child.posted)).not.toContain(ENV_KEY);

    // The renderer's call goes through main's IPC binding to the core process and back.
    expect(await call('connection.status')).toMatchObject({ ok: true, value: { connected: false, keyStored: false, secretStore: 'safe-storage', demo: false } });
    expect(first.child.posted).toContainEqual(expect.objectContaining({ t: 'call', channel: 'connection.status' }));
    expect(coreStates()).toEqual([{ state: 'ready' }]);
  });

  it('lets core use main’s AppHost and secret store only over its port: the demo merchant runs in main, its key lands in safeStorage', async () => {
    const [first] = fakeElectron.forks;
    if (first === undefined) throw new Error('no fork');
    expect(await call('connection.startDemo')).toMatchObject({ ok: true });
    expect(hostCalls(first.child.received)).toEqual(
      expect.arrayContaining([expect.objectContaining({ method: 'startDemoMerchant' }), expect.objectContaining({ method: 'secrets.set', args: ['merchant.api-key', expect.any(String)] })]),
    );
    // Main's store wrote it, encrypted by (fake) safeStorage: the file names the secret, never its value.
    const apiKey = hostCalls(first.child.received)
      .map((m) => (m as { method: string; args: unknown[] }))
      .find((m) => m.method === 'secrets.set' && m.args[0] === 'merchant.api-key')?.args[1];
    if (typeof apiKey !== 'string') throw new Error('no API key was stored');
    demoKey = apiKey;
    const stored = readFileSync(join(fakeElectron.userData, SAFE_STORAGE_FILE), 'utf8');
    expect(stored).toContain('merchant.api-key');
    expect(stored).not.toContain(apiKey);
    expect(await call('connection.status')).toMatchObject({ ok: true, value: { connected: true, keyStored: true, demo: true } });
  });

  it('starts core again after its process is killed: the renderer hears reconnecting then ready, and the new process reads the key from main', async () => {
    const [first] = fakeElectron.forks;
    const pid = first?.child.pid;
    if (first === undefined || pid === undefined) throw new Error('no running core');
    process.kill(pid, 'SIGKILL');
    await vi.waitFor(() => expect(coreStates()).toEqual([{ state: 'ready' }, { state: 'reconnecting' }, { state: 'ready' }]), { timeout: 30_000 });
    expect(fakeElectron.forks).toHaveLength(2);
    const second = fakeElectron.forks[1];
    expect(second?.child.pid).not.toBe(pid);
    expect(second?.args).toEqual([]);
    expect(await call('connection.status')).toMatchObject({ ok: true, value: { connected: true, keyStored: true } });
    expect(hostCalls(second?.child.received ?? [])).toContainEqual(expect.objectContaining({ method: 'secrets.get', args: ['merchant.api-key'] }));
  });

  it('stops core on quit: the process closes and exits, nothing restarts it, and core’s lines are in main’s log file', async () => {
    const running = services;
    const second = fakeElectron.forks[1];
    const pid = second?.child.pid;
    if (running === null || second === undefined || pid === undefined) throw new Error('no running core');
    services = null;
    const wal = join(fakeElectron.userData, 'data', 'procure-desk.sqlite-wal');
    expect(existsSync(wal)).toBe(true);
    await running.stop();
    expect(second.child.exitCode).toBe(0);
    expect(second.child.received).toContainEqual({ t: 'stopped' });
    expect(() => process.kill(pid, 0)).toThrow();
    // A restart would follow an exit within the supervisor's first delay (100 ms); none comes.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(fakeElectron.forks).toHaveLength(2);
    // SQLite closed cleanly in the core process: its write-ahead log was checkpointed away.
    expect(existsSync(wal)).toBe(false);
    const log = readFileSync(join(fakeElectron.userData, 'procure-desk.log'), 'utf8');
    // A line of core's own (written in the core process) and one of main's supervisor.
    expect(log).toContain('connected to merchant');
    expect(log).toContain('the core process ended; restarting it');
    expect(log).not.toContain(demoKey);
  });
});
