// Whether the real-Electron suite can run: the Electron binary found the way the `electron` package
// finds it (node_modules/electron/index.js), without its fallback of downloading one, and what the
// suite does without it: skip with the reason, or fail on CI, where a skipped smoke suite is unseen.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export type ElectronBinary = { readonly found: true; readonly path: string } | { readonly found: false; readonly reason: string };

export type Environment = Readonly<Record<string, string | undefined>>;

/** node_modules/electron of this checkout (its package.json only: requiring the package would download). */
export function electronPackageDir(): string {
  return dirname(createRequire(import.meta.url).resolve('electron/package.json'));
}

/**
 * The binary `require('electron')` would answer: `dist/<path.txt>` in the package, or
 * `<ELECTRON_OVERRIDE_DIST_PATH>/<path.txt>`; found only when that file exists.
 */
export function findElectronBinary(packageDir: string, env: Environment): ElectronBinary {
  const pathFile = join(packageDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : null;
  const override = env['ELECTRON_OVERRIDE_DIST_PATH'];
  if (override !== undefined && override !== '') {
    const path = join(override, relative ?? 'electron');
    return existsSync(path) ? { found: true, path } : missing(`ELECTRON_OVERRIDE_DIST_PATH points at ${path}, which does not exist`, env);
  }
  if (relative === null) return missing(`${pathFile} is missing`, env);
  const path = join(packageDir, 'dist', relative);
  return existsSync(path) ? { found: true, path } : missing(`${path} is missing`, env);
}

function missing(what: string, env: Environment): ElectronBinary {
  const skipped = env['ELECTRON_SKIP_BINARY_DOWNLOAD'];
  const why = skipped !== undefined && skipped !== '' ? `${what}; ELECTRON_SKIP_BINARY_DOWNLOAD=${skipped}` : what;
  return { found: false, reason: `no Electron binary (${why}): run \`npx install-electron\` to fetch it, or let CI run the suite` };
}

/**
 * Set to a sentence by a CI machine that has no Electron binary on purpose (.ci/run: it cannot
 * download one); the suite then skips there too, printing that sentence.
 */
export const NO_ELECTRON_VARIABLE = 'PROCURE_NO_ELECTRON';

export type SuitePlan = { readonly kind: 'run'; readonly binary: string } | { readonly kind: 'skip'; readonly reason: string } | { readonly kind: 'fail'; readonly reason: string };

/** Runs with a binary; without one it skips, except on CI (CI=true or 1) unless that CI says why it has none. */
export function planElectronSuite(binary: ElectronBinary, env: Environment): SuitePlan {
  if (binary.found) return { kind: 'run', binary: binary.path };
  const ci = env['CI'] === 'true' || env['CI'] === '1';
  if (!ci) return { kind: 'skip', reason: binary.reason };
  const declared = env[NO_ELECTRON_VARIABLE];
  if (declared !== undefined && declared.trim() !== '') return { kind: 'skip', reason: `${binary.reason} (${NO_ELECTRON_VARIABLE}: ${declared.trim()})` };
  return { kind: 'fail', reason: `${binary.reason}. On CI the real-Electron suite must run: install the binary first, or set ${NO_ELECTRON_VARIABLE} to say why this machine has none` };
}
