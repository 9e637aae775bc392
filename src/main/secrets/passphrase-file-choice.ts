// The passphrase-protected secret file in the desktop app: where the buyer's secrets go when
// the OS offers no keyring that protects them (Linux's basic_text, or no safeStorage at all), so that
// the API key, the vault's data key and the ngrok token survive a restart. The file is the CLI's
// format (PassphraseSecretStore, scrypt + AES-GCM); its presence in userData is the choice itself:
// at the next start main finds it and asks for the passphrase before core opens.
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { checkExportPassword, PASSWORD_PROBLEM_TEXT, type PasswordProblem } from '../../shared/password-policy';
import { PassphraseSecretStore, WrongPassphraseError } from '../../core';

export const PASSPHRASE_SECRETS_FILE = 'secrets.passphrase.json';

export const passphraseFilePath = (userData: string): string => join(userData, PASSPHRASE_SECRETS_FILE);

/** True when the buyer chose the passphrase file on an earlier run. */
export const passphraseFileChosen = (userData: string): boolean => existsSync(passphraseFilePath(userData));

/** The store whose secrets live in memory only (SafeStorageSecretStore without a trusted keyring). */
export interface MemorySecretSource {
  readonly kind: string;
  memorySecrets(): Promise<ReadonlyMap<string, string>>;
  forgetMemorySecrets(): Promise<void>;
}

export class NotMemoryOnlyError extends Error {
  override readonly name = 'NotMemoryOnlyError';
  constructor() {
    super('secrets are already kept on disk; the passphrase file is offered only while they are in memory');
  }
}

export class PassphraseFileExistsError extends Error {
  override readonly name = 'PassphraseFileExistsError';
  constructor() {
    super('a passphrase-protected secret file already exists; it is never overwritten');
  }
}

export class WeakPassphraseError extends Error {
  override readonly name = 'WeakPassphraseError';
  constructor(readonly problem: PasswordProblem) {
    super(PASSWORD_PROBLEM_TEXT[problem]);
  }
}

export interface MoveOptions {
  readonly from: MemorySecretSource;
  readonly filePath: string;
  readonly passphrase: string;
  /** scrypt N for the new file (tests use the floor); default the store's. */
  readonly cost?: number;
}

/**
 * Creates the passphrase file and copies every in-memory secret into it, each read back before the
 * memory copy is dropped. Any failure removes the new file and leaves the memory store as it was, so
 * nothing is lost either way.
 */
export async function moveIntoPassphraseFile(options: MoveOptions): Promise<PassphraseSecretStore> {
  if (options.from.kind !== 'memory') throw new NotMemoryOnlyError();
  const verdict = checkExportPassword(options.passphrase);
  if (verdict.problem !== null) throw new WeakPassphraseError(verdict.problem);
  if (existsSync(options.filePath)) throw new PassphraseFileExistsError();
  const secrets = await options.from.memorySecrets();
  const store = await PassphraseSecretStore.open({ filePath: options.filePath, passphrase: options.passphrase, ...(options.cost === undefined ? {} : { cost: options.cost }) });
  try {
    for (const [name, value] of secrets) await store.set(name, value);
    for (const [name, value] of secrets) {
      if ((await store.get(name)) !== value) throw new Error('a secret did not read back from the passphrase file');
    }
  } catch (error) {
    store.close();
    await rm(options.filePath, { force: true });
    throw error;
  }
  await options.from.forgetMemorySecrets();
  return store;
}

/** Asked for the passphrase; `wrong` says the previous answer did not open the file. Null: the buyer gave up. */
export type AskPassphrase = (attempt: { readonly wrong: boolean }) => Promise<string | null>;

/**
 * Opens the chosen passphrase file at start, asking until the passphrase opens it (a wrong one is
 * said and asked again) or the buyer gives up (null). A damaged file is an error, never a new file.
 */
export async function unlockPassphraseFile(options: { readonly filePath: string; readonly ask: AskPassphrase }): Promise<PassphraseSecretStore | null> {
  let wrong = false;
  for (;;) {
    const passphrase = await options.ask({ wrong });
    if (passphrase === null) return null;
    if (passphrase === '') {
      wrong = true;
      continue;
    }
    // Checked again here: the file may have been removed since main looked, and open() would create one.
    if (!existsSync(options.filePath)) throw new Error('the passphrase-protected secret file is gone');
    try {
      return await PassphraseSecretStore.open({ filePath: options.filePath, passphrase });
    } catch (error) {
      if (!(error instanceof WrongPassphraseError)) throw error;
      wrong = true;
    }
  }
}
