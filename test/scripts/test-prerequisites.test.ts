// The pre-flight `npm test` runs first: nothing to do when all is there; as root on Debian it installs
// exactly the missing packages; otherwise it stops with the one apt-get line (or, without apt-get, the
// package names); on macOS and Windows (injected) it installs nothing and names the Homebrew / winget /
// pip commands, skipping what those systems have built in. Run for real at the end: here all is present.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aptInstallLine, hostKind, installLines, planPrerequisites, prerequisites, type Install, type Prerequisite } from '../../scripts/test-prerequisites';

const tool = (debianPackage: string, present: boolean, macos: Install = { brew: debianPackage }, windows: Install = { winget: debianPackage }): Prerequisite => ({
  what: `${debianPackage} tool`,
  debianPackage,
  macos,
  windows,
  present: () => present,
});

const stopMessage = (plan: ReturnType<typeof planPrerequisites>): string => (plan.kind === 'stop' ? plan.message : `not a stop: ${plan.kind}`);

describe('test prerequisites', () => {
  it('is ready when everything is present', () => {
    expect(planPrerequisites([tool('chromium', true), tool('p7zip-full', true)], { kind: 'apt', isRoot: false })).toEqual({ kind: 'ready' });
  });

  it('as root installs only what is missing, each package once, without recommends', () => {
    const plan = planPrerequisites([tool('chromium', false), tool('p7zip-full', true), tool('fonts-wqy-microhei', false), tool('fonts-wqy-microhei', false)], { kind: 'apt', isRoot: true });
    expect(plan.kind).toBe('install');
    if (plan.kind !== 'install') return;
    expect(plan.command).toEqual([
      ['apt-get', 'update', '-qq'],
      ['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'chromium', 'fonts-wqy-microhei'],
    ]);
  });

  it('otherwise stops at once with the one line to run', () => {
    const message = stopMessage(planPrerequisites([tool('chromium', false), tool('libreoffice-calc-nogui', false)], { kind: 'apt', isRoot: false }));
    expect(message).toContain('  - chromium tool\n  - libreoffice-calc-nogui tool');
    expect(message).toContain('sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium libreoffice-calc-nogui');
    expect(planPrerequisites([tool('p7zip-full', false)], { kind: 'other', isRoot: true })).toEqual({
      kind: 'stop',
      message: 'The tests need programs this machine lacks:\n  - p7zip-full tool\nOn Debian or Ubuntu they come from: p7zip-full',
    });
    expect(aptInstallLine(['chromium'], true)).toBe('apt-get update && apt-get install -y --no-install-recommends chromium');
  });

  it('on a fresh Debian as root (.ci/run) installs every package of the real list in one apt-get line', () => {
    const plan = planPrerequisites(prerequisites().map((prerequisite) => ({ ...prerequisite, present: () => false })), { kind: 'apt', isRoot: true });
    expect(plan.kind === 'install' ? plan.command : plan).toEqual([
      ['apt-get', 'update', '-qq'],
      ['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'chromium', 'p7zip-full', 'python3', 'python3-msoffcrypto-tool', 'libreoffice-calc-nogui', 'fontconfig', 'fonts-wqy-microhei'],
    ]);
  });

  it('tells the platform: apt on Linux with apt-get, macOS and Windows whatever they have', () => {
    expect([hostKind('linux', true), hostKind('linux', false), hostKind('darwin', true), hostKind('win32', false), hostKind('freebsd', false)]).toEqual(['apt', 'other', 'macos', 'windows', 'other']);
  });

  it('on macOS installs nothing, even as root: it names the Homebrew and pip commands and stops', () => {
    const plan = planPrerequisites(prerequisites().map((prerequisite) => ({ ...prerequisite, present: () => false })), { kind: 'macos', isRoot: true });
    expect(plan).toEqual({
      kind: 'stop',
      message: [
        'The tests need programs this machine lacks:',
        '  - Chromium, Chrome or Edge (end-to-end tests)',
        '  - 7-Zip (reads the AES ZIP export)',
        '  - Python 3 (runs msoffcrypto-tool)',
        '  - msoffcrypto-tool (decrypts the XLSX export)',
        '  - LibreOffice Calc (reads the workbook back)',
        'Install them with:',
        '',
        '  brew install sevenzip python',
        '  brew install --cask google-chrome libreoffice',
        '  python3 -m pip install --user msoffcrypto-tool',
        '',
        'then run npm test again; docs/developers.md has the details.',
      ].join('\n'),
    });
  });

  it('on Windows installs nothing, even as an administrator: it names one winget line per program and pip', () => {
    const plan = planPrerequisites(prerequisites().map((prerequisite) => ({ ...prerequisite, present: () => false })), { kind: 'windows', isRoot: false });
    const message = stopMessage(plan);
    expect(message).not.toContain('fontconfig');
    expect(message).not.toContain('CJK');
    expect(message).toContain(
      [
        'Install them with:',
        '',
        '  winget install -e --id Google.Chrome',
        '  winget install -e --id 7zip.7zip',
        '  winget install -e --id Python.Python.3.13',
        '  winget install -e --id TheDocumentFoundation.LibreOffice',
        '  python -m pip install msoffcrypto-tool',
        '',
        'then open a new terminal (winget extends PATH for new ones) and run npm test again; docs/developers.md has the details.',
      ].join('\n'),
    );
  });

  it('names only what is missing on macOS, and is ready when only Linux\'s font tools are absent', () => {
    const fonts = tool('fontconfig', false, 'builtIn', 'builtIn');
    expect(planPrerequisites([fonts, tool('chromium', true, { brewCask: 'google-chrome' })], { kind: 'macos', isRoot: false })).toEqual({ kind: 'ready' });
    expect(planPrerequisites([fonts], { kind: 'windows', isRoot: false })).toEqual({ kind: 'ready' });
    expect(planPrerequisites([fonts], { kind: 'apt', isRoot: false }).kind).toBe('stop');
    const one = stopMessage(planPrerequisites([fonts, tool('chromium', true), tool('libreoffice', false, { brewCask: 'libreoffice' })], { kind: 'macos', isRoot: false }));
    expect(one).toContain('  - libreoffice tool\nInstall them with:\n\n  brew install --cask libreoffice\n\n');
    expect(installLines('macos', [{ brew: 'sevenzip' }, { brew: 'sevenzip' }, 'builtIn'])).toEqual(['brew install sevenzip']);
  });

  it('names a package for every program the suites run, on each platform', () => {
    const all = prerequisites();
    expect(all.map((prerequisite) => prerequisite.debianPackage)).toEqual(['chromium', 'p7zip-full', 'python3', 'python3-msoffcrypto-tool', 'libreoffice-calc-nogui', 'fontconfig', 'fonts-wqy-microhei']);
    expect(all.map((prerequisite) => prerequisite.macos)).toEqual([
      { brewCask: 'google-chrome' },
      { brew: 'sevenzip' },
      { brew: 'python' },
      { pip: 'msoffcrypto-tool' },
      { brewCask: 'libreoffice' },
      'builtIn',
      'builtIn',
    ]);
    expect(all.map((prerequisite) => prerequisite.windows)).toEqual([
      { winget: 'Google.Chrome' },
      { winget: '7zip.7zip' },
      { winget: 'Python.Python.3.13' },
      { pip: 'msoffcrypto-tool' },
      { winget: 'TheDocumentFoundation.LibreOffice' },
      'builtIn',
      'builtIn',
    ]);
  });

  it('looks for the programs as the tests do: a machine (injected) with nothing on PATH has none of them', () => {
    const bare = prerequisites({ platform: 'win32', env: { Path: 'C:\\nothing' }, runnable: () => false });
    expect(bare.filter((prerequisite) => prerequisite.present()).map((prerequisite) => prerequisite.what)).toEqual([]);
  });

  it('run as on macOS (platform set by a preload), even as root here: prints the brew line, installs nothing, exits 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'prerequisites-platform-'));
    try {
      writeFileSync(join(dir, 'darwin.cjs'), "Object.defineProperty(process, 'platform', { value: 'darwin' });\n");
      const run = spawnSync(process.execPath, ['--require', join(dir, 'darwin.cjs'), '--import', 'tsx', 'scripts/test-prerequisites.ts'], { encoding: 'utf8' });
      // No Chrome in /Applications here: the browser is what a macOS machine like this one would lack.
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('  - Chromium, Chrome or Edge (end-to-end tests)\n');
      expect(run.stderr).toContain('  brew install --cask google-chrome\n');
      expect(run.stderr).not.toContain('apt-get');
      expect(run.stderr).not.toContain('Installing');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds everything on this machine (the script exits 0 and installs nothing)', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/test-prerequisites.ts'], { encoding: 'utf8' });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  });
});
