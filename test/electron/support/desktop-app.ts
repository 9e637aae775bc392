// The built desktop app (electron-vite's out/, as `npm start` runs it) started in real Electron through
// Playwright's `_electron`, with a user-data folder of its own, and what the journeys ask of its main
// process: the core process's pid, the windows, the tray's items, a save dialog that answers a path.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron, type ElectronApplication, type Page } from '@playwright/test';
import { labelsFor } from '../../../src/main/app-locale';

const PROJECT_ROOT = join(import.meta.dirname, '..', '..', '..');
/** package.json's `main`: Electron started on the project folder loads it, named and versioned as the app. */
export const BUILT_MAIN = join(PROJECT_ROOT, 'out', 'main', 'index.js');
const TRAY_SPY = join(import.meta.dirname, 'tray-spy.cjs');
/** Where tray-spy.cjs keeps the tray menus (a global of main). */
const TRAY_MENUS = '__procureDeskTrayMenus';
/** The core process's serviceName (src/main/core-process-launcher.ts): its name in app.getAppMetrics(). */
const CORE_SERVICE_NAME = 'Procure Desk core';

export interface DesktopApp {
  readonly electron: ElectronApplication;
  /** The main window's page. */
  readonly page: Page;
  readonly userData: string;
  /** What the app wrote to stdout and stderr (main logs no secret). */
  output(): string;
  /** Resolves with the app process's exit code once it has ended. */
  readonly exited: Promise<number | null>;
  /** True until the app process has ended. */
  running(): boolean;
  /** Closes the app if it still runs and removes its user-data folder. */
  dispose(): Promise<void>;
}

/** The app's own variables only: a dev-server address or run-as-node would start something else. */
function appEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && key !== 'ELECTRON_RENDERER_URL' && key !== 'ELECTRON_RUN_AS_NODE' && key !== 'NODE_OPTIONS') env[key] = value;
  }
  return env;
}

export async function launchDesktopApp(binary: string): Promise<DesktopApp> {
  const userData = mkdtempSync(join(tmpdir(), 'procure-electron-'));
  const launching = _electron.launch({
    executablePath: binary,
    // Chromium switches first; default_app takes `-r` (the tray spy) and then the app folder. The
    // keychain switches are the ones Playwright's own Electron loader sets: no runner's keychain is
    // touched, and safeStorage reports its weakest backend, whose secrets stay in memory.
    args: [`--user-data-dir=${userData}`, '--password-store=basic', '--use-mock-keychain', '-r', TRAY_SPY, PROJECT_ROOT],
    cwd: PROJECT_ROOT,
    env: appEnvironment(),
    timeout: 60_000,
  });
  const electron = await launching.catch((error: unknown) => {
    rmSync(userData, { recursive: true, force: true });
    throw error;
  });
  let output = '';
  const child = electron.process();
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
  const running = (): boolean => child.exitCode === null && child.signalCode === null;
  const dispose = async (): Promise<void> => {
    if (running()) await electron.close().catch(() => undefined);
    rmSync(userData, { recursive: true, force: true, maxRetries: 5 });
  };
  const page = await electron.firstWindow({ timeout: 60_000 }).catch(async (error: unknown) => {
    await dispose();
    throw new Error(`the desktop app opened no window; it said:\n${output}`, { cause: error });
  });
  page.setDefaultTimeout(15_000);
  return {
    electron,
    page,
    userData,
    output: () => output,
    exited,
    running,
    dispose,
  };
}

/** The running core process's pid as main sees it (utilityProcess), or null between a death and its restart. */
export function corePid(electron: ElectronApplication): Promise<number | null> {
  return electron.evaluate(
    ({ app }, name) => app.getAppMetrics().find((metric) => metric.type === 'Utility' && (metric.name === name || metric.serviceName === name))?.pid ?? null,
    CORE_SERVICE_NAME,
  );
}

export interface WindowState {
  readonly visible: boolean;
  readonly minimized: boolean;
}

/** Every window main has, shown or not. */
export function windows(electron: ElectronApplication): Promise<WindowState[]> {
  return electron.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().map((window) => ({ visible: window.isVisible(), minimized: window.isMinimized() })));
}

/** Closes the main window as its title bar's close button does ('close' is emitted and may be prevented). */
export async function closeMainWindow(electron: ElectronApplication): Promise<void> {
  await electron.evaluate(({ BrowserWindow }) => {
    for (const window of BrowserWindow.getAllWindows()) window.close();
  });
}

/** The tray item's label in either language of main (app-locale.ts): menus follow the app's language. */
export function trayLabels(key: 'showWindow' | 'quit'): string[] {
  return [labelsFor('en')[key], labelsFor('zh-CN')[key]];
}

/**
 * Clicks the item of the tray's current menu whose label is one of `labels`, as a person does: the
 * click runs on main's next turn, so that a Quit can end the app after this call has answered.
 */
export async function clickTrayItem(electron: ElectronApplication, labels: readonly string[]): Promise<void> {
  const found = await electron.evaluate(
    ({ Menu }, { key, wanted }) => {
      const menus: unknown = Reflect.get(globalThis, key);
      const menu: unknown = Array.isArray(menus) ? menus.at(-1) : undefined;
      if (!(menu instanceof Menu)) return 'the app set no tray menu';
      const item = menu.items.find((candidate) => wanted.includes(candidate.label));
      if (item === undefined) return `no tray item is labelled ${wanted.join(' / ')}; the tray has: ${menu.items.map((candidate) => candidate.label).join(', ')}`;
      setImmediate(() => {
        // MenuItem#click is typed as a bare Function; Electron calls it the same way.
        Reflect.apply(item.click, item, []);
      });
      return null;
    },
    { key: TRAY_MENUS, wanted: labels },
  );
  if (found !== null) throw new Error(found);
}

/** Electron's save dialog answers `filePath` from now on, as if the buyer had chosen it. */
export async function answerSaveDialogs(electron: ElectronApplication, filePath: string): Promise<void> {
  await electron.evaluate(({ dialog }, path) => {
    dialog.showSaveDialog = () => Promise.resolve({ canceled: false, filePath: path });
  }, filePath);
}

/** True while a process with this pid runs. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}
