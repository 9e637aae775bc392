// What the installer ships besides the build output: electron-builder's own collector (the one
// `electron-builder --dir` runs) lists the node_modules it packs from the production dependencies.
// They must be exactly what the app loads at run time (main: the shell and the sandbox as the built-in
// demo merchant; the core process main forks: core; the renderer and preload are bundled by
// electron-vite, the web host and CLI never ship), and no package line with published advisories may be
// among them. Per target (test/shell/target-file-sets.ts): only that target's native binaries.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Arch, Platform } from 'app-builder-lib';
import { getCollectorByPackageManager, PM } from 'app-builder-lib/out/node-module-collector';
import type { NodeModuleInfo } from 'app-builder-lib/out/node-module-collector/types';
import { TmpDir } from 'temp-file';
import { beforeAll, describe, expect, it } from 'vitest';
import { targetFiles, type TargetFiles } from './target-file-sets';

const root = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; dependencies: Record<string, string> };

let packed: { name: string; version: string }[] = [];

function flatten(modules: readonly NodeModuleInfo[], into: { name: string; version: string }[] = []): { name: string; version: string }[] {
  for (const module of modules) {
    into.push({ name: module.name, version: module.version });
    flatten(module.dependencies ?? [], into);
  }
  return into;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Packages main-side code loads at run time (type-only imports are erased by the build; a lazy createRequire(…)('x') counts). */
function runtimeImports(dirs: readonly string[]): Set<string> {
  const found = new Set<string>();
  for (const file of dirs.flatMap((dir) => sourceFiles(join(root, dir)))) {
    const text = readFileSync(file, 'utf8');
    const specifiers = [...text.matchAll(/^import (?!type )[^;]*? from '([^']+)'/gms), ...text.matchAll(/\bimport\('([^']+)'\)/g), ...text.matchAll(/\bcreateRequire\([^)]*\)\('([^']+)'\)/g)].map((m) => m[1] ?? '');
    for (const specifier of specifiers) {
      if (specifier.startsWith('.') || specifier.startsWith('node:') || specifier === 'electron') continue;
      const parts = specifier.split('/');
      found.add(specifier.startsWith('@') ? `${parts[0] ?? ''}/${parts[1] ?? ''}` : (parts[0] ?? ''));
    }
  }
  return found;
}

beforeAll(async () => {
  const temp = new TmpDir('packed-modules');
  try {
    const collector = getCollectorByPackageManager(PM.NPM, root, temp);
    packed = flatten((await collector.getNodeModules({ packageName: pkg.name })).nodeModules);
  } finally {
    await temp.cleanup();
  }
});

describe('the packed node_modules', () => {
  it('are the production dependencies and what they need, nothing of the renderer, web host or tests', () => {
    const names = new Set(packed.map((module) => module.name));
    for (const dependency of Object.keys(pkg.dependencies)) expect(names).toContain(dependency);
    // fflate and saxes ship: core's streamed XLSX reader for batch files (src/core/batch/xlsx-*.ts).
    // node-forge made the demo CA until @peculiar/x509 over Node's WebCrypto replaced it (src/sandbox/tls).
    for (const absent of ['localtunnel', 'axios', 'ws', 'react', 'react-dom', 'antd', 'electron', 'vite', 'typescript', 'node-forge']) expect(names).not.toContain(absent);
  });

  it('are exactly the packages main and the core process load at run time', () => {
    const loaded = runtimeImports(['src/main', 'src/core', 'src/shared', 'src/sandbox']);
    expect([...loaded].sort()).toEqual(Object.keys(pkg.dependencies).sort());
  });

  it('hold no package line with published advisories', () => {
    const flagged = packed.filter(({ name, version }) => {
      const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
      const below = (a: number, b: number, c: number): boolean => major < a || (major === a && (minor < b || (minor === b && patch < c)));
      switch (name) {
        case 'axios':
          return major < 1 || below(1, 12, 0); // CVE-2023-45857, CVE-2025-27152, CVE-2025-58754
        case 'semver':
          return major === 7 && below(7, 5, 2); // CVE-2022-25883 (ReDoS)
        case 'debug':
          return version === '4.4.2'; // the compromised release of September 2025
        case 'follow-redirects':
          return below(1, 15, 6); // CVE-2024-28849
        default:
          return false;
      }
    });
    expect(flagged).toEqual([]);
  });
});

