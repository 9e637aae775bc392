// Stopping `npm run sandbox` by signalling npm alone (what a test runner's terminate() or `kill <pid>`
// does) must stop the sandbox too. npm forwards SIGTERM only to the shell it started, and Debian's
// dash does not exec the script's command, so the shell dies and the signal never reaches us: the
// sandbox would run on as an orphan, holding its ports. So, on Linux, we find the npm (or npx)
// process among our ancestors at start and stop once it is no longer one of them.
import { readFileSync } from 'node:fs';

const MAX_DEPTH = 8;

function readProc(pid: number, file: string): string | null {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return null;
  }
}

function parentOf(pid: number): number | null {
  const stat = readProc(pid, 'stat');
  if (stat === null) return null;
  // Field 2 (the command name) is in parentheses and may hold spaces; the state and ppid follow it.
  const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  return Number.isInteger(ppid) && ppid > 1 ? ppid : null;
}

function isNpm(pid: number): boolean {
  // npm renames itself ("npm run sandbox", "npm exec tsx …"); before that it is node running npm-cli.js.
  const cmdline = (readProc(pid, 'cmdline') ?? '').replaceAll('\0', ' ');
  return /^(\S*\/)?npm( |$)/.test(cmdline) || /\/npm-cli\.js( |$)/.test(cmdline);
}

function ancestors(): number[] {
  const chain: number[] = [];
  let pid = parentOf(process.pid);
  while (pid !== null && chain.length < MAX_DEPTH) {
    chain.push(pid);
    pid = parentOf(pid);
  }
  return chain;
}

/** The npm process that launched us, when started through npm on a system with /proc; else null. */
export function findNpmLauncher(): number | null {
  if (process.env['npm_lifecycle_event'] === undefined) return null;
  return ancestors().find(isNpm) ?? null;
}

/**
 * Calls `onGone` once the launcher is no longer our ancestor. Checking the chain rather than whether
 * the pid exists also catches a launcher that has exited but not yet been reaped by its parent.
 */
export function watchLauncher(launcher: number, onGone: () => void, intervalMs = 500): () => void {
  const timer = setInterval(() => {
    if (ancestors().includes(launcher)) return;
    clearInterval(timer);
    onGone();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
