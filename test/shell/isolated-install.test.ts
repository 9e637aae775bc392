// scripts/tools/isolated-install.ts: a tool's own lock installed into a cache folder, once per lock,
// never half-installed. A lock without dependencies keeps these runs local (npm ci needs no registry).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ToolInstallError, ensureIsolatedInstall, lockedVersion, toolsCacheRoot } from '../../scripts/tools/isolated-install';

const work = mkdtempSync(join(tmpdir(), 'procure-isolated-install-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function lockFolder(name: string, description: string, dependencies: Record<string, string> = {}): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'tool', version: '1.0.0', private: true, description, dependencies }));
  const root = { name: 'tool', version: '1.0.0' };
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ ...root, lockfileVersion: 3, requires: true, packages: { '': root } }));
  return dir;
}

describe('isolated tool install', () => {
  it('installs the lock into <cache>/<name>-<version>, outside the project, once per lock', () => {
    const cache = join(work, 'cache');
    const lock = lockFolder('lock-a', 'first');
    const target = ensureIsolatedInstall(lock, 'tool', '1.0.0', cache);
    expect(target).toBe(join(cache, 'tool-1.0.0'));
    expect(existsSync(join(target, 'package-lock.json'))).toBe(true);
    const installedAt = statSync(join(target, '.installed-lock')).mtimeMs;

    expect(ensureIsolatedInstall(lock, 'tool', '1.0.0', cache)).toBe(target);
    expect(statSync(join(target, '.installed-lock')).mtimeMs).toBe(installedAt);

    // A changed lock folder is installed again.
    writeFileSync(join(lock, 'package.json'), JSON.stringify({ name: 'tool', version: '1.0.0', private: true, description: 'second' }));
    ensureIsolatedInstall(lock, 'tool', '1.0.0', cache);
    expect(statSync(join(target, '.installed-lock')).mtimeMs).toBeGreaterThan(installedAt);
    expect(readdirSync(cache)).toEqual(['tool-1.0.0']);
  }, 120_000);

  it('fails with ToolInstallError and leaves nothing behind when npm ci fails', () => {
    const cache = join(work, 'cache-bad');
    // package.json asks for a dependency its lock does not hold: npm ci refuses before any download.
    const lock = lockFolder('lock-bad', 'out of sync', { 'left-pad': '1.3.0' });
    expect(() => ensureIsolatedInstall(lock, 'tool', '1.0.0', cache)).toThrow(ToolInstallError);
    expect(existsSync(cache) ? readdirSync(cache) : []).toEqual([]);
  }, 120_000);

  it('reads the pinned version from the lock and caches under XDG_CACHE_HOME or ~/.cache', () => {
    expect(lockedVersion(join(process.cwd(), 'scripts/tools/electronegativity'), '@doyensec/electronegativity')).toBe('1.10.3');
    expect(() => lockedVersion(lockFolder('lock-c', 'none'), 'missing')).toThrow('does not lock missing');
    expect(toolsCacheRoot({ XDG_CACHE_HOME: '/x/cache' })).toBe(join('/x/cache', 'procure-desk-tools'));
    expect(toolsCacheRoot({})).toMatch(/procure-desk-tools$/);
  });
});
