import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSafeStoragePort, type ElectronSafeStorage, type SafeStoragePort } from '../../src/main/secrets/safe-storage-port';
import { SafeStorageFileCorruptError, SafeStorageSecretStore, SecretUnreadableError, type BackendChange } from '../../src/main/secrets/safe-storage-secret-store';

/**
 * A stand-in for safeStorage: "encrypts" by XOR with a key per backend, so a blob made under one
 * backend does not decrypt under another (as with real keyrings), and the plain text never shows.
 */
function fakeSafeStorage(backend: string, options: { available?: boolean; keyId?: number } = {}) {
  const key = (b: string): number => [...b].reduce((sum, c) => sum + c.charCodeAt(0), 0) % 251;
  const keyId = options.keyId ?? 1;
  const encrypt = (plain: string, k: number): Buffer => Buffer.concat([Buffer.from(`${backend}:${k}|`), Buffer.from(plain, 'utf8').map((byte) => byte ^ (key(backend) + k))]);
  const decrypt = (blob: Buffer): { value: string; rotated: boolean } => {
    const text = blob.toString('latin1');
    const bar = text.indexOf('|');
    const [owner = '', k = ''] = text.slice(0, bar).split(':');
    if (owner !== backend) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    const value = Buffer.from(blob.subarray(bar + 1).map((byte) => byte ^ (key(backend) + Number(k)))).toString('utf8');
    return { value, rotated: Number(k) !== keyId };
  };
  const port: SafeStoragePort = {
    backend: () => backend,
    isAvailable: () => Promise.resolve(options.available ?? true),
    encrypt: (plain) => Promise.resolve(encrypt(plain, keyId)),
    decrypt: (blob) =>
      new Promise((resolve) => {
        const { value, rotated } = decrypt(blob);
        resolve({ value, shouldReEncrypt: rotated });
      }),
  };
  return port;
}

