// The shell's start at login, against a fake `electron` module: started with --hidden (Windows, Linux)
// the main window is loaded but never shown until the buyer opens it, and closing the window index.ts
// created hides it (the lifecycle is wired to it) while a quit passes the guard, which asks core first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'pd-main-hidden-'));
const windows: FakeBrowserWindow[] = [];
const appHandlers = new Map<string, ((event: { preventDefault(): void }) => void)[]>();
const inFlight = vi.fn(() => Promise.resolve({ notSent: 0, awaitingAnswer: 0 }));
const windowHidden = vi.fn();

class FakeBrowserWindow {
  static getAllWindows(): FakeBrowserWindow[] {
    return windows;
  }
  readonly handlers = new Map<string, ((event: { preventDefault(): void }) => void)[]>();
  shows = 0;
  hides = 0;
  readonly webContents = { isLoading: () => false, once: () => undefined };
  constructor(readonly options: { show?: boolean }) {
    windows.push(this);
  }
  loadURL(): Promise<void> {
    return Promise.resolve();
  }
  once(event: string, listener: (event: { preventDefault(): void }) => void): void {
    this.on(event, listener);
  }
  on(event: string, listener: (event: { preventDefault(): void }) => void): void {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), listener]);
  }
  emit(event: string): boolean {
    let prevented = false;
    for (const listener of this.handlers.get(event) ?? []) listener({ preventDefault: () => (prevented = true) });
    return prevented;
  }
  show(): void {
    this.shows += 1;
  }
  hide(): void {
    this.hides += 1;
  }
  isMinimized(): boolean {
    return false;
  }
  focus(): void {}
}

vi.mock('electron', () => ({
  app: {
    enableSandbox: () => undefined,
    requestSingleInstanceLock: () => true,
    on: (event: string, listener: (event: { preventDefault(): void }) => void) => appHandlers.set(event, [...(appHandlers.get(event) ?? []), listener]),
    whenReady: () => Promise.resolve(),
    isPackaged: false,
    getPreferredSystemLanguages: () => ['en-US'],
    getPath: () => dir,
    getVersion: () => '0.1.0',
    quit: () => undefined,
    exit: () => undefined,
  },
  protocol: { registerSchemesAsPrivileged: () => undefined, handle: () => undefined },
  session: { defaultSession: { setPermissionRequestHandler: () => undefined, setPermissionCheckHandler: () => undefined, webRequest: { onHeadersReceived: () => undefined }, registerPreloadScript: () => undefined } },
  BrowserWindow: FakeBrowserWindow,
  ipcMain: { handle: () => undefined, removeHandler: () => undefined },
  dialog: { showMessageBox: () => Promise.resolve({ response: 1 }), showErrorBox: () => undefined },
}));
vi.mock('../../resources/icon.png?asset', () => ({ default: '/icon.png' }));
vi.mock('../../src/main/main-services', async () => {
  const { labelsFor } = await import('../../src/main/app-locale');
  return {
    startMainServices: () =>
      Promise.resolve({ labels: () => labelsFor('en'), closeToTray: () => true, inFlight, windowHidden, announce: () => undefined, stop: () => Promise.resolve() }),
  };
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('started at login', () => {
  it('loads the window hidden, closing it hides it, and a quit asks core for the orders in flight', async () => {
    const savedPlatform = process.platform;
    Object.defineProperty(process, 'platform', { value: 'win32' });
    Object.defineProperty(process, 'resourcesPath', { value: dir, configurable: true });
    process.argv.push('--hidden');
    try {
      await import('../../src/main/index');
      await vi.waitFor(() => expect(windows).toHaveLength(1));
      const [window] = windows;
      if (window === undefined) throw new Error('no window');
      window.emit('ready-to-show');
      expect(window.shows).toBe(0);

      expect(window.emit('close')).toBe(true);
      expect(window.hides).toBe(1);
      expect(windowHidden).toHaveBeenCalledTimes(1);

      let prevented = false;
      for (const listener of appHandlers.get('before-quit') ?? []) listener({ preventDefault: () => (prevented = true) });
      expect(prevented).toBe(true);
      await vi.waitFor(() => expect(inFlight).toHaveBeenCalledTimes(1));
    } finally {
      process.argv.pop();
      Object.defineProperty(process, 'platform', { value: savedPlatform });
    }
  });
});
