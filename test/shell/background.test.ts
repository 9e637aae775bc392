// The desktop app in the background (contract §17), main's wiring run for real against the fake `electron`
// module whose utilityProcess runs the real core in a real child: closing the window on Windows and
// Linux hides it and core keeps running (the once-only notice says so, in the app's language); macOS
// hides it too; with close to tray off, closing is quitting; quitting asks while orders are in flight
// (named and counted from core's database), keeps running on "keep running" and stops core on "quit";
// the menus and the tray follow the language setting at once.
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BrowserWindow } from 'electron';
import { APP_INDEX_URL } from '../../src/main/app-protocol';
import { createAppLifecycle, type LifecycleApp } from '../../src/main/app-lifecycle';
import type { MainServices } from '../../src/main/main-services';
import type { QuitQuestion } from '../../src/main/quit-guard';
import { createAppUrlMatcher } from '../../src/main/security';
import { insertIntent } from '../../src/core/orders/order-intent-store';
import { ipcChannelName } from '../../src/shared/ipc/ipc-names';
import type { ChannelName } from '../../src/shared/ipc/contract';
import { fakeElectron } from './fake-electron-app';
import { fakeWebContents } from './fake-electron-ipc';

vi.mock('electron', async () => (await import('./fake-electron-app')).electronModule);
vi.mock('../../resources/icon.png?asset', () => ({ default: '/icon.png' }));

const contents = Object.assign(fakeWebContents(), { send: () => undefined, isLoading: () => false, once: () => undefined });
let services: MainServices | null = null;
const { shell } = fakeElectron;

const call = (channel: ChannelName, input?: unknown): Promise<unknown> => fakeElectron.ipcMain.invoke(ipcChannelName(channel), contents, contents.mainFrame, input);

interface Preventable {
  readonly event: { preventDefault(): void };
  prevented(): boolean;
}
function preventable(): Preventable {
  let prevented = false;
  return { event: { preventDefault: () => (prevented = true) }, prevented: () => prevented };
}

/** The main window as the lifecycle sees it: 'close' can be prevented, hide() is counted. */
class FakeWindow extends EventEmitter {
  hides = 0;
  hide(): void {
    this.hides += 1;
  }
  /** What Electron does when the user clicks the window's close button: answers whether it closed. */
  close(): boolean {
    const close = preventable();
    this.emit('close', close.event);
    return !close.prevented();
  }
}

/** Electron's app quitting as it does: before-quit (preventable), the windows close, will-quit (preventable), the end. */
class FakeApp extends EventEmitter implements LifecycleApp {
  quits = 0;
  ended = false;
  constructor(private readonly windows: FakeWindow[]) {
    super();
  }
  quit(): void {
    this.quits += 1;
    const before = preventable();
    this.emit('before-quit', before.event);
    if (before.prevented()) return;
    if (!this.windows.every((window) => window.close())) return;
    const will = preventable();
    this.emit('will-quit', will.event);
    if (!will.prevented()) this.ended = true;
  }
  getPreferredSystemLanguages(): string[] {
    return ['en-US'];
  }
}

function running(): MainServices {
  if (services === null) throw new Error('main services are not running');
  return services;
}

/** Main's services with stop() counted instead of done, so a quit can be seen without ending core. */
function withCountedStop(): { services: MainServices; stops: () => number } {
  let stops = 0;
  return {
    services: {
      ...running(),
      stop: () => {
        stops += 1;
        return Promise.resolve();
      },
    },
    stops: () => stops,
  };
}

function lifecycleOn(platform: NodeJS.Platform, current: () => MainServices | null, ask: (question: QuitQuestion) => Promise<boolean> = () => Promise.reject(new Error('not asked'))) {
  const window = new FakeWindow();
  const app = new FakeApp([window]);
  createAppLifecycle({ app, platform, services: current, ask }).attachWindow(window);
  return { app, window };
}

function corePid(): number {
  const pid = fakeElectron.forks[0]?.child.pid;
  if (pid === undefined) throw new Error('no core process');
  return pid;
}

