// Where the CLI's passphrase comes from. PROCURE_PASSPHRASE when set. Without it, the data folder
// keeps a random passphrase in a key file readable by its owner only (as gh or the AWS CLI keep a
// token in a 0600 file when no keyring is there): a script that only sets PROCURE_API_KEY works, the
// API key and the card vault are still never stored in plain text, and the weaker protection is
// said once, loudly, when the file is made. A folder first protected by a passphrase never falls
// back to a key file: it asks for the passphrase.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from './cli-args';

export const KEY_FILE_NAME = 'passphrase.key';
export const SECRET_FILE_NAME = 'secrets.json';

export interface PassphraseChoice {
  readonly passphrase: string;
  /** Said on stderr: set when this call created the key file. */
  readonly notice: string | null;
}

export function cliPassphrase(dataDir: string, fromEnv: string | undefined): PassphraseChoice {
  if (fromEnv !== undefined && fromEnv !== '') return { passphrase: fromEnv, notice: null };
  const keyFile = join(dataDir, KEY_FILE_NAME);
  if (existsSync(keyFile)) {
    // As ssh does with a private key: a file others can read protects nothing.
    if (process.platform !== 'win32' && (statSync(keyFile).mode & 0o077) !== 0) {
      throw new UsageError(`${keyFile} can be read by other users; restrict it (chmod 600) or set PROCURE_PASSPHRASE`);
    }
    const passphrase = readFileSync(keyFile, 'utf8').trim();
    if (passphrase === '') throw new UsageError(`${keyFile} is empty; set PROCURE_PASSPHRASE`);
    return { passphrase, notice: null };
  }
  if (existsSync(join(dataDir, SECRET_FILE_NAME))) {
    throw new UsageError('this data folder is protected by a passphrase: set PROCURE_PASSPHRASE');
  }
  const passphrase = randomBytes(32).toString('base64url');
  // `wx`: never overwrite a key file another process made meanwhile.
  writeFileSync(keyFile, `${passphrase}\n`, { mode: 0o600, flag: 'wx' });
  return {
    passphrase,
    notice:
      `note: PROCURE_PASSPHRASE is not set, so the key protecting the API key and the card vault was written to ${keyFile} ` +
      '(readable by you only). For passphrase protection, set PROCURE_PASSPHRASE before the first command on a new data folder.',
  };
}
