// The real-Electron suite's gate (support/electron-binary.ts), in `npm test`: a binary is found exactly
// where the `electron` package would run it, its absence is named, and on CI an absent binary fails the
// suite instead of skipping it unseen, unless the machine says why it has none.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { electronPackageDir, findElectronBinary, NO_ELECTRON_VARIABLE, planElectronSuite, type ElectronBinary } from './support/electron-binary';

let packageDir: string;

beforeEach(() => {
  packageDir = mkdtempSync(join(tmpdir(), 'procure-fake-electron-'));
});

afterEach(() => {
  rmSync(packageDir, { recursive: true, force: true });
});

/** A package folder as `npx install-electron` leaves it: path.txt naming the binary under dist/. */
function install(relative: string, { binary = true } = {}): string {
  writeFileSync(join(packageDir, 'path.txt'), relative);
  const path = join(packageDir, 'dist', relative);
  if (binary) {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, '');
  }
  return path;
}

describe('finding the Electron binary', () => {
  it('finds dist/<path.txt> when the binary is there (as on Linux, Windows and macOS)', () => {
    for (const relative of ['electron', 'electron.exe', 'Electron.app/Contents/MacOS/Electron']) {
      const path = install(relative);
      expect(findElectronBinary(packageDir, {})).toEqual({ found: true, path });
    }
  });

  it('names path.txt when the binary was never fetched, and the variable that skipped the download', () => {
    const absent = findElectronBinary(packageDir, {});
    expect(absent.found).toBe(false);
    const reason = absent.found ? '' : absent.reason;
    expect(reason).toContain(join(packageDir, 'path.txt'));
    expect(reason).toContain('npx install-electron');
    expect(reason).not.toContain('ELECTRON_SKIP_BINARY_DOWNLOAD');
    const skipped = findElectronBinary(packageDir, { ELECTRON_SKIP_BINARY_DOWNLOAD: '1' });
    expect(skipped.found ? '' : skipped.reason).toContain('ELECTRON_SKIP_BINARY_DOWNLOAD=1');
  });

  it('does not take path.txt for the binary: a dist/ removed since is missing', () => {
    const path = install('electron', { binary: false });
    const absent = findElectronBinary(packageDir, {});
    expect(absent.found).toBe(false);
    expect(absent.found ? '' : absent.reason).toContain(`${path} is missing`);
  });

  it('follows ELECTRON_OVERRIDE_DIST_PATH as the package does, found only when the file is there', () => {
    install('electron', { binary: false });
    const override = join(packageDir, 'elsewhere');
    expect(findElectronBinary(packageDir, { ELECTRON_OVERRIDE_DIST_PATH: override }).found).toBe(false);
    mkdirSync(override);
    writeFileSync(join(override, 'electron'), '');
    expect(findElectronBinary(packageDir, { ELECTRON_OVERRIDE_DIST_PATH: override })).toEqual({ found: true, path: join(override, 'electron') });
  });

  it('reads this checkout’s own electron package without requiring it (which would download)', () => {
    expect(electronPackageDir()).toMatch(/node_modules[\\/]electron$/);
  });
});

describe('what the suite does', () => {
  const present: ElectronBinary = { found: true, path: '/opt/electron/electron' };
  const absent: ElectronBinary = { found: false, reason: 'no Electron binary (path.txt is missing): run `npx install-electron`' };

  it('runs on the binary wherever there is one, CI or not', () => {
    expect(planElectronSuite(present, {})).toEqual({ kind: 'run', binary: present.path });
    expect(planElectronSuite(present, { CI: 'true' })).toEqual({ kind: 'run', binary: present.path });
  });

  it('skips with the reason on a developer’s machine', () => {
    expect(planElectronSuite(absent, {})).toEqual({ kind: 'skip', reason: absent.found ? '' : absent.reason });
    expect(planElectronSuite(absent, { CI: 'false' }).kind).toBe('skip');
  });

  it('fails on CI rather than skip unseen', () => {
    for (const ci of ['true', '1']) {
      const plan = planElectronSuite(absent, { CI: ci });
      expect(plan.kind).toBe('fail');
      expect(plan.kind === 'run' ? '' : plan.reason).toContain('npx install-electron');
      expect(plan.kind === 'run' ? '' : plan.reason).toContain(NO_ELECTRON_VARIABLE);
    }
    expect(planElectronSuite(absent, { CI: 'true', [NO_ELECTRON_VARIABLE]: '  ' }).kind).toBe('fail');
  });

  it('skips on a CI machine that says why it has no binary, printing why', () => {
    const plan = planElectronSuite(absent, { CI: 'true', [NO_ELECTRON_VARIABLE]: 'this machine cannot download it' });
    expect(plan.kind).toBe('skip');
    expect(plan.kind === 'run' ? '' : plan.reason).toContain('this machine cannot download it');
  });
});
