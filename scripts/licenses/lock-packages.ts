// The packages package-lock.json records, and the production closure that ships in node_modules:
// from package.json's dependencies (and their dependencies, optional ones and peers), resolved the way
// Node does (the nearest node_modules upwards), kept only when installed on this machine — so each OS's
// build lists the @ngrok/ngrok platform package `npm ci` installed there and no other.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LockEntry {
  readonly name?: string;
  readonly version?: string;
  readonly license?: string;
  readonly integrity?: string;
  readonly dev?: boolean;
  /** The platforms an optional native package installs on (npm skips it elsewhere). */
  readonly os?: readonly string[];
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  /** The root entry's only: never walked (nothing of them ships unless bundled). */
  readonly devDependencies?: Readonly<Record<string, string>>;
}

export interface LockFile {
  readonly lockfileVersion: number;
  readonly packages: Readonly<Record<string, LockEntry>>;
}

export interface LockPackage {
  /** Where it sits: node_modules/a or node_modules/a/node_modules/b (package-lock.json's key). */
  readonly key: string;
  readonly name: string;
  readonly version: string;
  readonly license: string | null;
  readonly integrity: string | null;
}

function isLockFile(value: unknown): value is LockFile {
  if (typeof value !== 'object' || value === null || !('lockfileVersion' in value) || !('packages' in value)) return false;
  return typeof value.lockfileVersion === 'number' && value.lockfileVersion >= 2 && typeof value.packages === 'object' && value.packages !== null;
}

export function readLockFile(root: string): LockFile {
  const lock: unknown = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  if (!isLockFile(lock)) throw new Error('package-lock.json must be lockfileVersion 2 or 3 (npm ≥ 7)');
  return lock;
}

/** The package's name from its lock key (the last node_modules/<name>). */
export function nameOfKey(key: string): string {
  const at = key.lastIndexOf('node_modules/');
  return key.slice(at + 'node_modules/'.length);
}

export function lockPackage(lock: LockFile, key: string): LockPackage {
  const entry = lock.packages[key];
  if (entry === undefined || entry.version === undefined) throw new Error(`${key} is not in package-lock.json: run npm ci`);
  return { key, name: entry.name ?? nameOfKey(key), version: entry.version, license: entry.license ?? null, integrity: entry.integrity ?? null };
}

/** Node's resolution over lock keys: `name` as required from the package at `from`. */
export function resolveKey(lock: LockFile, from: string, name: string): string | null {
  let base = from;
  for (;;) {
    const candidate = base === '' ? `node_modules/${name}` : `${base}/node_modules/${name}`;
    if (lock.packages[candidate] !== undefined) return candidate;
    if (base === '') return null;
    const at = base.lastIndexOf('/node_modules/');
    base = at < 0 ? '' : base.slice(0, at);
  }
}

/** The lock keys of every installed package the production dependencies reach. */
export function shippedLockKeys(lock: LockFile, installed: (key: string) => boolean): string[] {
  const found = new Set<string>();
  const queue = [''];
  while (queue.length > 0) {
    const from = queue.pop() ?? '';
    const entry = lock.packages[from];
    if (entry === undefined) continue;
    const names = [...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.optionalDependencies ?? {}), ...(from === '' ? [] : Object.keys(entry.peerDependencies ?? {}))];
    for (const name of names) {
      const key = resolveKey(lock, from, name);
      // Not installed: another OS's optional package, or an optional peer nobody asked for.
      if (key === null || found.has(key) || !installed(key)) continue;
      found.add(key);
      queue.push(key);
    }
  }
  return [...found].sort();
}

export const installedUnder = (root: string) => (key: string): boolean => existsSync(join(root, key, 'package.json'));
