// Which secret store the desktop app runs with, decided before core opens: the passphrase file when the
// buyer chose it on an earlier run (asked for its passphrase first), safeStorage otherwise. Core gets a
// SwitchableSecretStore so that the buyer can move memory-only secrets into the passphrase file while
// the app runs, without core noticing anything but that its secrets now last.
import type { SecretAwareLogger } from '../../core';
import {
  moveIntoPassphraseFile,
  passphraseFileChosen,
  passphraseFilePath,
  unlockPassphraseFile,
  type AskPassphrase,
} from './passphrase-file-choice';
import type { SafeStoragePort } from './safe-storage-port';
import { SafeStorageSecretStore, type BackendChange } from './safe-storage-secret-store';
import { SwitchableSecretStore } from './switchable-secret-store';
import { join } from 'node:path';

export interface DesktopSecretsOptions {
  readonly userData: string;
  readonly safeStorage: SafeStoragePort;
  readonly logger: SecretAwareLogger;
  /** Asked before core opens when the passphrase file was chosen; null quits. */
  readonly askPassphrase: AskPassphrase;
  readonly onBackendChange?: (change: BackendChange) => void;
  /** scrypt N for a new passphrase file (tests use the floor). */
  readonly passphraseCost?: number;
}

export interface DesktopSecrets {
  readonly store: SwitchableSecretStore;
  /** Moves the in-memory secrets into a new passphrase file and runs on it from then on. */
  usePassphraseFile(passphrase: string): Promise<void>;
}

export const SAFE_STORAGE_FILE = 'secrets.safe-storage.json';

/** The desktop app's secrets, or null when the buyer gave up unlocking the passphrase file. */
export async function openDesktopSecrets(options: DesktopSecretsOptions): Promise<DesktopSecrets | null> {
  const filePath = passphraseFilePath(options.userData);
  if (passphraseFileChosen(options.userData)) {
    const unlocked = await unlockPassphraseFile({
      filePath,
      ask: async (attempt) => {
        if (attempt.wrong) options.logger.warn('the passphrase did not open the secret file; asking again');
        const passphrase = await options.askPassphrase(attempt);
        // Kept registered: a passphrase typed once is hidden from every later log line too.
        if (passphrase !== null && passphrase !== '') options.logger.registerSecret(passphrase);
        return passphrase;
      },
    });
    if (unlocked === null) return null;
    options.logger.info('secret store opened', { kind: unlocked.kind });
    return { store: new SwitchableSecretStore(unlocked), usePassphraseFile: () => Promise.reject(new Error('secrets are already kept in the passphrase file')) };
  }

  const safe = await SafeStorageSecretStore.open({
    filePath: join(options.userData, SAFE_STORAGE_FILE),
    safeStorage: options.safeStorage,
    ...(options.onBackendChange === undefined ? {} : { onBackendChange: options.onBackendChange }),
  });
  options.logger.info('secret store opened', { ...safe.status() });
  const store = new SwitchableSecretStore(safe);
  return {
    store,
    async usePassphraseFile(passphrase) {
      // Hidden from every log line for as long as the move runs (a failure message included).
      const forget = options.logger.registerSecret(passphrase);
      try {
        await store.switchTo(() => moveIntoPassphraseFile({ from: safe, filePath, passphrase, ...(options.passphraseCost === undefined ? {} : { cost: options.passphraseCost }) }));
        options.logger.info('secrets moved into the passphrase file', { kind: store.kind });
      } finally {
        forget();
      }
    },
  };
}
