// What electron-builder would pack from node_modules for one target, without packaging (no Electron
// download here): its own Packager reads electron-builder.yml, its own platform packager expands the
// per-target macros (${arch}), and its own collector and node-module matcher pick the files, as
// `electron-builder --dir` does (PlatformPackager.copyAppFiles). Only the copying is left out.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Arch, Platform, type PlatformSpecificBuildOptions } from 'app-builder-lib';
import { AppInfo } from 'app-builder-lib/out/appInfo';
import { getMainFileMatchers, getNodeModuleFileMatcher } from 'app-builder-lib/out/fileMatcher';
import { LinuxPackager } from 'app-builder-lib/out/linuxPackager';
import { MacPackager } from 'app-builder-lib/out/macPackager';
import { Packager } from 'app-builder-lib/out/packager';
import type { PlatformPackager } from 'app-builder-lib/out/platformPackager';
import { WinPackager } from 'app-builder-lib/out/winPackager';
import { computeFileSets, computeNodeModuleFileSets, type ResolvedFileSet } from 'app-builder-lib/out/util/appFileCopier';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface TargetFiles {
  /** The app's own files packed (not node_modules), as paths inside the app, `/` separated. */
  readonly appFiles: readonly string[];
  /** Every file packed from node_modules, as a path inside the app (node_modules/…), `/` separated. */
  readonly files: readonly string[];
  /** Whether the target's node_modules filter keeps this path (node_modules/…), installed here or not. */
  readonly keeps: (path: string) => boolean;
}

let packager: Promise<Packager> | null = null;

function loadedPackager(): Promise<Packager> {
  packager ??= (async () => {
    const created = new Packager({ projectDir: root, targets: new Map() });
    await created.validateConfig();
    // Set by Packager.build before any platform packager exists; the packers read it from there.
    Object.assign(created, { _appInfo: new AppInfo(created, null) });
    return created;
  })();
  return packager;
}

function packagerFor(platform: Platform, info: Packager): PlatformPackager<PlatformSpecificBuildOptions> {
  if (platform === Platform.WINDOWS) return new WinPackager(info);
  if (platform === Platform.MAC) return new MacPackager(info);
  return new LinuxPackager(info);
}

/** The target this machine builds for itself (its own OS and architecture). */
export function hostTarget(): { readonly platform: Platform; readonly arch: Arch } {
  const arch = process.arch === 'arm64' ? Arch.arm64 : Arch.x64;
  if (process.platform === 'win32') return { platform: Platform.WINDOWS, arch };
  if (process.platform === 'darwin') return { platform: Platform.MAC, arch };
  return { platform: Platform.LINUX, arch };
}

export async function targetFiles(platform: Platform, arch: Arch): Promise<TargetFiles> {
  const info = await loadedPackager();
  const helper = packagerFor(platform, info);
  // The expansion PlatformPackager.createGetFileMatchersOptions gives the file patterns.
  const expand = (pattern: string): string => helper.expandMacro(pattern, Arch[arch], { '/*': '{,/**/*}' });
  const destination = join(root, 'packed', 'app');
  const matcher = getNodeModuleFileMatcher(info.appDir, destination, expand, helper.platformSpecificBuildOptions, info);
  const inApp = (sets: readonly ResolvedFileSet[]): string[] =>
    sets.flatMap((set) => set.files.filter((file) => set.metadata.get(file)?.isFile() === true).map((file) => join(set.destination, file.slice(set.src.length)).slice(destination.length + 1).replaceAll('\\', '/')));
  const files = inApp(await computeNodeModuleFileSets(helper, matcher));
  const mainMatchers = getMainFileMatchers(info.appDir, destination, expand, helper.platformSpecificBuildOptions, helper, join(root, 'dist'), false);
  const appFiles = inApp(await computeFileSets(mainMatchers, null, helper, false));
  const filter = matcher.createFilter();
  const aFile = statSync(join(root, 'package.json'));
  // NodeModuleCopyHelper hands the filter each file with its path inside the app (moduleFullFilePath).
  const keeps = (path: string): boolean => filter(join(root, path), Object.assign(aFile, { moduleFullFilePath: path }));
  return { appFiles, files, keeps };
}
