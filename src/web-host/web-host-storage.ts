// Where the web host keeps its data and secrets. It has no OS keychain (no Electron safeStorage), so:
// - `--data DIR` with PROCURE_PASSPHRASE: the CLI's passphrase file (scrypt + AES-256-GCM) in DIR, so
//   the same folder works with `npm run cli` and survives restarts;
// - no `--data`: a throwaway folder and a memory secret store, removed at exit, announced on stderr.
// `--data` without a passphrase is refused: with the vault key in memory only, cards stored in the
// folder would become unreadable at the next start: a silent loss, the weak fallback DESIGN.md forbids.
import { mkdtempSync, rmSync } from 'node:fs';
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
    return { dataDir: dir, secrets, dispose: () => undefined };
  }
  const dir = mkdtempSync(join(tmpdir(), 'procure-desk-web-'));
  notice(
    'NOTICE: no --data folder: the API key, the card vault and all data live in memory and a temporary folder for this run only, ' +
      'and are gone when the host stops. For a lasting folder use --data DIR with PROCURE_PASSPHRASE.',
  );
  return { dataDir: dir, secrets: new MemorySecretStore(), dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