let dir: string;
let filePath: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pd-safe-storage-'));
  filePath = join(dir, 'secrets.safe-storage.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const API_KEY = 'AK_live_3f9c2e7d41b8';
const fileText = (): string => readFileSync(filePath, 'utf8');

describe('safeStorage secret store', () => {
  it('round-trips through an OS keyring, on disk (0600), without plain text in the file', async () => {
    const store = await SafeStorageSecretStore.open({ filePath, safeStorage: fakeSafeStorage('gnome_libsecret') });
    expect(store.kind).toBe('safe-storage');
    expect(store.status()).toMatchObject({ backend: 'gnome_libsecret', persistence: 'os', backendChange: null });
    await store.set('merchant.api-key', API_KEY);
    await store.set('vault.card-key.current', '0011223344556677');
    expect(await store.get('merchant.api-key')).toBe(API_KEY);
    expect(fileText()).not.toContain(API_KEY);
    if (process.platform !== 'win32') expect(statSync(filePath).mode & 0o777).toBe(0o600);

    const reopened = await SafeStorageSecretStore.open({ filePath, safeStorage: fakeSafeStorage('gnome_libsecret') });
    expect(await reopened.get('merchant.api-key')).toBe(API_KEY);
    await reopened.delete('merchant.api-key');
    await reopened.delete('merchant.api-key');
    expect(await reopened.get('merchant.api-key')).toBeNull();
    expect(await reopened.get('vault.card-key.current')).toBe('0011223344556677');
  });

  it('keeps concurrent writes (each set waits for the one before)', async () => {
    const store = await SafeStorageSecretStore.open({ filePath, safeStorage: fakeSafeStorage('keychain') });
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.set(`s${i}`, `v${i}`)));
    const reopened = await SafeStorageSecretStore.open({ filePath, safeStorage: fakeSafeStorage('keychain') });
    for (let i = 0; i < 20; i++) expect(await reopened.get(`s${i}`)).toBe(`v${i}`);
  });

  it('re-encrypts a value whose key the OS rotated', async () => {
    const old = await SafeStorageSecretStore.open({ filePath, safeStorage: fakeSafeStorage('dpapi', { keyId: 1 }) });
    await old.set('merchant.api-key', API_KEY);
    const before = fileText();
    const rotated = await SafeStorageSecretStore.open({ filePath, safeStorage: fakeSafeStorage('dpapi', { keyId: 2 }) });
    expect(await rotated.get('merchant.api-key')).toBe(API_KEY);
    expect(fileText()).not.toBe(before);
    expect(fileText()).toContain(Buffer.from('dpapi:2|').toString('base64').slice(0, 8));
  });

  it("on Linux's basic_text keeps secrets in memory only until the user accepts weaker storage", async () => {
    const store = await SafeStorageSecretStore.open({ filePath, safeStorage: fakeSafeStorage('basic_text') });
    expect(store.kind).toBe('memory');
    expect(store.status()).toMatchObject({ persistence: 'memory-weak-backend', weakStorageAccepted: false });
    await store.set('merchant.api-key', API_KEY);
    expect(await store.get('merchant.api-key')).toBe(API_KEY);
    // Nothing written at all: the next start finds no key.
    expect(() => statSync(filePath)).toThrow();
    const nextRun = await SafeStorageSecretStore.open({ filePath, safeStorage: fakeSafeStorage('basic_text') });
    expect(await nextRun.get('merchant.api-key')).toBeNull();

    // The explicit choice moves what is in memory to disk, and is remembered.
    await store.acceptWeakerStorage(true);
    expect(store.kind).toBe('safe-storage');
    expect(store.status()).toMatchObject({ persistence: 'weak-accepted', weakStorageAccepted: true });
    expect(fileText()).not.toContain(API_KEY);
    const accepted = await SafeStorageSecretStore.open({ filePath, safeStorage: fakeSafeStorage('basic_text') });
    expect(accepted.status().persistence).toBe('weak-accepted');
    expect(await accepted.get('merchant.api-key')).toBe(API_KEY);

    // Withdrawing takes the secrets off the disk again, keeping them for this run.
    await accepted.acceptWeakerStorage(false);
    expect(accepted.kind).toBe('memory');
    expect(await accepted.get('merchant.api-key')).toBe(API_KEY);
    const parsed = JSON.parse(fileText()) as { backends: Record<string, unknown>; weakStorageAccepted: boolean };
    expect(parsed.weakStorageAccepted).toBe(false);
    expect(parsed.backends['basic_text']).toBeUndefined();
  });

  it('keeps secrets in memory when safeStorage cannot encrypt at all', async () => {
    const store = await SafeStorageSecretStore.open({ filePath, safeStorage: fakeSafeStorage('gnome_libsecret', { available: false }) });
    expect(store.status().persistence).toBe('memory-unavailable');
    await store.set('merchant.api-key', API_KEY);
    expect(await store.get('merchant.api-key')).toBe(API_KEY);
    expect(() => statSync(filePath)).toThrow();
    // Accepting weak storage does not apply to a missing keyring.
    await store.acceptWeakerStorage(true);
    expect(store.kind).toBe('memory');
  });

  it('reports a backend change, keeps the old secrets untouched, and finds them again on the old backend', async () => {
    const first = await SafeStorageSecretStore.open({ filePath, safeStorage: fakeSafeStorage('gnome_libsecret') });
    await first.set('merchant.api-key', API_KEY);
    await first.set('vault.card-key.current', 'aabbccddeeff0011');

    const onBackendChange = vi.fn((_change: BackendChange) => undefined);
    const changed = await SafeStorageSecretStore.open({ filePath, safeStorage: fakeSafeStorage('kwallet6'), onBackendChange });
    const expected = { previous: 'gnome_libsecret', current: 'kwallet6', secretsLeftBehind: 2 };
    expect(onBackendChange).toHaveBeenCalledWith(expected);
    expect(changed.status().backendChange).toEqual(expected);
    // Not silently "no key": the old blobs are neither read as garbage nor overwritten.
    expect(await changed.get('merchant.api-key')).toBeNull();
    await changed.set('merchant.api-key', 'AK_new_after_reconnect');
    const file = JSON.parse(fileText()) as { lastBackend: string; backends: Record<string, Record<string, string>> };
    expect(Object.keys(file.backends['gnome_libsecret'] ?? {}).sort()).toEqual(['merchant.api-key', 'vault.card-key.current']);
    expect(file.lastBackend).toBe('kwallet6');

    const back = await SafeStorageSecretStore.open({ filePath, safeStorage: fakeSafeStorage('gnome_libsecret'), onBackendChange });
    expect(await back.get('merchant.api-key')).toBe(API_KEY);
    expect(back.status().backendChange).toMatchObject({ previous: 'kwallet6', current: 'gnome_libsecret', secretsLeftBehind: 1 });
  });

  it('reports a fall back to basic_text each start while the keyring secrets are out of reach', async () => {
    const first = await SafeStorageSecretStore.open({ filePath, safeStorage: fakeSafeStorage('kwallet5') });
    await first.set('merchant.api-key', API_KEY);
    for (let run = 0; run < 2; run++) {
      const onBackendChange = vi.fn();
      const fallback = await SafeStorageSecretStore.open({ filePath, safeStorage: fakeSafeStorage('basic_text'), onBackendChange });
      expect(onBackendChange).toHaveBeenCalledWith({ previous: 'kwallet5', current: 'basic_text', secretsLeftBehind: 1 });
      expect(fallback.kind).toBe('memory');
      await fallback.set('merchant.api-key', 'AK_typed_again');
    }
  });

  it('refuses a blob the keyring can no longer decrypt instead of answering "no secret"', async () => {
    const store = await SafeStorageSecretStore.open({ filePath, safeStorage: fakeSafeStorage('keychain') });
    await store.set('merchant.api-key', API_KEY);
    const file = JSON.parse(fileText()) as { backends: Record<string, Record<string, string>> };
    const section = file.backends['keychain'] ?? {};
    section['merchant.api-key'] = Buffer.from('someone-else:1|xx').toString('base64');
    writeFileSync(filePath, JSON.stringify(file));
    const reopened = await SafeStorageSecretStore.open({ filePath, safeStorage: fakeSafeStorage('keychain') });
    await expect(reopened.get('merchant.api-key')).rejects.toBeInstanceOf(SecretUnreadableError);
  });

  it('refuses a damaged file and bad names', async () => {
    writeFileSync(filePath, '{"format":"procure-desk-safe-storage","version":1,"lastBackend":null,"weakStorageAccepted":false,"backends":{"keychain":{"../escape":"AA=="}}}');
    await expect(SafeStorageSecretStore.open({ filePath, safeStorage: fakeSafeStorage('keychain') })).rejects.toBeInstanceOf(SafeStorageFileCorruptError);
    writeFileSync(filePath, 'not json');
    await expect(SafeStorageSecretStore.open({ filePath, safeStorage: fakeSafeStorage('keychain') })).rejects.toBeInstanceOf(SafeStorageFileCorruptError);
    rmSync(filePath);
    const store = await SafeStorageSecretStore.open({ filePath, safeStorage: fakeSafeStorage('keychain') });
    await expect(store.set('../escape', 'x')).rejects.toThrow(/secret names/);
  });
});

