// Which installed Chromium-family browser the e2e, screens and bench launchers drive (never a Playwright
// download). In order: PROCURE_BROWSER (a path), PROCURE_BROWSER_CHANNEL (Playwright's branded channel,
// which finds Chrome or Edge where their installers put them), then the platform's usual places. An
// explicit choice that does not work is an error, never silently replaced by another browser.
import { accessSync, constants } from 'node:fs';
import { posix, win32 } from 'node:path';

/** What `chromium.launch` gets: a binary's path, or one of Playwright's branded channels. */
export type BrowserLaunch = { readonly executablePath: string } | { readonly channel: string };

export interface BrowserChoice {
  readonly launch: BrowserLaunch;
  /** Where the choice came from, for a message: `PROCURE_BROWSER`, `PROCURE_BROWSER_CHANNEL` or `found`. */
  readonly source: 'PROCURE_BROWSER' | 'PROCURE_BROWSER_CHANNEL' | 'found';
}

export type BrowserResolution = { readonly kind: 'found'; readonly choice: BrowserChoice } | { readonly kind: 'missing'; readonly message: string };

export interface BrowserLookup {
  readonly platform: NodeJS.Platform;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Whether the file exists and may be run (on Windows: exists). */
  readonly runnable: (path: string) => boolean;
}

/** Playwright's branded channels: installed Chrome or Edge. Its own `chromium` channel is a download, so it is not offered. */
export const BROWSER_CHANNELS = ['chrome', 'chrome-beta', 'chrome-dev', 'chrome-canary', 'msedge', 'msedge-beta', 'msedge-dev', 'msedge-canary'] as const;

/** How each platform installs a browser the lookup then finds (the prerequisite check prints the same). */
export const BROWSER_PACKAGES = { debian: 'chromium', brewCask: 'google-chrome', winget: 'Google.Chrome' } as const;

/** The usual places, most specific first: Debian's Chromium before Chrome, Chrome before Edge. */
export function usualBrowserPaths(platform: NodeJS.Platform, env: Readonly<Record<string, string | undefined>>): string[] {
  if (platform === 'darwin') {
    const apps = ['Google Chrome.app/Contents/MacOS/Google Chrome', 'Chromium.app/Contents/MacOS/Chromium', 'Microsoft Edge.app/Contents/MacOS/Microsoft Edge'];
    const home = env['HOME'];
    return [...apps.map((app) => posix.join('/Applications', app)), ...(home === undefined ? [] : apps.map((app) => posix.join(home, 'Applications', app)))];
  }
  if (platform === 'win32') {
    const roots = [env['PROGRAMFILES'] ?? env['ProgramFiles'] ?? 'C:\\Program Files', env['PROGRAMFILES(X86)'] ?? env['ProgramFiles(x86)'] ?? 'C:\\Program Files (x86)', env['LOCALAPPDATA']];
    const installed = (relative: string): string[] => roots.filter((root) => root !== undefined).map((root) => win32.join(root, relative));
    return [...installed('Google\\Chrome\\Application\\chrome.exe'), ...installed('Microsoft\\Edge\\Application\\msedge.exe')];
  }
  return ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/snap/bin/chromium'];
}

/** The one command that installs a browser on this platform. */
export function browserInstallCommand(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return `brew install --cask ${BROWSER_PACKAGES.brewCask}`;
  if (platform === 'win32') return `winget install ${BROWSER_PACKAGES.winget}`;
  return `sudo apt-get install ${BROWSER_PACKAGES.debian}`;
}

const HOW_TO_CHOOSE = `or set PROCURE_BROWSER to a Chromium/Chrome/Edge binary, or PROCURE_BROWSER_CHANNEL to one of: ${BROWSER_CHANNELS.join(', ')}`;

export function resolveBrowser(lookup: BrowserLookup): BrowserResolution {
  const path = lookup.env['PROCURE_BROWSER'];
  if (path !== undefined && path !== '') {
    if (lookup.runnable(path)) return { kind: 'found', choice: { source: 'PROCURE_BROWSER', launch: { executablePath: path } } };
    return { kind: 'missing', message: `PROCURE_BROWSER is ${path}, which is not a file that can be run: point it at a Chromium, Chrome or Edge binary.` };
  }
  const channel = lookup.env['PROCURE_BROWSER_CHANNEL'];
  if (channel !== undefined && channel !== '') {
    if (BROWSER_CHANNELS.some((known) => known === channel)) return { kind: 'found', choice: { source: 'PROCURE_BROWSER_CHANNEL', launch: { channel } } };
    return { kind: 'missing', message: `PROCURE_BROWSER_CHANNEL is ${channel}; Playwright's installed-browser channels are: ${BROWSER_CHANNELS.join(', ')}.` };
  }
  const places = usualBrowserPaths(lookup.platform, lookup.env);
  const found = places.find((place) => lookup.runnable(place));
  if (found !== undefined) return { kind: 'found', choice: { source: 'found', launch: { executablePath: found } } };
  return {
    kind: 'missing',
    message: `No Chromium, Chrome or Edge for the end-to-end tests; looked in:\n${places.map((place) => `  ${place}`).join('\n')}\nInstall one (${browserInstallCommand(lookup.platform)}), ${HOW_TO_CHOOSE}.`,
  };
}

/** Whether a program at this path can be started here (shared with external-tools.ts). */
export function runnableHere(path: string): boolean {
  try {
    // Windows has no execute bit: existing is what it can tell.
    accessSync(path, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export const HERE: BrowserLookup = { platform: process.platform, env: process.env, runnable: runnableHere };

/** The browser on this machine, or an error saying what to install or set. */
export function browserLaunch(lookup: BrowserLookup = HERE): BrowserLaunch {
  const resolved = resolveBrowser(lookup);
  if (resolved.kind === 'missing') throw new Error(resolved.message);
  return resolved.choice.launch;
}
