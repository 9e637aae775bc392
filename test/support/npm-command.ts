// `npm …` as something spawn can start on every OS. Windows' npm is npm.cmd, which Node runs only through
// a shell (since the fix for CVE-2024-27980), so there npm's own CLI script runs under this Node instead:
// the one that started us (npm_execpath) or the one installed beside node.exe.
import { existsSync } from 'node:fs';
import { win32 } from 'node:path';

export interface NpmCommand {
  readonly command: string;
  readonly args: string[];
}

export interface NpmHost {
  readonly platform: NodeJS.Platform;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly execPath: string;
  readonly exists: (path: string) => boolean;
}

const HERE: NpmHost = { platform: process.platform, env: process.env, execPath: process.execPath, exists: existsSync };

export function npmCommand(args: readonly string[], host: NpmHost = HERE): NpmCommand {
  if (host.platform !== 'win32') return { command: 'npm', args: [...args] };
  const started = host.env['npm_execpath'];
  // npm_execpath is npm-cli.js under npm, but may name another tool's script (pnpm, yarn): only npm's counts.
  const cli = started !== undefined && /npm-cli\.c?js$/.test(started) ? started : win32.join(win32.dirname(host.execPath), 'node_modules', 'npm', 'bin', 'npm-cli.js');
  if (!host.exists(cli)) throw new Error(`npm's CLI is not at ${cli}: install Node.js with its npm (winget install OpenJS.NodeJS.LTS)`);
  return { command: host.execPath, args: [cli, ...args] };
}
