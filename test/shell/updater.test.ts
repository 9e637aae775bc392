// Signed updates only: the decision reads app-update.yml as electron-builder writes it (its own YAML
// writer, from the publish configuration as the builder resolves it for Windows), the refusal path
// runs against a fake electron-updater, and the buyer is told, in their language, once per version
// for a standing refusal and every time an update's signature did not match.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getConfig } from 'app-builder-lib/out/util/config/config';
import { expandMacro } from 'app-builder-lib/out/util/macroExpander';
import { serializeToYaml } from 'builder-util';
import type { Configuration } from 'electron-builder';
import { labelsFor } from '../../src/main/app-locale';
import { readUpdateEnvironment } from '../../src/main/update-environment';
import { createUpdateNotice } from '../../src/main/update-notice';
import { decideUpdates, publisherNamesOf, startUpdateChecks, type UpdateEnvironment, type UpdaterPort, type UpdateRefusal } from '../../src/main/updater';

const root = new URL('../..', import.meta.url).pathname;

/**
 * app-update.yml as electron-builder writes it for a Windows build (PublishManager: the first publish
 * configuration, macros expanded, plus the publisher names when the update signature is verified:
 * signtoolOptions.publisherName, else the signing certificate's common name).
 */
async function windowsAppUpdateYml(certificateCommonName: string | null): Promise<string> {
  const config: Configuration = await getConfig(root, null, null);
  const publish = config.publish as Record<string, unknown>;
  const expanded = Object.fromEntries(Object.entries(publish).map(([key, value]) => [key, typeof value === 'string' ? expandMacro(value, 'x64', { productName: 'Procure Desk' } as never) : value]));
  const win = config.win ?? {};
  const verifies = win.verifyUpdateCodeSignature !== false;
  const configured = win.signtoolOptions?.publisherName;
  const names = configured === null ? null : configured !== undefined ? [configured].flat() : certificateCommonName === null ? null : [certificateCommonName];
  return serializeToYaml({ ...expanded, ...(verifies && names !== null ? { publisherName: names } : {}), updaterCacheDirName: 'procure-desk-updater' });
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

let savedFeed: string | undefined;
beforeEach(() => {
  savedFeed = process.env['PROCURE_UPDATE_FEED_URL'];
  process.env['PROCURE_UPDATE_FEED_URL'] = 'https://updates.procure-desk.example/stable';
});
afterEach(() => {
  if (savedFeed === undefined) delete process.env['PROCURE_UPDATE_FEED_URL'];
  else process.env['PROCURE_UPDATE_FEED_URL'] = savedFeed;
});

describe('signed updates: the decision', () => {
  it('a Windows build signed from the environment names its publisher, and updates are checked', async () => {
    const yml = await windowsAppUpdateYml('Procure Desk Ltd');
    expect(yml).toContain('url: https://updates.procure-desk.example/stable');
    expect(publisherNamesOf(yml)).toEqual(['Procure Desk Ltd']);
    expect(decideUpdates(packaged({ appUpdateYml: yml }))).toEqual({ check: true });
  });

  it('a Windows build without a certificate names no publisher: electron-updater would skip the check, so no update', async () => {
    const yml = await windowsAppUpdateYml(null);
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
    const decision = startUpdateChecks({ environment: packaged({ appUpdateYml: await windowsAppUpdateYml(null) }), log: () => undefined, tell: (r) => told.push(r), updater });
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
    startUpdateChecks({ environment: packaged({ appUpdateYml: await windowsAppUpdateYml('Procure Desk Ltd') }), log, tell: (r) => told.push(r), updater });
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
