// The pre-flight `npm test` runs first: nothing to do when all is there; as root on Debian it installs
// exactly the missing packages; otherwise it stops with the one apt-get line (or, without apt-get, the
// package names). Run for real at the end: on this machine everything is present.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { PREREQUISITES, aptInstallLine, planPrerequisites, type Prerequisite } from '../../scripts/test-prerequisites';

const tool = (debianPackage: string, present: boolean): Prerequisite => ({ what: `${debianPackage} tool`, debianPackage, present: () => present });

describe('test prerequisites', () => {
  it('is ready when everything is present', () => {
    expect(planPrerequisites([tool('chromium', true), tool('p7zip-full', true)], { isRoot: false, hasAptGet: true })).toEqual({ kind: 'ready' });
  });

  it('as root installs only what is missing, each package once, without recommends', () => {
    const plan = planPrerequisites([tool('chromium', false), tool('p7zip-full', true), tool('fonts-wqy-microhei', false), tool('fonts-wqy-microhei', false)], { isRoot: true, hasAptGet: true });
    expect(plan.kind).toBe('install');
    if (plan.kind !== 'install') return;
    expect(plan.command).toEqual([
      ['apt-get', 'update', '-qq'],
      ['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'chromium', 'fonts-wqy-microhei'],
    ]);
  });

  it('otherwise stops at once with the one line to run', () => {
    const plan = planPrerequisites([tool('chromium', false), tool('libreoffice-calc-nogui', false)], { isRoot: false, hasAptGet: true });
    expect(plan.kind).toBe('stop');
    if (plan.kind !== 'stop') return;
    expect(plan.message).toContain('  - chromium tool\n  - libreoffice-calc-nogui tool');
    expect(plan.message).toContain('sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium libreoffice-calc-nogui');
    expect(planPrerequisites([tool('p7zip-full', false)], { isRoot: true, hasAptGet: false })).toEqual({
      kind: 'stop',
      message: 'The tests need programs this machine lacks:\n  - p7zip-full tool\nOn Debian or Ubuntu they come from: p7zip-full',
    });
    expect(aptInstallLine(['chromium'], true)).toBe('apt-get update && apt-get install -y --no-install-recommends chromium');
  });

  it('names a Debian package for every program the suites run', () => {
    expect(PREREQUISITES.map((prerequisite) => prerequisite.debianPackage)).toEqual([
      'chromium',
      'p7zip-full',
      'python3-msoffcrypto-tool',
      'libreoffice-calc-nogui',
      'fontconfig',
      'fonts-wqy-microhei',
    ]);
  });

  it('finds everything on this machine (the script exits 0 and installs nothing)', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/test-prerequisites.ts'], { encoding: 'utf8' });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  });
});
