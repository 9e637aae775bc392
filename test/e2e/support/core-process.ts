// The web host's core process, found from outside as a person would with `ps`: the process running the
// core entry (core-process-main) beneath the web host we started. Linux /proc only.
import { readdirSync, readFileSync } from 'node:fs';

function parentOf(pid: number): number | null {
  try {
    // /proc/PID/stat: "pid (comm) state ppid …"; comm may hold spaces and parentheses, so split after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : null;
  } catch {
    return null;
  }
}

function descendsFrom(pid: number, ancestor: number): boolean {
  for (let current: number | null = pid, depth = 0; current !== null && current > 1 && depth < 16; depth++) {
    if (current === ancestor) return true;
    current = parentOf(current);
  }
  return false;
}

/** The pid of the core process under `hostPid`, or null while there is none (it is being restarted). */
export function findCorePid(hostPid: number): number | null {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (cmdline.includes('core-process-main') && descendsFrom(pid, hostPid)) return pid;
  }
  return null;
}

/** The web host's own process: the core process's parent (the supervisor forks it). */
export function parentPid(pid: number): number | null {
  return parentOf(pid);
}
