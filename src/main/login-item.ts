// Start at login, hidden (contract §17.3). Windows: the Run key through app.setLoginItemSettings, with
// --hidden. macOS: the login item (SMAppService); Electron 45 has no openAsHidden, so a start at login
// is told by getLoginItemSettings().wasOpenedAtLogin. Linux has no login-item API in Electron: an XDG
// autostart entry (~/.config/autostart) that starts the AppImage (or the installed binary) with
// --hidden. An unpackaged build would register Electron itself, so it offers nothing.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DesktopSupport } from '../shared/ipc/views/settings';

export const HIDDEN_ARG = '--hidden';
export const AUTOSTART_FILE_NAME = 'procure-desk.desktop';

/** The members of Electron's app used here. */
export interface LoginItemApp {
  setLoginItemSettings(settings: { openAtLogin: boolean; path?: string; args?: string[] }): void;
  getLoginItemSettings(options?: { path?: string; args?: string[] }): { openAtLogin: boolean; wasOpenedAtLogin?: boolean };
}

export interface LoginItemPort {
  readonly kind: DesktopSupport['startAtLogin'];
  /** Whether the system starts the app at login, as this build would register it. */
  isOn(): boolean;
  set(on: boolean): void;
}

export interface LoginItemOptions {
  platform: NodeJS.Platform;
  isPackaged: boolean;
  app: LoginItemApp;
  execPath: string;
  /** $APPIMAGE: the AppImage file itself (execPath is inside its mount, gone once it ends). */
  appImage: string | undefined;
  /** $XDG_CONFIG_HOME, else ~/.config. */
  configHome: string;
}

/** A path as one argument of a desktop entry's Exec key (quoted, its specials escaped, then string-escaped). */
export function execArgument(path: string): string {
  if (/[\r\n]/.test(path)) throw new Error('the app’s path holds a line break; an autostart entry cannot name it');
  const quoted = `"${path.replace(/[\\"`$]/g, (c) => `\\${c}`)}"`;
  return quoted.replace(/\\/g, '\\\\').replace(/%/g, '%%');
}

export function autostartEntry(program: string): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Version=1.0',
    'Name=Procure Desk',
    'Name[zh_CN]=采购台',
    `Exec=${execArgument(program)} ${HIDDEN_ARG}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

function autostartPort(options: LoginItemOptions): LoginItemPort {
  const dir = join(options.configHome, 'autostart');
  const file = join(dir, AUTOSTART_FILE_NAME);
  const wanted = (): string => autostartEntry(options.appImage ?? options.execPath);
  const read = (): string | null => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return null;
    }
  };
  return {
    kind: 'autostartFile',
    // An entry naming another path (an AppImage moved since) is not on: writing it again follows the move.
    isOn: () => read() === wanted(),
    set(on) {
      if (!on) {
        rmSync(file, { force: true });
        return;
      }
      mkdirSync(dir, { recursive: true });
      writeFileSync(file, wanted(), { mode: 0o644 });
    },
  };
}

export function loginItemPort(options: LoginItemOptions): LoginItemPort {
  if (!options.isPackaged || !['win32', 'darwin', 'linux'].includes(options.platform)) {
    return {
      kind: 'notInstalled',
      isOn: () => false,
      set(on) {
        if (on) throw new Error('start at login is offered by the installed app only');
      },
    };
  }
  if (options.platform === 'linux') return autostartPort(options);
  // Windows names the executable and its arguments; macOS registers the app bundle itself.
  const entry = options.platform === 'win32' ? { path: options.execPath, args: [HIDDEN_ARG] } : {};
  return {
    kind: 'loginItem',
    isOn: () => options.app.getLoginItemSettings(options.platform === 'win32' ? entry : undefined).openAtLogin,
    set: (on) => options.app.setLoginItemSettings({ openAtLogin: on, ...entry }),
  };
}

/**
 * At start-up the system follows the setting, written only where it differs (an AppImage moved since is
 * written again; an entry Windows' Task Manager switched off keeps its Run key, so it is left alone).
 */
export function syncLoginItem(port: LoginItemPort, wanted: boolean): void {
  if (port.kind === 'notInstalled' || port.isOn() === wanted) return;
  port.set(wanted);
}

/** Whether this start is the login's: stay in the tray (or the Dock) without a window. */
export function startedHidden(platform: NodeJS.Platform, argv: readonly string[], app: LoginItemApp): boolean {
  if (platform === 'darwin') return app.getLoginItemSettings().wasOpenedAtLogin === true;
  return argv.includes(HIDDEN_ARG);
}
