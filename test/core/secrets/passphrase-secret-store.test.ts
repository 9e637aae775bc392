import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PassphraseSecretStore, SecretFileCorruptError, WrongPassphraseError } from '../../../src/core/secrets/passphrase-secret-store';
import { InvalidSecretNameError } from '../../../src/core/secrets/secret-store';

// The floor cost keeps the suite fast; production files use the default (2^17).
const COST = 2 ** 15;
const API_KEY = 'AK_0123456789abcdef0123456789abcdef';

let dir: string;
let filePath: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'procure-secrets-'));
  filePath = join(dir, 'nested', 'secrets.json');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const open = (passphrase = 'correct horse battery staple'): Promise<PassphraseSecretStore> => PassphraseSecretStore.open({ filePath, passphrase, cost: COST });

describe('PassphraseSecretStore', () => {
  it('creates the file, keeps secrets across reopen and deletes them', async () => {
    const store = await open();
    expect(store.kind).toBe('passphrase-file');
    expect(await store.get('merchant.api-key')).toBeNull();
    await store.set('merchant.api-key', API_KEY);
    await store.set('vault.card-key.01', 'c2VjcmV0');
    expect(await store.get('merchant.api-key')).toBe(API_KEY);

    const reopened = await open();
    expect(await reopened.get('merchant.api-key')).toBe(API_KEY);
    await reopened.delete('merchant.api-key');
    await reopened.delete('never-set');
    expect(await (await open()).get('merchant.api-key')).toBeNull();
    expect(await (await open()).get('vault.card-key.01')).toBe('c2VjcmV0');
  });

  it('writes mode 0600, leaves no temporary files, and never stores plain text', async () => {
    const store = await open();
    await store.set('merchant.api-key', API_KEY);
    const info = await stat(filePath);
    if (process.platform !== 'win32') expect(info.mode & 0o777).toBe(0o600);
    expect(await readdir(join(dir, 'nested'))).toEqual(['secrets.json']);
    const text = await readFile(filePath, 'utf8');
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain('0123456789abcdef');
    const json = JSON.parse(text) as { kdf: { name: string; N: number; r: number; p: number; salt: string } };
    expect(json.kdf).toMatchObject({ name: 'scrypt', N: COST, r: 8, p: 1 });
    expect(Buffer.from(json.kdf.salt, 'base64').byteLength).toBe(32);
  });

  it('refuses a wrong passphrase with a clear error, never garbage', async () => {
    const store = await open();
    await store.set('merchant.api-key', API_KEY);
    await expect(open('wrong passphrase')).rejects.toBeInstanceOf(WrongPassphraseError);
    await expect(open('wrong passphrase')).rejects.toThrow(/passphrase does not open/);
    await expect(PassphraseSecretStore.open({ filePath, passphrase: '' })).rejects.toThrow(/passphrase is required/);
  });

  it('uses a fresh salt per file', async () => {
    await open();
    const first = (JSON.parse(await readFile(filePath, 'utf8')) as { kdf: { salt: string } }).kdf.salt;
    await rm(filePath);
    await open();
    const second = (JSON.parse(await readFile(filePath, 'utf8')) as { kdf: { salt: string } }).kdf.salt;
    expect(second).not.toBe(first);
  });

  it('detects a damaged file, an altered entry and entries swapped between names', async () => {
    const store = await open();
    await store.set('a-name', 'first secret');
    await store.set('b-name', 'second secret');
    const json = JSON.parse(await readFile(filePath, 'utf8')) as { secrets: Record<string, string> };

    const swapped = { ...json, secrets: { 'a-name': json.secrets['b-name'], 'b-name': json.secrets['a-name'] } };
    await writeFile(filePath, JSON.stringify(swapped));
    await expect((await open()).get('a-name')).rejects.toBeInstanceOf(SecretFileCorruptError);

    const sealed = Buffer.from(json.secrets['a-name'] ?? '', 'base64');
    sealed[sealed.length - 1] = (sealed[sealed.length - 1] ?? 0) ^ 1;
    await writeFile(filePath, JSON.stringify({ ...json, secrets: { ...json.secrets, 'a-name': sealed.toString('base64') } }));
    await expect((await open()).get('a-name')).rejects.toBeInstanceOf(SecretFileCorruptError);

    await writeFile(filePath, '{"format":"procure-desk-secrets"');
    await expect(open()).rejects.toBeInstanceOf(SecretFileCorruptError);
    await writeFile(filePath, JSON.stringify({ ...json, kdf: { name: 'scrypt', N: 2, r: 8, p: 1, salt: 'AAAA' } }));
    await expect(open()).rejects.toBeInstanceOf(SecretFileCorruptError);
    // A `__proto__` entry is dropped by parsing, never assigned as a prototype, and not written back.
    await writeFile(filePath, JSON.stringify({ ...json, secrets: {} }).replace('"secrets":{}', '"secrets":{"__proto__":"AAAA"}'));
    const cleaned = await open();
    await cleaned.set('c-name', 'third');
    expect(await readFile(filePath, 'utf8')).not.toContain('__proto__');
  });

  it('serializes concurrent changes without losing any', async () => {
    const store = await open();
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.set(`name-${i}`, `value-${i}`)));
    const reopened = await open();
    for (let i = 0; i < 20; i += 1) expect(await reopened.get(`name-${i}`)).toBe(`value-${i}`);
  });

  it('rejects invalid names and a too weak cost, and stops after close', async () => {
    const store = await open();
    await expect(store.set('../escape', 'x')).rejects.toBeInstanceOf(InvalidSecretNameError);
    await expect(store.get('')).rejects.toBeInstanceOf(InvalidSecretNameError);
    await expect(PassphraseSecretStore.open({ filePath: join(dir, 'weak.json'), passphrase: 'p', cost: 2 ** 10 })).rejects.toThrow(/scrypt cost/);
    store.close();
    await expect(store.get('a-name')).rejects.toThrow(/closed/);
  });

  it('opens with the same passphrase in another Unicode normalization', async () => {
    await PassphraseSecretStore.open({ filePath, passphrase: 'caf\u00e9-pass', cost: COST });
    await expect(PassphraseSecretStore.open({ filePath, passphrase: 'cafe\u0301-pass', cost: COST })).resolves.toBeInstanceOf(PassphraseSecretStore);
  });
});