// Every ngrok platform package @ngrok/ngrok@1.7.0 can load (its optionalDependencies).
const NGROK_PLATFORMS = ['android-arm64', 'darwin-arm64', 'darwin-universal', 'darwin-x64', 'freebsd-x64', 'linux-arm-gnueabihf', 'linux-arm64-gnu', 'linux-arm64-musl', 'linux-x64-gnu', 'linux-x64-musl', 'win32-arm64-msvc', 'win32-ia32-msvc', 'win32-x64-msvc'];
const ngrokBinary = (platform: string): string => `node_modules/@ngrok/ngrok-${platform}/ngrok.${platform}.node`;

describe.each([
  { target: 'Windows x64 (NSIS)', platform: Platform.WINDOWS, arch: Arch.x64, sqlite: 'win32-x64', ngrok: 'win32-x64-msvc' },
  { target: 'macOS x64 (dmg, zip)', platform: Platform.MAC, arch: Arch.x64, sqlite: 'darwin-x64', ngrok: 'darwin-universal' },
  { target: 'macOS arm64 (dmg, zip)', platform: Platform.MAC, arch: Arch.arm64, sqlite: 'darwin-arm64', ngrok: 'darwin-universal' },
  { target: 'Linux x64 (AppImage)', platform: Platform.LINUX, arch: Arch.x64, sqlite: 'linux-x64', ngrok: 'linux-x64-gnu' },
])('what electron-builder packs for $target', ({ platform, arch, sqlite, ngrok }) => {
  let packedFiles: TargetFiles;
  beforeAll(async () => {
    packedFiles = await targetFiles(platform, arch);
  });

  it('packs of the project only the build output and package.json, not the licence lists or the sources', () => {
    expect(packedFiles.appFiles).toContain('package.json');
    // The build output when there is one (npm test builds after the unit tests).
    if (existsSync(join(root, 'out/main/index.js'))) expect(packedFiles.appFiles).toContain('out/main/index.js');
    const stray = packedFiles.appFiles.filter((file) => file !== 'package.json' && !file.startsWith('out/'));
    expect(stray).toEqual([]);
    // The notices ship beside app.asar (extraResources); the bundles' package lists not at all.
    expect(packedFiles.appFiles.filter((file) => file.startsWith('out/licenses/') || file.endsWith('/bundled-packages.json'))).toEqual([]);
  });

  it(`carries one better-sqlite3 binary: its own (${sqlite})`, () => {
    const binaries = packedFiles.files.filter((file) => file.startsWith('node_modules/better-sqlite3/') && file.endsWith('.node'));
    expect(binaries).toEqual([`node_modules/better-sqlite3/prebuilds/${sqlite}.node`]);
    // All eight prebuilds are installed: the other seven are left out by the target's filter, not absent.
    expect(readdirSync(join(root, 'node_modules/better-sqlite3/prebuilds')).filter((name) => name.endsWith('.node'))).toHaveLength(8);
  });

  it(`keeps only its own ngrok package (${ngrok}), whichever are installed on the build machine`, () => {
    expect(NGROK_PLATFORMS.filter((name) => packedFiles.keeps(ngrokBinary(name)))).toEqual([ngrok]);
    expect(packedFiles.keeps('node_modules/@ngrok/ngrok/index.js')).toBe(true);
    // What this machine installed and the collector found (on the release job's own OS: the target's).
    const packedNgrok = packedFiles.files.filter((file) => /^node_modules\/@ngrok\/ngrok-[^/]+\/.*\.node$/.test(file));
    expect(packedNgrok.every((file) => file === ngrokBinary(ngrok))).toBe(true);
  });
});
