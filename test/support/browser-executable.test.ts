// The e2e browser lookup in its order (PROCURE_BROWSER, then PROCURE_BROWSER_CHANNEL, then the platform's
// usual places), on every platform through an injected platform and environment, against real temp
// files for the path checks; and a broken explicit choice stops with what to fix instead of falling back.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HERE, browserLaunch, resolveBrowser, usualBrowserPaths, type BrowserLookup } from './browser-executable';

const dir = mkdtempSync(join(tmpdir(), 'browser-lookup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string): string {
  const path = join(dir, name);
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, 0o755);
  return path;
}

/** The lookup with only `present` paths existing, the real check for those that are temp files. */
const lookup = (platform: NodeJS.Platform, env: Record<string, string>, present: readonly string[] = []): BrowserLookup => ({
  platform,
  env,
  runnable: (path) => present.includes(path) || (path.startsWith(dir) && HERE.runnable(path)),
});

describe('the e2e browser lookup', () => {
  it('takes PROCURE_BROWSER first, over a channel and over a browser in the usual place', () => {
    const mine = file('my-chrome');
    const resolved = resolveBrowser(lookup('linux', { PROCURE_BROWSER: mine, PROCURE_BROWSER_CHANNEL: 'msedge' }, ['/usr/bin/chromium']));
    expect(resolved).toEqual({ kind: 'found', choice: { source: 'PROCURE_BROWSER', launch: { executablePath: mine } } });
  });

  it('stops on a PROCURE_BROWSER that is not there, naming it, instead of taking another browser', () => {
    const gone = join(dir, 'no-such-browser');
    const resolved = resolveBrowser(lookup('linux', { PROCURE_BROWSER: gone }, ['/usr/bin/chromium']));
    expect(resolved).toEqual({ kind: 'missing', message: `PROCURE_BROWSER is ${gone}, which is not a file that can be run: point it at a Chromium, Chrome or Edge binary.` });
  });

  it.skipIf(process.platform === 'win32')('stops on a PROCURE_BROWSER that exists but may not be run (POSIX execute bit; Windows has none)', () => {
    const plain = join(dir, 'not-executable');
    writeFileSync(plain, 'text');
    chmodSync(plain, 0o644);
    expect(resolveBrowser(lookup('linux', { PROCURE_BROWSER: plain })).kind).toBe('missing');
  });

  it('takes a Playwright channel next, over the usual places, and refuses one it does not know', () => {
    expect(resolveBrowser(lookup('darwin', { PROCURE_BROWSER_CHANNEL: 'chrome' }, ['/Applications/Chromium.app/Contents/MacOS/Chromium']))).toEqual({
      kind: 'found',
      choice: { source: 'PROCURE_BROWSER_CHANNEL', launch: { channel: 'chrome' } },
    });
    expect(resolveBrowser(lookup('win32', { PROCURE_BROWSER_CHANNEL: 'msedge' }))).toEqual({ kind: 'found', choice: { source: 'PROCURE_BROWSER_CHANNEL', launch: { channel: 'msedge' } } });
    const unknown = resolveBrowser(lookup('linux', { PROCURE_BROWSER_CHANNEL: 'chromium' }, ['/usr/bin/chromium']));
    expect(unknown.kind).toBe('missing');
    if (unknown.kind === 'missing') expect(unknown.message).toContain('PROCURE_BROWSER_CHANNEL is chromium; Playwright\'s installed-browser channels are: chrome, ');
  });

  it('an empty variable counts as unset', () => {
    expect(resolveBrowser(lookup('linux', { PROCURE_BROWSER: '', PROCURE_BROWSER_CHANNEL: '' }, ['/usr/bin/chromium']))).toEqual({
      kind: 'found',
      choice: { source: 'found', launch: { executablePath: '/usr/bin/chromium' } },
    });
  });

  it('on Linux prefers Debian\'s Chromium, then chromium-browser, then Google Chrome', () => {
    const first = (present: string[]): unknown => resolveBrowser(lookup('linux', {}, present));
    const at = (path: string): unknown => ({ kind: 'found', choice: { source: 'found', launch: { executablePath: path } } });
    expect(first(['/usr/bin/google-chrome', '/usr/bin/chromium-browser', '/usr/bin/chromium'])).toEqual(at('/usr/bin/chromium'));
    expect(first(['/usr/bin/google-chrome', '/usr/bin/chromium-browser'])).toEqual(at('/usr/bin/chromium-browser'));
    expect(first(['/usr/bin/google-chrome'])).toEqual(at('/usr/bin/google-chrome'));
  });

  it('on macOS looks in /Applications (Chrome, then Chromium, then Edge), then ~/Applications', () => {
    expect(usualBrowserPaths('darwin', { HOME: '/Users/kim' })).toEqual([
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
      '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
      '/Users/kim/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      '/Users/kim/Applications/Chromium.app/Contents/MacOS/Chromium',
      '/Users/kim/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
    ]);
    const chromium = '/Applications/Chromium.app/Contents/MacOS/Chromium';
    expect(resolveBrowser(lookup('darwin', { HOME: '/Users/kim' }, [chromium, '/usr/bin/chromium']))).toEqual({ kind: 'found', choice: { source: 'found', launch: { executablePath: chromium } } });
  });

  it('on Windows looks in Program Files (Chrome, then Edge), from the environment\'s folders', () => {
    const env = { ProgramFiles: 'D:\\Apps', 'ProgramFiles(x86)': 'D:\\Apps (x86)', LOCALAPPDATA: 'C:\\Users\\kim\\AppData\\Local' };
    expect(usualBrowserPaths('win32', env)).toEqual([
      'D:\\Apps\\Google\\Chrome\\Application\\chrome.exe',
      'D:\\Apps (x86)\\Google\\Chrome\\Application\\chrome.exe',
      'C:\\Users\\kim\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe',
      'D:\\Apps\\Microsoft\\Edge\\Application\\msedge.exe',
      'D:\\Apps (x86)\\Microsoft\\Edge\\Application\\msedge.exe',
      'C:\\Users\\kim\\AppData\\Local\\Microsoft\\Edge\\Application\\msedge.exe',
    ]);
    const edge = 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe';
    expect(resolveBrowser(lookup('win32', {}, [edge]))).toEqual({ kind: 'found', choice: { source: 'found', launch: { executablePath: edge } } });
  });

  it('finding nothing names the places, the install command of the platform and the two variables', () => {
    const message = (platform: NodeJS.Platform): string => {
      const resolved = resolveBrowser(lookup(platform, {}));
      return resolved.kind === 'missing' ? resolved.message : 'found';
    };
    expect(message('linux')).toContain('  /usr/bin/chromium\n');
    expect(message('linux')).toContain('Install one (sudo apt-get install chromium), or set PROCURE_BROWSER to a Chromium/Chrome/Edge binary, or PROCURE_BROWSER_CHANNEL to one of: chrome,');
    expect(message('darwin')).toContain('Install one (brew install --cask google-chrome)');
    expect(message('win32')).toContain('  C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe\n');
    expect(message('win32')).toContain('Install one (winget install Google.Chrome)');
    expect(() => browserLaunch(lookup('linux', {}))).toThrow(/^No Chromium, Chrome or Edge for the end-to-end tests/);
  });

  it('finds a browser on this machine (the e2e suite needs one)', () => {
    expect(resolveBrowser(HERE).kind).toBe('found');
  });
});
