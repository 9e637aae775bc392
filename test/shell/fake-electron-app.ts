// A fake `electron` module for tests that run main's wiring (main-services.ts) for real: the members main
// uses, each behaving as Electron's does for what main reads of it. utilityProcess is the real-child fake
// (fake-utility-process.ts); safeStorage "encrypts" reversibly with a marker so the plain text never
// shows on disk; ipcMain records handlers (fake-electron-ipc.ts). Use it with
// `vi.mock('electron', async () => (await import('./fake-electron-app')).electronModule)` and read the
// state the test needs from `fakeElectron`.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakeIpcMain } from './fake-electron-ipc';
import { fakeUtilityProcess } from './fake-utility-process';

const userData = mkdtempSync(join(tmpdir(), 'pd-fake-electron-'));
const utility = fakeUtilityProcess();
const ipcMain = fakeIpcMain();
let clipboardText = '';

const MARK = 'fake-safe-storage:';
const flip = (bytes: Buffer): Buffer => Buffer.from(bytes.map((byte) => byte ^ 0x5a));

interface MenuItem {
  label?: string;
  role?: string;
  accelerator?: string;
  submenu?: MenuItem[];
  click?: () => void;
}

/** What main put in the tray and the application menu, and the notifications it showed (desktop background tests). */
const shell = {
  applicationMenu: null as MenuItem[] | null,
  trayToolTip: '',
  trayMenu: null as MenuItem[] | null,
  balloons: [] as { title: string; content: string }[],
  notifications: [] as FakeNotification[],
  notificationsSupported: false,
  loginItem: { openAtLogin: false, calls: [] as unknown[] },
};

export const fakeElectron = {
  userData,
  forks: utility.forks,
  ipcMain,
  shell,
};

class FakeTray {
  setToolTip(text: string): void {
    shell.trayToolTip = text;
  }
  setContextMenu(menu: { template: MenuItem[] }): void {
    shell.trayMenu = menu.template;
  }
  displayBalloon(options: { title: string; content: string }): void {
    shell.balloons.push(options);
  }
  on(): void {}
  destroy(): void {}
}

class FakeNotification {
  static isSupported(): boolean {
    return shell.notificationsSupported;
  }
  readonly clicks: (() => void)[] = [];
  shown = false;
  constructor(readonly options: { title: string; body: string }) {
    shell.notifications.push(this);
  }
  on(event: string, listener: () => void): void {
    if (event === 'click') this.clicks.push(listener);
  }
  show(): void {
    this.shown = true;
  }
  click(): void {
    for (const listener of this.clicks) listener();
  }
}

export const electronModule = {
  app: {
    getPath: (name: string) => (name === 'userData' ? userData : join(userData, name)),
    getPreferredSystemLanguages: () => ['en-US'],
    getLocale: () => 'en-US',
    isPackaged: false,
    quit: () => undefined,
    setLoginItemSettings: (settings: { openAtLogin: boolean }) => {
      shell.loginItem.calls.push(settings);
      shell.loginItem.openAtLogin = settings.openAtLogin;
    },
    getLoginItemSettings: () => ({ openAtLogin: shell.loginItem.openAtLogin, wasOpenedAtLogin: false }),
  },
  clipboard: {
    writeText: (text: string) => {
      clipboardText = text;
      return Promise.resolve();
    },
    readText: () => Promise.resolve(clipboardText),
    clear: () => {
      clipboardText = '';
    },
  },
  dialog: {
    showMessageBox: () => Promise.resolve({ response: 1 }),
    showSaveDialog: () => Promise.resolve({ canceled: true }),
  },
  ipcMain,
  safeStorage: {
    isAsyncEncryptionAvailable: () => Promise.resolve(true),
    getSelectedStorageBackend: () => 'gnome_libsecret',
    encryptStringAsync: (plain: string) => Promise.resolve(Buffer.concat([Buffer.from(MARK), flip(Buffer.from(plain, 'utf8'))])),
    decryptStringAsync: (blob: Buffer) => {
      if (!blob.subarray(0, MARK.length).equals(Buffer.from(MARK))) return Promise.reject(new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.'));
      return Promise.resolve({ result: flip(blob.subarray(MARK.length)).toString('utf8'), shouldReEncrypt: false });
    },
  },
  Menu: {
    buildFromTemplate: (template: MenuItem[]) => ({ template }),
    setApplicationMenu: (menu: { template: MenuItem[] }) => {
      shell.applicationMenu = menu.template;
    },
  },
  Tray: FakeTray,
  nativeImage: { createFromPath: () => ({ resize: () => ({}) }) },
  Notification: FakeNotification,
  utilityProcess: { fork: (...args: Parameters<typeof utility.fork>) => utility.fork(...args) },
};
