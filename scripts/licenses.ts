// npm run licenses (after the build): THIRD_PARTY_NOTICES.txt and the CycloneDX SBOM of what this
// machine's installer ships, into out/licenses (electron-builder.yml ships it as resources/licenses):
// the production packages installed in node_modules, and the packages bundled into main, preload and
// the renderer (out/*/bundled-packages.json, written by the build). Run on each target's own OS.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLED_PACKAGES_FILE } from './licenses/bundled-packages-plugin';
import { licenceTexts } from './licenses/licence-texts';
import { installedUnder, lockPackage, readLockFile, shippedLockKeys } from './licenses/lock-packages';
import { cycloneDx, mergePlaces, noticesText, type App, type Place } from './licenses/third-party';

const BUNDLES: readonly { readonly dir: string; readonly place: Place }[] = [
  { dir: 'main', place: 'main bundle' },
  { dir: 'preload', place: 'preload bundle' },
  { dir: 'renderer', place: 'renderer bundle' },
];

function bundledKeys(root: string, dir: string): string[] {
  const file = join(root, 'out', dir, BUNDLED_PACKAGES_FILE);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file} is missing or unreadable: run npm run build first`, { cause: error });
  }
  if (typeof parsed !== 'object' || parsed === null || !('packages' in parsed) || !Array.isArray(parsed.packages)) throw new Error(`${file} holds no package list`);
  return parsed.packages.filter((key): key is string => typeof key === 'string');
}

export interface LicenceFiles {
  readonly notices: string;
  readonly sbom: string;
  readonly count: number;
}

export function licenceFiles(root: string, now = new Date()): LicenceFiles {
  const lock = readLockFile(root);
  const manifest: unknown = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const app: App = typeof manifest === 'object' && manifest !== null && 'name' in manifest && 'version' in manifest ? { name: String(manifest.name), version: String(manifest.version) } : { name: 'app', version: '0.0.0' };
  const found = [
    ...shippedLockKeys(lock, installedUnder(root)).map((key) => ({ pkg: lockPackage(lock, key), place: 'node_modules' as const })),
    ...BUNDLES.flatMap(({ dir, place }) => bundledKeys(root, dir).map((key) => ({ pkg: lockPackage(lock, key), place }))),
  ];
  const packages = mergePlaces(found, (key) => licenceTexts(join(root, key)));
  return { notices: noticesText(app, packages), sbom: `${JSON.stringify(cycloneDx(app, packages, now), null, 2)}\n`, count: packages.length };
}

function main(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const files = licenceFiles(root);
  const dir = join(root, 'out', 'licenses');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'THIRD_PARTY_NOTICES.txt'), files.notices);
  writeFileSync(join(dir, 'sbom.cdx.json'), files.sbom);
  console.log(`licenses: ${files.count} packages → out/licenses/THIRD_PARTY_NOTICES.txt, out/licenses/sbom.cdx.json`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
