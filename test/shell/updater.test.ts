// Signed updates only: the decision reads app-update.yml as electron-builder writes it for a Windows
// build signed from the environment or not (windows-app-update.ts), the refusal path
// runs against a fake electron-updater, and the buyer is told, in their language, once per version
// for a standing refusal and every time an update's signature did not match.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { serializeToYaml } from 'builder-util';
import { labelsFor } from '../../src/main/app-locale';
import { readUpdateEnvironment } from '../../src/main/update-environment';
import { createUpdateNotice } from '../../src/main/update-notice';
import { writeCodeSigningPfx } from './code-signing-pfx';
import { windowsAppUpdateYml } from './windows-app-update';
import { decideUpdates, publisherNamesOf, startUpdateChecks, type UpdateEnvironment, type UpdaterPort, type UpdateRefusal } from '../../src/main/updater';

let signingDir: string;
let pfx: string;
const SIGNING_ENV = ['WIN_CSC_LINK', 'WIN_CSC_KEY_PASSWORD', 'CSC_LINK', 'CSC_KEY_PASSWORD'] as const;
const savedEnv = new Map<string, string | undefined>();

beforeAll(async () => {
  signingDir = mkdtempSync(join(tmpdir(), 'pd-signing-'));
  pfx = await writeCodeSigningPfx(signingDir, 'Procure Desk Ltd', 'pfx-pass');
});
afterAll(() => rmSync(signingDir, { recursive: true, force: true }));

/** The Windows build's app-update.yml, signed from the environment (WIN_CSC_LINK) or not at all. */
async function windowsBuild(signed: boolean): Promise<string> {
  if (signed) {
    process.env['WIN_CSC_LINK'] = pfx;
    process.env['WIN_CSC_KEY_PASSWORD'] = 'pfx-pass';
  }
  return windowsAppUpdateYml();
}

function fakeUpdater(outcome: Error | null) {
  const listeners: ((error: Error) => void)[] = [];
  const updater: UpdaterPort & { checks: number } = {
    autoDownload: false,
    autoInstallOnAppQuit: false,
    checks: 0,
    on: (_event, listener) => listeners.push(listener),
    checkForUpdates: () => {
      updater.checks++;
      if (outcome === null) return Promise.resolve(null);
      // electron-updater emits 'error' and rejects the same promise.
      for (const listener of listeners) listener(outcome);
      return Promise.reject(outcome);
    },
  };
  return updater;
}

const packaged = (over: Partial<UpdateEnvironment>): UpdateEnvironment => ({ platform: 'win32', isPackaged: true, appUpdateYml: null, macBundleSigned: false, ...over });

