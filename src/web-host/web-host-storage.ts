// Where the web host keeps its data and secrets. It has no OS keychain (no Electron safeStorage), so:
// - `--data DIR` with PROCURE_PASSPHRASE: the CLI's passphrase file (scrypt + AES-256-GCM) in DIR, so
//   the same folder works with `npm run cli` and survives restarts;
// - no `--data`: a throwaway folder and a memory secret store, removed at exit, announced on stderr;
//   its name carries the host's pid, so a later start removes the folders of hosts that were killed.
// `--data` without a passphrase is refused: with the vault key in memory only, cards stored in the
// folder would become unreadable at the next start: a silent loss, the weak fallback DESIGN.md forbids.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { securePrivateFolder } from '../core';
import { MemorySecretStore } from '../core';
import { PassphraseSecretStore } from '../core';
import type { SecretStore } from '../core';
import { UsageError } from './web-host-args';

export interface WebHostStorage {
  dataDir: string;
  secrets: SecretStore;
  /** A throwaway folder of this run (no --data). */
  temporary: boolean;
  /** Removes the throwaway folder; a folder the user named is theirs to keep. */
  dispose(): void;
}

export async function openWebHostStorage(dataDir: string | null, passphrase: string | undefined, notice: (line: string) => void): Promise<WebHostStorage> {
  if (dataDir !== null) {
    if (!passphrase) {
      throw new UsageError('--data needs PROCURE_PASSPHRASE: it protects the API key and the card vault key kept in that folder (without --data, everything stays in memory for this run)');
    }
    const dir = resolve(dataDir);
    securePrivateFolder(dir);
    const secrets = await PassphraseSecretStore.open({ filePath: join(dir, 'secrets.json'), passphrase });
    return { dataDir: dir, secrets, temporary: false, dispose: () => undefined };
  }
  removeAbandonedFolders(tmpdir());
  const dir = mkdtempSync(join(tmpdir(), `${TEMPORARY_PREFIX}${process.pid}-`));
  notice(
    'NOTICE: no --data folder: the API key, the card vault and all data live in memory and a temporary folder for this run only, ' +
      'and are gone when the host stops. For a lasting folder use --data DIR with PROCURE_PASSPHRASE.',
  );
  return { dataDir: dir, secrets: new MemorySecretStore(), temporary: true, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

const TEMPORARY_PREFIX = 'procure-desk-web-';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process of another user has that pid, so it runs.
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}

/**
 * The throwaway folders of hosts that did not stop (SIGKILL, a power cut): `procure-desk-web-<pid>-…`
 * whose pid no longer runs. A pid taken again by another process keeps its folder, harmlessly.
 */
export function removeAbandonedFolders(parent: string): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(parent)) {
    const pid = new RegExp(`^${TEMPORARY_PREFIX}(\\d+)-[A-Za-z0-9]{6}$`).exec(name)?.[1];
    if (pid === undefined || Number(pid) === process.pid || isRunning(Number(pid))) continue;
    try {
      rmSync(join(parent, name), { recursive: true, force: true });
      removed.push(name);
    } catch {
      // Another user's folder: not ours to remove.
    }
  }
  return removed;
}
