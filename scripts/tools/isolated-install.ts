// A developer tool kept out of the project's dependency tree: its package.json and lock live in
// scripts/tools/<name>/ and `npm ci --prefix` installs exactly that lock into a cache folder outside
// the project (~/.cache/procure-desk-tools/<name>-<version>), again only when the lock changes.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

/** Exit code of a tool script whose install failed (so a test can tell "registry unreachable" from a finding). */
export const INSTALL_FAILED_EXIT = 2;

export class ToolInstallError extends Error {
  override readonly name = 'ToolInstallError';
}

/** Where tools are cached: $XDG_CACHE_HOME, %LOCALAPPDATA% on Windows, else ~/.cache. */
export function toolsCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const base = env['XDG_CACHE_HOME'] ?? (process.platform === 'win32' ? env['LOCALAPPDATA'] : undefined) ?? join(homedir(), '.cache');
  return join(base, 'procure-desk-tools');
}

/** The version of `pkg` the lock in `lockDir` pins. */
export function lockedVersion(lockDir: string, pkg: string): string {
  const lock = JSON.parse(readFileSync(join(lockDir, 'package-lock.json'), 'utf8')) as { packages?: Record<string, { version?: string }> };
  const version = lock.packages?.[`node_modules/${pkg}`]?.version;
  if (version === undefined) throw new Error(`${lockDir}/package-lock.json does not lock ${pkg}`);
  return version;
}

/** npm's own CLI, run with this Node (no shell, any OS): the npm running us (npm_execpath), else the
 *  one beside this Node or on PATH (Unix links `npm` to it; Windows keeps it in node_modules/npm). */
export function npmCli(env: NodeJS.ProcessEnv = process.env): string {
  const dirs = [dirname(process.execPath), ...(env['PATH'] ?? '').split(delimiter).filter((dir) => dir !== '')];
  const candidates = [env['npm_execpath'], ...dirs.flatMap((dir) => [join(dir, '../lib/node_modules/npm/bin/npm-cli.js'), join(dir, 'node_modules/npm/bin/npm-cli.js'), join(dir, 'npm')])];
  for (const candidate of candidates) {
    if (candidate === undefined || !existsSync(candidate)) continue;
    const real = realpathSync(candidate);
    if (real.endsWith('npm-cli.js')) return real;
  }
  throw new ToolInstallError('npm was not found (npm_execpath, beside this Node or on PATH)');
}

const lockHash = (lockDir: string): string =>
  createHash('sha256')
    .update(readFileSync(join(lockDir, 'package.json')))
    .update(readFileSync(join(lockDir, 'package-lock.json')))
    .digest('hex');

/**
 * Installs the lock in `lockDir` into `<cache>/<name>-<version>` unless that folder already holds
 * it; answers the folder. Installed into a fresh folder first and moved into place when complete, so
 * an interrupted install is never taken for a finished one. Install scripts never run.
 */
export function ensureIsolatedInstall(lockDir: string, name: string, version: string, cacheRoot = toolsCacheRoot()): string {
  const target = join(cacheRoot, `${name}-${version}`);
  const marker = join(target, '.installed-lock');
  const hash = lockHash(lockDir);
  if (existsSync(marker) && readFileSync(marker, 'utf8') === hash) return target;

  const staging = `${target}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(lockDir, file), join(staging, file));
  const npm = spawnSync(process.execPath, [npmCli(), 'ci', '--prefix', staging, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (npm.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new ToolInstallError(`npm ci of ${name}@${version} into ${target} failed (exit ${String(npm.status)}): ${npm.stderr.trim() || npm.stdout.trim()}`);
  }
  writeFileSync(join(staging, '.installed-lock'), hash);
  rmSync(target, { recursive: true, force: true });
  renameSync(staging, target);
  return target;
}
