// The afterPack guard (scripts/after-pack.cjs) over what electron-builder packs: a target's own
// binaries pass; another target's, or none, fail the build. Fed with electron-builder's own file sets
// (test/shell/target-file-sets.ts): this machine's own target passes, and another OS's build made here
// fails, because `npm ci` here installed no ngrok binary for that OS.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Arch, Platform } from 'app-builder-lib';
import { getConfig } from 'app-builder-lib/out/util/config/config';
import { resolveFunction } from 'app-builder-lib/out/util/resolve';
import { afterEach, describe, expect, it } from 'vitest';
import { nativeBinaryProblems, type afterPack } from '../../scripts/after-pack.cjs';
import { hostTarget, targetFiles } from '../shell/target-file-sets';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** An app.asar.unpacked folder holding these files (paths inside the app, node_modules/…). */
function unpackedWith(files: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'pd-unpacked-'));
  dirs.push(dir);
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), '');
  }
  return dir;
}

const sqlite = (target: string): string => `node_modules/better-sqlite3/prebuilds/${target}.node`;
const ngrok = (platform: string): string => `node_modules/@ngrok/ngrok-${platform}/ngrok.${platform}.node`;

describe('the native binaries of a packed app', () => {
  it("pass when they are the target's own, ngrok's universal binary serving both Macs", () => {
    expect(nativeBinaryProblems(unpackedWith([sqlite('win32-x64'), ngrok('win32-x64-msvc'), 'node_modules/@ngrok/ngrok/index.js']), 'win32', 'x64')).toEqual([]);
    expect(nativeBinaryProblems(unpackedWith([sqlite('darwin-arm64'), ngrok('darwin-universal')]), 'darwin', 'arm64')).toEqual([]);
    expect(nativeBinaryProblems(unpackedWith([sqlite('darwin-x64'), ngrok('darwin-universal')]), 'darwin', 'x64')).toEqual([]);
  });

  it("fail with another target's, several, or none", () => {
    expect(nativeBinaryProblems(unpackedWith([sqlite('win32-x64'), sqlite('linux-x64'), ngrok('win32-x64-msvc')]), 'win32', 'x64')).toEqual(['better-sqlite3 prebuilds packed: [linux-x64.node, win32-x64.node], expected exactly win32-x64.node']);
    expect(nativeBinaryProblems(unpackedWith([sqlite('win32-x64'), ngrok('linux-x64-gnu')]), 'win32', 'x64')).toEqual(['@ngrok binaries packed: [ngrok-linux-x64-gnu], expected exactly ngrok-win32-x64-msvc (build each installer on its own OS after its own npm ci)']);
    expect(nativeBinaryProblems(unpackedWith([]), 'linux', 'x64')).toHaveLength(2);
  });
});

describe('the hook electron-builder runs after packing', () => {
  async function hook(): Promise<typeof afterPack> {
    const config = await getConfig(root, null, null);
    return resolveFunction<typeof afterPack>(undefined, String(config.afterPack), 'afterPack', root);
  }
  const packager = { appInfo: { productFilename: 'Procure Desk' } };

  it('reads the app where each OS keeps it, and fails the build with the reason', async () => {
    const run = await hook();
    const linux = unpackedWith([]);
    mkdirSync(join(linux, 'resources/app.asar.unpacked/node_modules/better-sqlite3/prebuilds'), { recursive: true });
    writeFileSync(join(linux, 'resources/app.asar.unpacked', sqlite('linux-x64')), '');
    mkdirSync(join(linux, 'resources/app.asar.unpacked/node_modules/@ngrok/ngrok-linux-x64-gnu'), { recursive: true });
    writeFileSync(join(linux, 'resources/app.asar.unpacked', ngrok('linux-x64-gnu')), '');
    await expect(run({ appOutDir: linux, electronPlatformName: 'linux', arch: Arch.x64, packager })).resolves.toBeUndefined();
    const mac = unpackedWith([`Procure Desk.app/Contents/Resources/app.asar.unpacked/${sqlite('darwin-x64')}`]);
    await expect(run({ appOutDir: mac, electronPlatformName: 'darwin', arch: Arch.arm64, packager })).rejects.toThrow(/wrong for darwin-arm64:\n- better-sqlite3 prebuilds packed: \[darwin-x64.node\]/);
  });

  it("passes what electron-builder packs for this machine's own target, and stops a build for another OS made here", async () => {
    const nativeOf = async (platform: Platform, arch: Arch): Promise<string[]> => (await targetFiles(platform, arch)).files.filter((file) => file.endsWith('.node'));
    const host = hostTarget();
    expect(nativeBinaryProblems(unpackedWith(await nativeOf(host.platform, host.arch)), process.platform, Arch[host.arch])).toEqual([]);
    // `npm ci` here installed only this OS's ngrok package: another OS's installer would lack its own.
    const other = host.platform === Platform.WINDOWS ? { platform: Platform.LINUX, name: 'linux', ngrok: 'ngrok-linux-x64-gnu' } : { platform: Platform.WINDOWS, name: 'win32', ngrok: 'ngrok-win32-x64-msvc' };
    expect(nativeBinaryProblems(unpackedWith(await nativeOf(other.platform, Arch.x64)), other.name, 'x64')).toEqual([`@ngrok binaries packed: [], expected exactly ${other.ngrok} (build each installer on its own OS after its own npm ci)`]);
  }, 300_000);
});
