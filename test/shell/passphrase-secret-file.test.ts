// While the desktop app keeps secrets in memory only (Linux's basic_text), the buyer can
// move them into the passphrase-protected file; at the next start the app asks for that passphrase
// before core opens, refuses a wrong one and asks again, and the API key and the vault's data key
// are there (no DATA_KEY_MISSING). The passphrase is in no log line.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore } from '../../src/core/create-core';
import { API_KEY_SECRET } from '../../src/core/connection/connection-settings';
import { NGROK_AUTHTOKEN_SECRET } from '../../src/core/webhooks/tunnels/ngrok-tunnel';
import { RedactingLogger } from '../../src/core/logging/redacting-logger';
import { MIN_SCRYPT_N } from '../../src/core/secrets/secret-file-format';
import { PassphraseSecretStore, WrongPassphraseError } from '../../src/core/secrets/passphrase-secret-store';
import { CURRENT_KEY_SECRET, keySecretName } from '../../src/core/vault/card-cipher';
import { openDesktopSecrets, type DesktopSecrets } from '../../src/main/secrets/desktop-secret-store';
import { PASSPHRASE_SECRETS_FILE, PassphraseFileExistsError, WeakPassphraseError, type AskPassphrase } from '../../src/main/secrets/passphrase-file-choice';
import type { SafeStoragePort } from '../../src/main/secrets/safe-storage-port';

const PASSPHRASE = 'Lantern-river 47 orchard';
const API_KEY = 'AK_live_3f9c2e7d41b8a0';
const NGROK_TOKEN = '2abcNgrokToken_9f8e7d6c5b4a';

/** Linux's basic_text backend: available, but the store keeps secrets in memory only. */
const basicText: SafeStoragePort = {
  backend: () => 'basic_text',
  isAvailable: () => Promise.resolve(true),
  encrypt: () => Promise.reject(new Error('nothing is encrypted with basic_text in these tests')),
  decrypt: () => Promise.reject(new Error('nothing is decrypted with basic_text in these tests')),
};

let userData: string;
let logLines: string[];
beforeEach(() => {
  userData = mkdtempSync(join(tmpdir(), 'pd-passphrase-file-'));
  logLines = [];
});
afterEach(() => rmSync(userData, { recursive: true, force: true }));

const logger = (): RedactingLogger => new RedactingLogger({ sink: (line) => logLines.push(line), level: 'debug' });

/** A renderer's unlock step that answers from a list and records whether it was told "wrong". */
function answers(list: (string | null)[]): { ask: AskPassphrase; attempts: boolean[] } {
  const attempts: boolean[] = [];
  return {
    attempts,
    ask: (attempt) => {
      attempts.push(attempt.wrong);
      return Promise.resolve(list.shift() ?? null);
    },
  };
}

async function start(ask: AskPassphrase): Promise<DesktopSecrets | null> {
  return openDesktopSecrets({ userData, safeStorage: basicText, logger: logger(), askPassphrase: ask, passphraseCost: MIN_SCRYPT_N });
}

async function started(ask: AskPassphrase): Promise<DesktopSecrets> {
  const secrets = await start(ask);
  if (secrets === null) throw new Error('the app gave up starting');
  return secrets;
}

