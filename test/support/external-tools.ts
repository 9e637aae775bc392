// Where the programs the suites run beside Node live on this machine (7-Zip, msoffcrypto-tool,
// LibreOffice, Python): on PATH (with Windows' .exe/.cmd), then where their installers put them on
// macOS and Windows, which do not always extend PATH. One home for the lookup, used by the tests and by
// the pre-flight (scripts/test-prerequisites.ts), so both agree on what is installed.
import { spawnSync } from 'node:child_process';
import { join as hostJoin, posix, win32 } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runnableHere } from './browser-executable';

export type ExternalTool = '7z' | 'msoffcrypto-tool' | 'soffice' | 'python3';

export interface ToolLookup {
  readonly platform: NodeJS.Platform;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Whether the file exists and may be run (on Windows: exists). */
  readonly runnable: (path: string) => boolean;
}

/** The names each tool answers to: Homebrew's 7-Zip is `7zz`, Windows' Python launcher is `py`. */
const NAMES: Record<ExternalTool, readonly string[]> = {
  '7z': ['7z', '7zz'],
  'msoffcrypto-tool': ['msoffcrypto-tool'],
  soffice: ['soffice'],
  python3: ['python3', 'python'],
};

/** Installed but often not on PATH: the installers' own folders. */
function installedPlaces(tool: ExternalTool, platform: NodeJS.Platform, env: ToolLookup['env']): string[] {
  if (platform === 'darwin') {
    if (tool === 'soffice') return ['/Applications/LibreOffice.app/Contents/MacOS/soffice'];
    return NAMES[tool].flatMap((name) => ['/opt/homebrew/bin', '/usr/local/bin'].map((dir) => posix.join(dir, name)));
  }
  if (platform === 'win32') {
    const programFiles = env['PROGRAMFILES'] ?? env['ProgramFiles'] ?? 'C:\\Program Files';
    if (tool === '7z') return [win32.join(programFiles, '7-Zip', '7z.exe')];
    if (tool === 'soffice') return [win32.join(programFiles, 'LibreOffice', 'program', 'soffice.exe')];
    return [];
  }
  return NAMES[tool].map((name) => posix.join('/usr/bin', name));
}

function pathDirs(lookup: ToolLookup): string[] {
  const value = lookup.env['PATH'] ?? lookup.env['Path'] ?? '';
  return value.split(lookup.platform === 'win32' ? win32.delimiter : posix.delimiter).filter((dir) => dir !== '');
}

/** Windows runs `name` as name.exe or name.cmd (PATHEXT); elsewhere the name is the file. */
function fileNames(name: string, lookup: ToolLookup): string[] {
  if (lookup.platform !== 'win32') return [name];
  const extensions = (lookup.env['PATHEXT'] ?? '.COM;.EXE;.BAT;.CMD').split(';').filter((ext) => ext !== '');
  return extensions.map((ext) => `${name}${ext.toLowerCase()}`);
}

/** Every file PATH offers for these names, in the order a shell would try them. */
function onPath(names: readonly string[], lookup: ToolLookup): string[] {
  const join = (dir: string, file: string): string => (lookup.platform === 'win32' ? win32.join(dir, file) : posix.join(dir, file));
  return pathDirs(lookup).flatMap((dir) => names.flatMap((name) => fileNames(name, lookup).map((file) => join(dir, file))));
}

/** Any program on PATH (what `command -v` answers), for those with no home of their own here (apt-get, fc-list). */
export const findOnPath = (name: string, lookup: ToolLookup): string | undefined => onPath([name], lookup).find((path) => lookup.runnable(path));

/** Every runnable file for `tool`: on PATH first (what a shell would run), then the installers' places. */
function candidates(tool: ExternalTool, lookup: ToolLookup): string[] {
  return unique([...onPath(NAMES[tool], lookup), ...installedPlaces(tool, lookup.platform, lookup.env)]).filter((path) => lookup.runnable(path));
}

const unique = (paths: readonly string[]): string[] => [...new Set(paths)];

export const findTool = (tool: ExternalTool, lookup: ToolLookup): string | undefined => candidates(tool, lookup)[0];

const importsMsoffcrypto = (python: string): boolean => spawnSync(python, ['-c', 'import msoffcrypto'], { stdio: 'ignore', timeout: 30_000 }).status === 0;

/**
 * The Python that imports msoffcrypto (its API checks the workbook's integrity): the first Python is not
 * always the one pip or apt installed it for (pyenv, Homebrew and the system's side by side).
 */
export function findMsoffcryptoPython(lookup: ToolLookup, imports: (python: string) => boolean = importsMsoffcrypto): string | undefined {
  return candidates('python3', lookup).find((python) => imports(python));
}

export const HERE_TOOLS: ToolLookup = { platform: process.platform, env: process.env, runnable: runnableHere };

/** The tool's path here, or its bare name: then running it fails with ENOENT, and the pre-flight has said why. */
export const toolPath = (tool: ExternalTool): string => findTool(tool, HERE_TOOLS) ?? tool;

/** The Python with msoffcrypto here, or the bare name (then the check fails saying the module is missing). */
export const msoffcryptoPython = (): string => findMsoffcryptoPython(HERE_TOOLS) ?? 'python3';

/** Whether the tool is installed here (tests that only add a second reader skip without it). */
export const hasTool = (tool: ExternalTool): boolean => findTool(tool, HERE_TOOLS) !== undefined;

/** LibreOffice's `-env:UserInstallation` for a throw-away profile in `dir` (a file URL, right on Windows too). */
export const libreOfficeProfile = (dir: string): string => `-env:UserInstallation=${pathToFileURL(hostJoin(dir, 'profile')).href}`;