describe('safeStorage port', () => {
  // Shaped like Electron 45's safeStorage: only the asynchronous API is used (the synchronous one is
  // deprecated); the synchronous members are absent, so calling one would fail the test.
  const electron45 = (decrypt: (blob: Buffer) => Promise<{ result: string; shouldReEncrypt: boolean }>): ElectronSafeStorage => ({
    isAsyncEncryptionAvailable: vi.fn(() => Promise.resolve(true)),
    encryptStringAsync: vi.fn((plain: string) => Promise.resolve(Buffer.from(`async:${plain}`))),
    decryptStringAsync: vi.fn(decrypt),
    getSelectedStorageBackend: () => 'gnome_libsecret',
  });
  const decryptOk = (blob: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }> => Promise.resolve({ result: blob.toString().replace(/^async:/, ''), shouldReEncrypt: true });

  it('uses the asynchronous API and passes on a rotated key', async () => {
    const port = createSafeStoragePort(electron45(decryptOk), 'linux');
    expect(await port.isAvailable()).toBe(true);
    const blob = await port.encrypt('y');
    expect(blob.toString()).toBe('async:y');
    expect(await port.decrypt(blob)).toEqual({ value: 'y', shouldReEncrypt: true });
    const failing = createSafeStoragePort(electron45(() => Promise.reject(new Error('bad'))), 'linux');
    await expect(failing.decrypt(blob)).rejects.toThrow('bad');
  });

  it('names the backend per platform', () => {
    const storage = electron45(decryptOk);
    expect(createSafeStoragePort(storage, 'linux').backend()).toBe('gnome_libsecret');
    expect(createSafeStoragePort(storage, 'darwin').backend()).toBe('keychain');
    expect(createSafeStoragePort(storage, 'win32').backend()).toBe('dpapi');
  });
});
