// Run first by `npm test`: the programs the suites use beside Node, checked before anything else so a
// fresh machine learns what is missing at once instead of from a timeout deep inside the suite.
// - Chromium (Debian's, never a Playwright download) drives the end-to-end tests;
// - 7-Zip and msoffcrypto-tool open the AES ZIP and the password-protected XLSX an export writes;
// - LibreOffice (soffice) reads the decrypted workbook back;
// - a CJK font lets Chromium draw the Chinese UI (fc-list, from fontconfig, finds it).
// As root on Debian/Ubuntu the missing packages are installed; otherwise the one command to run is
// printed and the run stops (exit 1).
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface Prerequisite {
  /** What it is for, in the message. */
  readonly what: string;
  /** The Debian package that provides it. */
  readonly debianPackage: string;
  readonly present: () => boolean;
}

export type Plan =
  | { readonly kind: 'ready' }
  | { readonly kind: 'install'; readonly command: readonly string[][]; readonly missing: readonly Prerequisite[] }
  | { readonly kind: 'stop'; readonly message: string };

/** Whether `name` is an executable on PATH (what `command -v` answers). */
export function onPath(name: string, path = process.env['PATH'] ?? ''): boolean {
  return path.split(delimiter).some((dir) => {
    if (dir === '') return false;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function cjkFontInstalled(): boolean {
  const listed = spawnSync('fc-list', [':lang=zh', 'family'], { encoding: 'utf8' });
  return listed.status === 0 && listed.stdout.trim() !== '';
}

export const PREREQUISITES: readonly Prerequisite[] = [
  // The path test/e2e/support/browser.ts launches.
  { what: 'Chromium (end-to-end tests)', debianPackage: 'chromium', present: () => executable('/usr/bin/chromium') },
  { what: '7-Zip (reads the AES ZIP export)', debianPackage: 'p7zip-full', present: () => onPath('7z') },
  { what: 'msoffcrypto-tool (decrypts the XLSX export)', debianPackage: 'python3-msoffcrypto-tool', present: () => onPath('msoffcrypto-tool') },
  // The path test/core/export/card-exporter.test.ts runs.
  { what: 'LibreOffice Calc (reads the workbook back)', debianPackage: 'libreoffice-calc-nogui', present: () => executable('/usr/bin/soffice') },
  { what: 'fontconfig (finds fonts)', debianPackage: 'fontconfig', present: () => onPath('fc-list') },
  { what: 'a CJK font (the Chinese UI in Chromium)', debianPackage: 'fonts-wqy-microhei', present: () => onPath('fc-list') && cjkFontInstalled() },
];

/** The one install line for these packages. Recommends are skipped: LibreOffice's would add a desktop's worth. */
export function aptInstallLine(packages: readonly string[], asRoot: boolean): string {
  const sudo = asRoot ? '' : 'sudo ';
  return `${sudo}apt-get update && ${sudo}apt-get install -y --no-install-recommends ${packages.join(' ')}`;
}

export function planPrerequisites(prerequisites: readonly Prerequisite[], environment: { readonly isRoot: boolean; readonly hasAptGet: boolean }): Plan {
  const missing = prerequisites.filter((prerequisite) => !prerequisite.present());
  if (missing.length === 0) return { kind: 'ready' };
  const packages = [...new Set(missing.map((prerequisite) => prerequisite.debianPackage))];
  const list = missing.map((prerequisite) => `  - ${prerequisite.what}`).join('\n');
  if (!environment.hasAptGet) {
    return { kind: 'stop', message: `The tests need programs this machine lacks:\n${list}\nOn Debian or Ubuntu they come from: ${packages.join(' ')}` };
  }
  if (!environment.isRoot) {
    return { kind: 'stop', message: `The tests need programs this machine lacks:\n${list}\nInstall them with:\n\n  ${aptInstallLine(packages, false)}\n` };
  }
  return {
    kind: 'install',
    missing,
    command: [
      ['apt-get', 'update', '-qq'],
      ['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...packages],
    ],
  };
}

function main(): number {
  const environment = { isRoot: process.getuid?.() === 0, hasAptGet: onPath('apt-get') };
  const plan = planPrerequisites(PREREQUISITES, environment);
  if (plan.kind === 'ready') return 0;
  if (plan.kind === 'stop') {
    console.error(plan.message);
    return 1;
  }
  console.error(`Installing what the tests need: ${plan.missing.map((prerequisite) => prerequisite.what).join(', ')}`);
  for (const [program, ...args] of plan.command) {
    if (program === undefined) continue;
    const run = spawnSync(program, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (run.status !== 0) {
      console.error(`${[program, ...args].join(' ')} failed (exit ${String(run.status ?? run.signal)})`);
      return 1;
    }
  }
  const still = planPrerequisites(PREREQUISITES, environment);
  if (still.kind !== 'ready') {
    console.error('The packages were installed but something is still missing; see above.');
    return 1;
  }
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = main();
