// Packaging cannot run here (no Electron download), so the electron-builder configuration is read
// with electron-builder's own loader and schema, and what matters is asserted: targets, fuses, asar
// with the native SQLite module unpacked, the app id, what ships, and the update feed.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Configuration } from 'electron-builder';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import { DebugLogger } from 'builder-util';

const root = join(import.meta.dirname, '..', '..');
const load = (): Promise<Configuration> => getConfig(root, null, null);

/** The top-level <dict> of an XML property list whose values are booleans (what an entitlements file holds). */
function plistDict(xml: string): Map<string, boolean | string> {
  const body = /<plist[^>]*>\s*<dict>([\s\S]*)<\/dict>\s*<\/plist>/.exec(xml.replace(/<!--[\s\S]*?-->/g, ''))?.[1];
  if (body === undefined) throw new Error('not a property list with a top-level dict');
  const entries = new Map<string, boolean | string>();
  for (const [, key = '', value = ''] of body.matchAll(/<key>([^<]*)<\/key>\s*(<true\/>|<false\/>|<[a-z]+>[^<]*<\/[a-z]+>|<[a-z]+\/>)/g)) {
    entries.set(key, value === '<true/>' ? true : value === '<false/>' ? false : value);
  }
  // Every <key> was read: nothing in the dict escaped the pattern above.
  if ((body.match(/<key>/g) ?? []).length !== entries.size) throw new Error('an entitlement with an unexpected value type');
  return entries;
}

/** The patterns of a `files` option, whichever of its shapes it takes. */
function filePatterns(files: Configuration['files']): string[] {
  return [files ?? []].flat().flatMap((entry) => (typeof entry === 'string' ? [entry] : [entry.filter ?? []].flat()));
}

function targetsOf(value: unknown): string[] {
  const list = Array.isArray(value) ? (value as unknown[]) : [value];
  return list.map((t) => (typeof t === 'string' ? t : String((t as { target: string }).target)));
}

describe('electron-builder configuration', () => {
  it("passes electron-builder's own schema", async () => {
    await expect(validateConfiguration(await load(), new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('the schema check does bite (a misspelt fuse is refused)', async () => {
    const config = await load();
    const broken = { ...config, electronFuses: { ...config.electronFuses, runAsNodee: false } } as Configuration;
    await expect(validateConfiguration(broken, new DebugLogger(false))).rejects.toThrow(/configuration.electronFuses/);
  });

  it('builds NSIS for Windows, dmg for macOS and an AppImage for Linux', async () => {
    const config = await load();
    expect(config.appId).toBe('com.procuredesk.desktop');
    expect(config.productName).toBe('Procure Desk');
    expect(targetsOf(config.win?.target)).toEqual(['nsis']);
    // The zip beside the dmg is what Squirrel.Mac updates from.
    expect(targetsOf(config.mac?.target)).toEqual(['dmg', 'zip']);
    expect(targetsOf(config.linux?.target)).toEqual(['AppImage']);
    expect(config.nsis?.oneClick).toBe(false);
    expect(config.mac?.hardenedRuntime).toBe(true);
  });

  it('flips the fuses that close Node and inspector back doors and pin the app to its asar', async () => {
    expect((await load()).electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      // The renderer comes from app:// (src/main/app-protocol.ts): file:// pages get no extra privileges.
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('signs Windows and macOS builds from the environment, or fails the build; keeps the update signature check', async () => {
    const config = await load();
    // No certificate, password, identity or publisher pinned in the file: they come from
    // WIN_CSC_LINK / CSC_LINK / CSC_NAME / APPLE_* at build time, and a build without them fails.
    expect(config.forceCodeSigning).toBe(true);
    const text = readFileSync(join(root, 'electron-builder.yml'), 'utf8');
    expect(text).not.toMatch(/^\s*(certificateFile|certificatePassword|certificateSubjectName|identity|cscLink|cscKeyPassword)\s*:/m);
    // electron-updater verifies an update's publisher only when app-update.yml names one, which
    // electron-builder writes when verification is on and the publisher is not explicitly null.
    expect(config.win?.verifyUpdateCodeSignature).toBe(true);
    expect(config.win?.signtoolOptions?.publisherName).toBeUndefined();
    expect(config.win?.signtoolOptions?.signingHashAlgorithms).toEqual(['sha256']);
    expect(config.mac?.identity).toBeUndefined();
    expect(config.mac?.notarize).toBe(true);
    expect(config.mac?.hardenedRuntime).toBe(true);
  });

  it('packs into asar with better-sqlite3 unpacked and ships only the build output', async () => {
    const config = await load();
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['node_modules/better-sqlite3/**', '**/*.node']));
    const files = (config.files as { filter: string[] }[] | string[]).flatMap((entry) => (typeof entry === 'string' ? [entry] : entry.filter));
    expect(files).toEqual(expect.arrayContaining(['out/**/*', 'package.json', '!**/*.map']));
    expect(files.some((pattern) => pattern.startsWith('src'))).toBe(false);
    // Node-API addons with prebuilt binaries: no rebuild against Electron's headers, no C sources shipped.
    expect(config.npmRebuild).toBe(false);
    expect(files).toEqual(expect.arrayContaining(['!node_modules/better-sqlite3/{src,deps}/**']));
  });

  it("publishes the update feed to the repository's GitHub releases, as a draft the release workflow publishes last", async () => {
    const publish = (await load()).publish;
    // Owner and repository come from the checkout's git remote: no made-up host, no token in the file.
    expect(publish).toEqual({ provider: 'github', releaseType: 'draft' });
  });

  it('gives the mac build an entitlements file holding only allow-jit, for the app and its helpers', async () => {
    const mac = (await load()).mac;
    expect(mac?.entitlements).toBe('resources/entitlements.mac.plist');
    expect(mac?.entitlementsInherit).toBe('resources/entitlements.mac.plist');
    const entitlements = plistDict(readFileSync(join(root, String(mac?.entitlements)), 'utf8'));
    expect(entitlements).toEqual(new Map([['com.apple.security.cs.allow-jit', true]]));
  });

  it('checks after packing that the app holds its own native binaries (scripts/after-pack.cjs)', async () => {
    const afterPack = (await load()).afterPack;
    expect(afterPack).toBe('./scripts/after-pack.cjs');
    expect(existsSync(join(root, String(afterPack)))).toBe(true);
  });

  it('signs Windows through the hook that works with hardware-held keys', async () => {
    const sign = (await load()).win?.signtoolOptions?.sign;
    expect(sign).toBe('./scripts/sign-windows.cjs');
    expect(existsSync(join(root, String(sign)))).toBe(true);
  });

  it('ships the third-party notices and SBOM beside app.asar, and not their inputs', async () => {
    const config = await load();
    expect(config.extraResources).toEqual([{ from: 'out/licenses', to: 'licenses' }]);
    expect(filePatterns(config.files)).toEqual(expect.arrayContaining(['!out/licenses/**', '!out/*/bundled-packages.json']));
  });

  it('ships an icon large enough for every platform (macOS wants 512 px or more)', async () => {
    const config = await load();
    const icons = [config.win?.icon, config.mac?.icon, config.linux?.icon];
    for (const icon of icons) {
      expect(typeof icon).toBe('string');
      const png = readFileSync(join(root, String(icon)));
      // PNG signature, then IHDR: width and height as big-endian integers at bytes 16 and 20.
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
      expect(png.readUInt32BE(16)).toBeGreaterThanOrEqual(512);
      expect(png.readUInt32BE(20)).toBe(png.readUInt32BE(16));
    }
  });
});