/** Core is alive and answers the renderer. */
async function expectCoreRunning(): Promise<void> {
  expect(() => process.kill(corePid(), 0)).not.toThrow();
  expect(fakeElectron.forks[0]?.child.received).not.toContainEqual({ t: 'stopped' });
  expect(await call('connection.status')).toMatchObject({ ok: true, value: { connected: false } });
}

const labelsOf = (items: readonly { label?: string }[] | null): (string | undefined)[] => (items ?? []).filter((item) => item.label !== undefined).map((item) => item.label);

beforeAll(async () => {
  shell.notificationsSupported = true;
  const { startMainServices } = await import('../../src/main/main-services');
  const window = { webContents: contents, isLoading: () => false } as unknown as BrowserWindow;
  services = await startMainServices({
    isAppUrl: createAppUrlMatcher(APP_INDEX_URL),
    mainWindow: () => window,
    showWindow: () => undefined,
    unlock: { ask: () => Promise.resolve(null), opened: () => undefined, dispose: () => undefined },
  });
});

afterAll(async () => {
  await services?.stop();
});

describe('the desktop app in the background', () => {
  it('labels the menus and the tray in the app’s language, and relabels them at once when the buyer switches it', async () => {
    expect(labelsOf(shell.applicationMenu)).toEqual(['File', 'Edit', 'View', 'Window', 'Help']);
    expect(labelsOf(shell.trayMenu)).toEqual(['Show Procure Desk', 'Quit']);
    // Quitting is explicit, Ctrl+Q on Windows and Linux too (Electron's role has none there).
    expect(shell.applicationMenu?.[0]?.submenu?.find((item) => item.role === 'quit')).toMatchObject({ label: 'Quit', accelerator: 'CommandOrControl+Q' });

    expect(await call('settings.set', { language: 'zh-CN' })).toMatchObject({ ok: true, value: { language: 'zh-CN' } });
    expect(labelsOf(shell.applicationMenu)).toEqual(['文件', '编辑', '视图', '窗口', '帮助']);
    expect(labelsOf(shell.trayMenu)).toEqual(['显示采购台', '退出']);
    expect(shell.trayToolTip).toBe('采购台');
    expect(running().labels().quit).toBe('退出');

    // "system" follows the system's languages (English here).
    await call('settings.set', { language: 'system' });
    expect(labelsOf(shell.applicationMenu)).toEqual(['File', 'Edit', 'View', 'Window', 'Help']);
    expect(labelsOf(shell.trayMenu)).toEqual(['Show Procure Desk', 'Quit']);
    await call('settings.set', { language: 'zh-CN' });
    expect(shell.trayToolTip).toBe('采购台');
  });

  it('says what this host can do of the desktop settings, and stores them with the others (close to tray on, start at login off by default)', async () => {
    // An unpackaged build on Linux: the tray, and no login item (it would start Electron itself).
    expect(await call('settings.desktop')).toEqual({ ok: true, value: { closeToTray: 'tray', startAtLogin: 'notInstalled' } });
    expect(await call('settings.get')).toMatchObject({ ok: true, value: { closeToTray: true, startAtLogin: false } });
    // Turning it on here is refused in words and the setting stays off.
    const refused = await call('settings.set', { startAtLogin: true });
    expect(refused).toMatchObject({ ok: false, error: { code: 'ACTION_NOT_ALLOWED', message: expect.stringContaining('starts at login') as string } });
    expect(await call('settings.get')).toMatchObject({ ok: true, value: { startAtLogin: false } });
  });

  it('hides the window to the tray when it is closed on Windows and Linux, keeps core running, and says so once, in the app’s language', async () => {
    const marker = join(fakeElectron.userData, 'tray-notice');
    expect(existsSync(marker)).toBe(false);
    for (const platform of ['win32', 'linux'] as const) {
      const { app, window } = lifecycleOn(platform, () => services);
      expect(window.close()).toBe(false);
      expect(window.hides).toBe(1);
      expect(app.quits).toBe(0);
      await expectCoreRunning();
    }
    // Once: the second hide (Linux after Windows) showed nothing more.
    expect(shell.notifications.map((n) => [n.options.title, n.shown])).toEqual([['采购台仍在运行', true]]);
    expect(shell.notifications[0]?.options.body).toContain('Ctrl+Q');
    expect(existsSync(marker)).toBe(true);
  });

  it('hides the window on macOS too, where the app stays in the Dock, without the tray notice', async () => {
    const before = shell.notifications.length;
    const { app, window } = lifecycleOn('darwin', () => services);
    expect(window.close()).toBe(false);
    expect(window.hides).toBe(1);
    expect(app.quits).toBe(0);
    expect(shell.notifications).toHaveLength(before);
    await expectCoreRunning();
  });

  it('quits without asking when no order is in flight; with close to tray off, closing the window is quitting', async () => {
    await call('settings.set', { language: 'en', closeToTray: false });
    const counted = withCountedStop();
    const ask = vi.fn(() => Promise.resolve(true));
    const { app, window } = lifecycleOn('win32', () => counted.services, ask);
    expect(window.close()).toBe(false);
    await vi.waitFor(() => expect(app.ended).toBe(true));
    expect(window.hides).toBe(0);
    expect(ask).not.toHaveBeenCalled();
    expect(counted.stops()).toBe(1);
    await call('settings.set', { closeToTray: true });
    await expectCoreRunning();
  });

  it('asks before quitting while orders are in flight, naming them: keep running leaves core working, quit stops it cleanly', async () => {
    // Orders the outbox still holds, written behind the app's back into its own database.
    const db = new Database(join(fakeElectron.userData, 'data', 'procure-desk.sqlite'));
    const now = Math.floor(Date.now() / 1000);
    for (const ref of ['o_quit_1', 'o_quit_2', 'o_quit_3']) {
      insertIntent(db, { clientOrderRef: ref, batchId: null, productRef: 1001, variantRef: 0, productType: 'card', units: 1, purchaseSchemaRevision: null, purchaseEntries: [], optionLabels: [], orderCallbackUrl: null, imageUrl: null, confirmedUnitPriceFen: 9250 }, now);
    }
    db.prepare("UPDATE order_intents SET status = 'unknown', attempts = 1 WHERE client_order_ref = 'o_quit_3'").run();
    db.close();
    expect(await call('orders.inFlight')).toEqual({ ok: true, value: { notSent: 2, awaitingAnswer: 1 } });

    const answers = [false, true];
    const ask = vi.fn((question: QuitQuestion) => {
      void question;
      return Promise.resolve(answers.shift() ?? false);
    });
    const { app, window } = lifecycleOn('linux', () => services, ask);
    app.quit();
    // Ctrl+Q pressed again while the question is open: still one question.
    app.quit();
    await vi.waitFor(() => expect(ask).toHaveBeenCalledTimes(1));
    expect(ask.mock.calls[0]?.[0]).toEqual({
      title: 'Orders are still in progress',
      message: '2 orders have not been sent to the merchant yet. 1 order was sent and the merchant has not answered yet.',
      detail: 'Orders not yet sent wait and are sent when Procure Desk starts again. The merchant may still complete orders already sent; Procure Desk checks them when it starts again.',
      quit: 'Quit anyway',
      keep: 'Keep running',
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(app.ended).toBe(false);
    await expectCoreRunning();

    const child = fakeElectron.forks[0]?.child;
    app.quit();
    await vi.waitFor(() => expect(app.ended).toBe(true), { timeout: 15_000 });
    expect(ask).toHaveBeenCalledTimes(2);
    expect(window.hides).toBe(0);
    services = null;
    expect(child?.exitCode).toBe(0);
    expect(child?.received).toContainEqual({ t: 'stopped' });
    expect(fakeElectron.forks).toHaveLength(1);
  });
});