beforeEach(() => {
  for (const name of SIGNING_ENV) {
    savedEnv.set(name, process.env[name]);
    delete process.env[name];
  }
});
afterEach(() => {
  for (const name of SIGNING_ENV) {
    const value = savedEnv.get(name);
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('signed updates: the decision', () => {
  it('a Windows build signed from the environment names its publisher, and updates are checked', async () => {
    const yml = await windowsBuild(true);
    // The feed is the repository's GitHub releases (electron-builder.yml publish).
    expect(yml).toMatch(/^provider: github$/m);
    expect(yml).toMatch(/^owner: procure-desk$/m);
    expect(publisherNamesOf(yml)).toEqual(['Procure Desk Ltd']);
    expect(decideUpdates(packaged({ appUpdateYml: yml }))).toEqual({ check: true });
  });

  it('a Windows build without a certificate names no publisher: electron-updater would skip the check, so no update', async () => {
    const yml = await windowsBuild(false);
    expect(publisherNamesOf(yml)).toEqual([]);
    expect(decideUpdates(packaged({ appUpdateYml: yml }))).toMatchObject({ check: false, refusal: 'unsigned-build' });
  });

  it('reads the publisher however js-yaml writes it', () => {
    expect(publisherNamesOf(serializeToYaml({ provider: 'generic', publisherName: ['A B', "C'D"] }))).toEqual(['A B', "C'D"]);
    expect(publisherNamesOf('provider: generic\npublisherName: Solo Ltd\n')).toEqual(['Solo Ltd']);
    expect(publisherNamesOf('provider: generic\npublisherName: null\n')).toEqual([]);
    expect(publisherNamesOf('provider: generic\npublisherName: []\n')).toEqual([]);
  });

  it('macOS updates only a signed bundle; Linux (AppImage) never; an unpackaged app silently never', () => {
    const yml = 'provider: generic\nurl: https://u.example\n';
    expect(decideUpdates(packaged({ platform: 'darwin', appUpdateYml: yml, macBundleSigned: true }))).toEqual({ check: true });
    expect(decideUpdates(packaged({ platform: 'darwin', appUpdateYml: yml, macBundleSigned: false }))).toMatchObject({ check: false, refusal: 'unsigned-build' });
    expect(decideUpdates(packaged({ platform: 'linux', appUpdateYml: yml }))).toMatchObject({ check: false, refusal: 'appimage' });
    expect(decideUpdates(packaged({ isPackaged: false, appUpdateYml: yml }))).toMatchObject({ check: false, refusal: null });
  });

  it('reads app-update.yml and the macOS seal from the installed app on disk', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pd-update-env-'));
    try {
      const resources = join(dir, 'Procure Desk.app/Contents/Resources');
      const macos = join(dir, 'Procure Desk.app/Contents/MacOS');
      mkdirSync(resources, { recursive: true });
      mkdirSync(macos, { recursive: true });
      const installed = { platform: 'darwin' as const, isPackaged: true, resourcesPath: resources, execPath: join(macos, 'Procure Desk') };
      expect(readUpdateEnvironment(installed)).toEqual({ platform: 'darwin', isPackaged: true, appUpdateYml: null, macBundleSigned: false });
      writeFileSync(join(resources, 'app-update.yml'), 'provider: generic\n');
      mkdirSync(join(dir, 'Procure Desk.app/Contents/_CodeSignature'));
      writeFileSync(join(dir, 'Procure Desk.app/Contents/_CodeSignature/CodeResources'), '<plist/>');
      expect(readUpdateEnvironment(installed)).toEqual({ platform: 'darwin', isPackaged: true, appUpdateYml: 'provider: generic\n', macBundleSigned: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('signed updates: the refusal path with a fake electron-updater', () => {
  it('an unsigned build never asks the feed and tells the buyer why', async () => {
    const updater = fakeUpdater(null);
    const told: UpdateRefusal[] = [];
    const decision = startUpdateChecks({ environment: packaged({ appUpdateYml: await windowsBuild(false) }), log: () => undefined, tell: (r) => told.push(r), updater });
    expect(decision).toMatchObject({ check: false });
    expect(updater.checks).toBe(0);
    expect(told).toEqual(['unsigned-build']);
  });

  it('an AppImage never asks the feed and tells the buyer to download new versions', () => {
    const updater = fakeUpdater(null);
    const told: UpdateRefusal[] = [];
    startUpdateChecks({ environment: packaged({ platform: 'linux', appUpdateYml: 'provider: generic\n' }), log: () => undefined, tell: (r) => told.push(r), updater });
    expect(updater.checks).toBe(0);
    expect(told).toEqual(['appimage']);
  });

  it('a signed build checks, leaving the publisher check to electron-updater, and tells a signature mismatch once', async () => {
    const mismatch = Object.assign(new Error('New version 0.2.0 is not signed by the application owner: publisherNames: Procure Desk Ltd, raw info: {}'), { code: 'ERR_UPDATER_INVALID_SIGNATURE' });
    const updater = fakeUpdater(mismatch);
    const before = new Set(Object.keys(updater));
    const told: UpdateRefusal[] = [];
    const log = vi.fn();
    startUpdateChecks({ environment: packaged({ appUpdateYml: await windowsBuild(true) }), log, tell: (r) => told.push(r), updater });
    await vi.waitFor(() => expect(log).toHaveBeenCalledTimes(2));
    expect(updater.checks).toBe(1);
    expect(updater).toMatchObject({ autoDownload: true, autoInstallOnAppQuit: true });
    // Nothing else set on the updater: no verifyUpdateCodeSignature override, no skipped check.
    expect(new Set(Object.keys(updater))).toEqual(before);
    expect(told).toEqual(['signature-mismatch']);
  });

  it('an offline feed is logged, not told', async () => {
    const updater = fakeUpdater(new Error('net::ERR_INTERNET_DISCONNECTED'));
    const told: UpdateRefusal[] = [];
    const log = vi.fn();
    startUpdateChecks({ environment: packaged({ platform: 'darwin', appUpdateYml: 'provider: generic\n', macBundleSigned: true }), log, tell: (r) => told.push(r), updater });
    await vi.waitFor(() => expect(log).toHaveBeenCalledTimes(2));
    expect(told).toEqual([]);
  });
});

describe('telling the buyer', () => {
  it('says a standing refusal once per version in their language, a mismatch every time', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pd-update-notice-'));
    try {
      const shown: { title: string; detail: string; button: string }[] = [];
      const markerFile = join(dir, 'update-notice');
      const tell = createUpdateNotice({ labels: labelsFor('zh-CN'), markerFile, appVersion: '0.1.0', show: (m) => shown.push(m) });
      tell('appimage');
      tell('appimage');
      expect(shown).toEqual([{ title: '自动更新已关闭', detail: labelsFor('zh-CN').updatesOffAppImage, button: '确定' }]);
      // A restart of the same version stays quiet; the next version says it again.
      createUpdateNotice({ labels: labelsFor('en'), markerFile, appVersion: '0.1.0', show: (m) => shown.push(m) })('appimage');
      expect(shown).toHaveLength(1);
      createUpdateNotice({ labels: labelsFor('en'), markerFile, appVersion: '0.2.0', show: (m) => shown.push(m) })('appimage');
      expect(shown[1]).toMatchObject({ title: 'Automatic updates are off', detail: expect.stringContaining('AppImage') as string });
      tell('signature-mismatch');
      tell('signature-mismatch');
      expect(shown.slice(2).map((m) => m.title)).toEqual(['已拒绝一个更新', '已拒绝一个更新']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
