// Run first by `npm test`: the programs the suites use beside Node, checked before anything else so a
// fresh machine learns what is missing at once instead of from a timeout deep inside the suite.
// Found as the tests find them (test/support/browser-executable.ts, test/support/external-tools.ts).
// As root on Debian/Ubuntu the missing packages are installed; anywhere else (macOS: Homebrew, Windows:
// winget, Python's pip for msoffcrypto-tool) the commands to run are printed and the run stops (exit 1).
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { BROWSER_PACKAGES, resolveBrowser } from '../test/support/browser-executable';
import { findMsoffcryptoPython, findOnPath, findTool, HERE_TOOLS, type ExternalTool, type ToolLookup } from '../test/support/external-tools';

/** How macOS or Windows gets a program; `builtIn` where the system already has it (CJK fonts). */
export type Install = { readonly brew: string } | { readonly brewCask: string } | { readonly winget: string } | { readonly pip: string } | 'builtIn';

export interface Prerequisite {
  /** What it is for, in the message. */
  readonly what: string;
  /** The Debian package that provides it. */
  readonly debianPackage: string;
  readonly macos: Install;
  readonly windows: Install;
  readonly present: () => boolean;
}

/** Where the check runs: Debian-like (apt-get), macOS, Windows, or another Linux/BSD. */
export type HostKind = 'apt' | 'macos' | 'windows' | 'other';

export interface Host {
  readonly kind: HostKind;
  readonly isRoot: boolean;
}

export type Plan =
  | { readonly kind: 'ready' }
  | { readonly kind: 'install'; readonly command: readonly string[][]; readonly missing: readonly Prerequisite[] }
  | { readonly kind: 'stop'; readonly message: string };

export function hostKind(platform: NodeJS.Platform, hasAptGet: boolean): HostKind {
  if (platform === 'darwin') return 'macos';
  if (platform === 'win32') return 'windows';
  return hasAptGet ? 'apt' : 'other';
}

function cjkFontInstalled(): boolean {
  const listed = spawnSync('fc-list', [':lang=zh', 'family'], { encoding: 'utf8' });
  return listed.status === 0 && listed.stdout.trim() !== '';
}

const PIP = { pip: 'msoffcrypto-tool' } as const;

export function prerequisites(lookup: ToolLookup = HERE_TOOLS): readonly Prerequisite[] {
  const has = (tool: ExternalTool) => (): boolean => findTool(tool, lookup) !== undefined;
  return [
    {
      what: 'Chromium, Chrome or Edge (end-to-end tests)',
      debianPackage: BROWSER_PACKAGES.debian,
      macos: { brewCask: BROWSER_PACKAGES.brewCask },
      windows: { winget: BROWSER_PACKAGES.winget },
      present: () => resolveBrowser(lookup).kind === 'found',
    },
    { what: '7-Zip (reads the AES ZIP export)', debianPackage: 'p7zip-full', macos: { brew: 'sevenzip' }, windows: { winget: '7zip.7zip' }, present: has('7z') },
    // Its Python API checks the workbook's integrity too (test/core/export/file-readers.ts).
    { what: 'Python 3 (runs msoffcrypto-tool)', debianPackage: 'python3', macos: { brew: 'python' }, windows: { winget: 'Python.Python.3.13' }, present: has('python3') },
    { what: 'msoffcrypto-tool (decrypts the XLSX export)', debianPackage: 'python3-msoffcrypto-tool', macos: PIP, windows: PIP, present: () => has('msoffcrypto-tool')() && findMsoffcryptoPython(lookup) !== undefined },
    { what: 'LibreOffice Calc (reads the workbook back)', debianPackage: 'libreoffice-calc-nogui', macos: { brewCask: 'libreoffice' }, windows: { winget: 'TheDocumentFoundation.LibreOffice' }, present: has('soffice') },
    // Only Linux needs these: macOS (PingFang) and Windows (Microsoft YaHei) draw Chinese out of the box.
    { what: 'fontconfig (finds fonts)', debianPackage: 'fontconfig', macos: 'builtIn', windows: 'builtIn', present: () => findOnPath('fc-list', lookup) !== undefined },
    { what: 'a CJK font (the Chinese UI in Chromium)', debianPackage: 'fonts-wqy-microhei', macos: 'builtIn', windows: 'builtIn', present: () => findOnPath('fc-list', lookup) !== undefined && cjkFontInstalled() },
  ];
}

