// Start at login, hidden (contract §17.3): Windows' Run entry names the executable with --hidden,
// macOS registers the app and tells a login start by wasOpenedAtLogin, Linux writes an XDG autostart
// entry naming the AppImage (which follows the AppImage when it moved), an unpackaged build offers
// nothing; the setting changed in Settings reaches the system, and a refusal puts the setting back.
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { autostartEntry, execArgument, loginItemPort, startedHidden, syncLoginItem, type LoginItemApp } from '../../src/main/login-item';
import { createDesktopPreferences } from '../../src/main/desktop-preferences';
import type { IpcCallHandler } from '../../src/main/ipc/bind-ipc-handlers';
import type { Settings } from '../../src/shared/ipc/views/settings';

const dir = mkdtempSync(join(tmpdir(), 'pd-login-item-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fakeApp(wasOpenedAtLogin = false): LoginItemApp & { calls: unknown[]; on: boolean } {
  const app = {
    calls: [] as unknown[],
    on: false,
    setLoginItemSettings(settings: { openAtLogin: boolean }) {
      app.calls.push(settings);
      app.on = settings.openAtLogin;
    },
    getLoginItemSettings: () => ({ openAtLogin: app.on, wasOpenedAtLogin }),
  };
  return app;
}

const base = { isPackaged: true, execPath: 'C:\\Program Files\\Procure Desk\\Procure Desk.exe', appImage: undefined, configHome: join(dir, 'config') };

describe('start at login', () => {
  it('registers the Windows executable with --hidden, and the macOS app as it is', () => {
    const app = fakeApp();
    const windows = loginItemPort({ ...base, platform: 'win32', app });
    expect(windows.kind).toBe('loginItem');
    syncLoginItem(windows, true);
    expect(app.calls).toEqual([{ openAtLogin: true, path: base.execPath, args: ['--hidden'] }]);
    // Already on: nothing written again (a Run entry switched off in Task Manager stays off).
    syncLoginItem(windows, true);
    expect(app.calls).toHaveLength(1);
    windows.set(false);
    expect(app.calls[1]).toEqual({ openAtLogin: false, path: base.execPath, args: ['--hidden'] });

    const mac = fakeApp();
    loginItemPort({ ...base, platform: 'darwin', app: mac }).set(true);
    expect(mac.calls).toEqual([{ openAtLogin: true }]);
  });

  it('writes an XDG autostart entry on Linux that starts the AppImage hidden, follows a moved AppImage, and removes it when off', () => {
    const app = fakeApp();
    const file = join(base.configHome, 'autostart', 'procure-desk.desktop');
    const linux = loginItemPort({ ...base, platform: 'linux', app, execPath: '/tmp/.mount_abc/procure-desk', appImage: '/home/buyer/Apps/Procure Desk.AppImage' });
    expect(linux.kind).toBe('autostartFile');
    expect(linux.isOn()).toBe(false);
    syncLoginItem(linux, true);
    const entry = readFileSync(file, 'utf8');
    expect(entry).toContain('[Desktop Entry]\nType=Application\n');
    expect(entry).toContain('Exec="/home/buyer/Apps/Procure Desk.AppImage" --hidden\n');
    expect(entry).not.toContain('.mount_abc');
    expect(app.calls).toEqual([]);
    expect(linux.isOn()).toBe(true);

    const moved = loginItemPort({ ...base, platform: 'linux', app, execPath: '/tmp/.mount_def/procure-desk', appImage: '/opt/Procure Desk.AppImage' });
    expect(moved.isOn()).toBe(false);
    syncLoginItem(moved, true);
    expect(readFileSync(file, 'utf8')).toContain('Exec="/opt/Procure Desk.AppImage" --hidden\n');
    syncLoginItem(moved, false);
    expect(existsSync(file)).toBe(false);
  });

  it('quotes the path as the Desktop Entry spec asks, and refuses one with a line break', () => {
    expect(execArgument('/a/b c')).toBe('"/a/b c"');
    // " ` $ \ escaped inside the quotes, then the backslashes escaped again as a string; % doubled.
    expect(execArgument('/a/"x"$y`z\\w%')).toBe('"/a/\\\\"x\\\\"\\\\$y\\\\`z\\\\\\\\w%%"');
    expect(() => execArgument('/a\nb')).toThrow(/line break/);
    expect(autostartEntry('/p')).toContain('Name[zh_CN]=采购台\n');
  });

  it('offers nothing in an unpackaged build: turning it on is refused, off is nothing to do', () => {
    const app = fakeApp();
    const port = loginItemPort({ ...base, isPackaged: false, platform: 'win32', app });
    expect(port.kind).toBe('notInstalled');
    expect(() => port.set(true)).toThrow(/installed app/);
    syncLoginItem(port, true);
    port.set(false);
    expect(app.calls).toEqual([]);
  });

  it('tells a start at login: --hidden on Windows and Linux, wasOpenedAtLogin on macOS', () => {
    expect(startedHidden('win32', ['Procure Desk.exe', '--hidden'], fakeApp())).toBe(true);
    expect(startedHidden('linux', ['procure-desk'], fakeApp())).toBe(false);
    expect(startedHidden('darwin', ['Procure Desk'], fakeApp(true))).toBe(true);
    expect(startedHidden('darwin', ['Procure Desk', '--hidden'], fakeApp(false))).toBe(false);
  });

  it('follows the setting changed in Settings, and puts it back with words when the system refuses', async () => {
    let stored: Settings = { language: 'system', theme: 'system', webhookTunnel: 'off', webhookPort: 0, webhookNotice: 'none', lowBalanceFen: 100_00, closeToTray: true, startAtLogin: false };
    const service: IpcCallHandler = {
      handle: vi.fn((channel: string, input: unknown) => {
        if (channel === 'settings.set') stored = { ...stored, ...(input as Partial<Settings>) };
        return Promise.resolve({ ok: true as const, value: stored });
      }),
    };
    const app = fakeApp();
    const port = loginItemPort({ ...base, platform: 'win32', app });
    const preferences = createDesktopPreferences({ systemLanguages: () => ['en-US'], loginItem: port, relabel: () => undefined, warn: () => undefined });
    const watched = preferences.watch(service);
    expect(await watched.handle('settings.set', { startAtLogin: true })).toMatchObject({ ok: true, value: { startAtLogin: true } });
    expect(app.on).toBe(true);
    expect(await watched.handle('settings.set', { startAtLogin: false })).toMatchObject({ ok: true, value: { startAtLogin: false } });
    expect(app.on).toBe(false);

    const refusing = createDesktopPreferences({
      systemLanguages: () => ['en-US'],
      loginItem: { kind: 'loginItem', isOn: () => false, set: () => { throw new Error('access denied'); } },
      relabel: () => undefined,
      warn: () => undefined,
    }).watch(service);
    expect(await refusing.handle('settings.set', { startAtLogin: true })).toEqual({ ok: false, error: { code: 'ACTION_NOT_ALLOWED', message: 'the system did not change whether Procure Desk starts at login: access denied' } });
    expect(stored.startAtLogin).toBe(false);
  });
});