describe('passphrase-protected secret file in the desktop app', () => {
  it('moves the in-memory secrets into the file, and they survive a restart with the right passphrase after a wrong one', async () => {
    const never = answers([]);
    const first = await started(never.ask);
    expect(never.attempts).toEqual([]);
    expect(first.store.kind).toBe('memory');
    const core = await createCore({ dataDir: join(userData, 'data'), secrets: first.store, logger: logger() });
    expect(core.vaultKeyMissing()).toBe(false);
    const keyId = await first.store.get(CURRENT_KEY_SECRET);
    if (keyId === null) throw new Error('core made no vault key');
    const dataKey = await first.store.get(keySecretName(keyId));
    await first.store.set(API_KEY_SECRET, API_KEY);
    await first.store.set(NGROK_AUTHTOKEN_SECRET, NGROK_TOKEN);

    await first.usePassphraseFile(PASSPHRASE);
    expect(first.store.kind).toBe('passphrase-file');
    // Core keeps working on the same store reference, now backed by the file.
    expect(await first.store.get(API_KEY_SECRET)).toBe(API_KEY);
    await core.close();

    const filePath = join(userData, PASSPHRASE_SECRETS_FILE);
    if (process.platform !== 'win32') expect(statSync(filePath).mode & 0o777).toBe(0o600);
    const text = readFileSync(filePath, 'utf8');
    for (const plain of [API_KEY, NGROK_TOKEN, PASSPHRASE, dataKey ?? 'no data key']) expect(text).not.toContain(plain);
    // Read back with the passphrase, as the CLI would.
    const direct = await PassphraseSecretStore.open({ filePath, passphrase: PASSPHRASE });
    expect(await direct.get(API_KEY_SECRET)).toBe(API_KEY);
    expect(await direct.get(NGROK_AUTHTOKEN_SECRET)).toBe(NGROK_TOKEN);
    expect(await direct.get(keySecretName(keyId))).toBe(dataKey);
    direct.close();
    await expect(PassphraseSecretStore.open({ filePath, passphrase: 'Lantern-river 47 orchard?' })).rejects.toBeInstanceOf(WrongPassphraseError);

    // The restart: asked before core opens; a wrong passphrase is said and asked again.
    const unlock = answers(['Lantern-river 48 orchard', '', PASSPHRASE]);
    const second = await started(unlock.ask);
    expect(unlock.attempts).toEqual([false, true, true]);
    expect(second.store.kind).toBe('passphrase-file');
    const reopened = await createCore({ dataDir: join(userData, 'data'), secrets: second.store, logger: logger() });
    expect(reopened.vaultKeyMissing()).toBe(false);
    expect(await second.store.get(CURRENT_KEY_SECRET)).toBe(keyId);
    expect(await second.store.get(keySecretName(keyId))).toBe(dataKey);
    expect(await second.store.get(API_KEY_SECRET)).toBe(API_KEY);
    await reopened.close();

    expect(logLines.length).toBeGreaterThan(0);
    for (const line of logLines) expect(line).not.toContain(PASSPHRASE);
    expect(logLines.some((line) => line.includes('did not open'))).toBe(true);
  });

  it('never starts without the file once it was chosen: giving up at the unlock step opens nothing', async () => {
    const first = await started(answers([]).ask);
    await first.store.set(API_KEY_SECRET, API_KEY);
    await first.usePassphraseFile(PASSPHRASE);
    const gaveUp = answers(['wrong passphrase 1', null]);
    expect(await start(gaveUp.ask)).toBeNull();
    expect(gaveUp.attempts).toEqual([false, true]);
  });

  it('refuses a weak passphrase and an existing file, keeping every secret in memory', async () => {
    const first = await started(answers([]).ask);
    await first.store.set(API_KEY_SECRET, API_KEY);
    await expect(first.usePassphraseFile('short1')).rejects.toBeInstanceOf(WeakPassphraseError);
    expect(first.store.kind).toBe('memory');
    expect(await first.store.get(API_KEY_SECRET)).toBe(API_KEY);

    const other = await PassphraseSecretStore.open({ filePath: join(userData, PASSPHRASE_SECRETS_FILE), passphrase: 'Someone else 99 keys', cost: MIN_SCRYPT_N });
    other.close();
    await expect(first.usePassphraseFile(PASSPHRASE)).rejects.toBeInstanceOf(PassphraseFileExistsError);
    expect(first.store.kind).toBe('memory');
    expect(await first.store.get(API_KEY_SECRET)).toBe(API_KEY);
    for (const line of logLines) expect(line).not.toContain(PASSPHRASE);
  });
});