/** The one install line for these packages. Recommends are skipped: LibreOffice's would add a desktop's worth. */
export function aptInstallLine(packages: readonly string[], asRoot: boolean): string {
  const sudo = asRoot ? '' : 'sudo ';
  return `${sudo}apt-get update && ${sudo}apt-get install -y --no-install-recommends ${packages.join(' ')}`;
}

const unique = (items: readonly string[]): string[] => [...new Set(items)];

type Manager = 'brew' | 'brewCask' | 'winget' | 'pip';

function nameIn(install: Install, manager: Manager): string | undefined {
  if (install === 'builtIn') return undefined;
  if (manager === 'brew') return 'brew' in install ? install.brew : undefined;
  if (manager === 'brewCask') return 'brewCask' in install ? install.brewCask : undefined;
  if (manager === 'winget') return 'winget' in install ? install.winget : undefined;
  return 'pip' in install ? install.pip : undefined;
}

/** The commands that install `installs` on macOS or Windows, one line per tool (Homebrew takes several names at once). */
export function installLines(host: 'macos' | 'windows', installs: readonly Install[]): string[] {
  const pick = (manager: Manager): string[] => unique(installs.flatMap((install) => nameIn(install, manager) ?? []));
  // Windows' python.org Python has no python3 and puts its own Scripts folder (not the --user one) on PATH.
  const pip = host === 'windows' ? 'python -m pip install' : 'python3 -m pip install --user';
  const pips = pick('pip');
  return [
    ...(pick('brew').length > 0 ? [`brew install ${pick('brew').join(' ')}`] : []),
    ...(pick('brewCask').length > 0 ? [`brew install --cask ${pick('brewCask').join(' ')}`] : []),
    ...pick('winget').map((id) => `winget install -e --id ${id}`),
    ...(pips.length > 0 ? [`${pip} ${pips.join(' ')}`] : []),
  ];
}

export function planPrerequisites(all: readonly Prerequisite[], host: Host): Plan {
  const missing = all.filter((prerequisite) => (host.kind === 'macos' ? prerequisite.macos : host.kind === 'windows' ? prerequisite.windows : null) !== 'builtIn' && !prerequisite.present());
  if (missing.length === 0) return { kind: 'ready' };
  const list = missing.map((prerequisite) => `  - ${prerequisite.what}`).join('\n');
  const lacks = `The tests need programs this machine lacks:\n${list}\n`;
  if (host.kind === 'macos' || host.kind === 'windows') {
    const lines = installLines(host.kind, missing.map((prerequisite) => prerequisite[host.kind === 'macos' ? 'macos' : 'windows']));
    const then = host.kind === 'windows' ? 'then open a new terminal (winget extends PATH for new ones) and run npm test again' : 'then run npm test again';
    return { kind: 'stop', message: `${lacks}Install them with:\n\n${lines.map((line) => `  ${line}`).join('\n')}\n\n${then}; docs/developers.md has the details.` };
  }
  const packages = unique(missing.map((prerequisite) => prerequisite.debianPackage));
  if (host.kind === 'other') return { kind: 'stop', message: `${lacks}On Debian or Ubuntu they come from: ${packages.join(' ')}` };
  if (!host.isRoot) return { kind: 'stop', message: `${lacks}Install them with:\n\n  ${aptInstallLine(packages, false)}\n` };
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
  const host: Host = { kind: hostKind(process.platform, findOnPath('apt-get', HERE_TOOLS) !== undefined), isRoot: process.getuid?.() === 0 };
  const all = prerequisites();
  const plan = planPrerequisites(all, host);
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
  const still = planPrerequisites(all, host);
  if (still.kind !== 'ready') {
    console.error('The packages were installed but something is still missing; see above.');
    return 1;
  }
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = main();
