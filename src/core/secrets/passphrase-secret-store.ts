// A secret store for plain Node (CLI, headless host, tests): secrets sealed with AES-256-GCM under
// a key derived from the user's passphrase with scrypt, kept in one JSON file (see
// secret-file-format.ts) replaced atomically with mode 0600 on every change.
import { randomBytes, scrypt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { AuthenticationFailedError, KEY_BYTES, gcmDecrypt, gcmEncrypt, packSealed, unpackSealed } from './aes-gcm';
import { writeFileAtomic } from './atomic-file';
import type { ScryptParams, SecretFile } from './secret-file-format';
import { FILE_FORMAT, FILE_VERSION, MAX_SCRYPT_N, MIN_SCRYPT_N, SALT_BYTES, secretFileSchema } from './secret-file-format';
import type { SecretStore } from './secret-store';
import { assertSecretName } from './secret-store';

/**
 * Default cost for a new file: N = 2^17, r = 8, p = 1 (OWASP's scrypt recommendation), about 128 MiB
 * and a fraction of a second once per unlock. 2^15 is the floor accepted anywhere.
 */
const DEFAULT_SCRYPT_N = 2 ** 17;
const SCRYPT_R = 8;
const SCRYPT_P = 1;

const CHECK_TEXT = 'procure-desk secret store v1';
const CHECK_AAD = Buffer.from('procure-desk:check', 'utf8');
const secretAad = (name: string): Buffer => Buffer.from(`procure-desk:secret:${name}`, 'utf8');

export class WrongPassphraseError extends Error {
  override readonly name = 'WrongPassphraseError';
  constructor() {
    super('the passphrase does not open this secret store');
  }
}

export class SecretFileCorruptError extends Error {
  override readonly name = 'SecretFileCorruptError';
  constructor(detail: string) {
    super(`the secret store file is damaged or not a secret store: ${detail}`);
  }
}

export interface PassphraseSecretStoreOptions {
  readonly filePath: string;
  readonly passphrase: string;
  /** scrypt N for a new file (power of two, 2^15..2^20). Existing files keep their own. */
  readonly cost?: number;
}

function deriveKey(passphrase: string, params: ScryptParams): Promise<Buffer> {
  // scrypt needs 128·N·r·p bytes; Node's default ceiling (32 MiB) is too low above N = 2^15.
  const maxmem = 256 * params.N * params.r * params.p;
  return new Promise((resolve, reject) => {
    // NFC so that the same passphrase typed on another system derives the same key.
    scrypt(passphrase.normalize('NFC'), params.salt, KEY_BYTES, { N: params.N, r: params.r, p: params.p, maxmem }, (error, key) => {
      if (error) reject(error);
      else resolve(key);
    });
  });
}

function isMissingFile(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}

export class PassphraseSecretStore implements SecretStore {
  readonly kind = 'passphrase-file';
  /** Sealed values by name; plaintext exists only while a `get` result is in use. */
  private sealed: ReadonlyMap<string, string>;
  /** Writes run one after another so that concurrent set/delete never lose each other's change. */
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly filePath: string,
    private readonly key: Buffer,
    private readonly header: Pick<SecretFile, 'kdf' | 'check'>,
    sealed: ReadonlyMap<string, string>,
  ) {
    this.sealed = sealed;
  }

  /** Opens the file with the passphrase, or creates it when there is none. */
  static async open(options: PassphraseSecretStoreOptions): Promise<PassphraseSecretStore> {
    if (options.passphrase.length === 0) throw new RangeError('a passphrase is required');
    let text: string | null;
    try {
      text = await readFile(options.filePath, 'utf8');
    } catch (error) {
      if (!isMissingFile(error)) throw error;
      text = null;
    }
    return text === null ? PassphraseSecretStore.create(options) : PassphraseSecretStore.unlock(options, text);
  }

  private static async create(options: PassphraseSecretStoreOptions): Promise<PassphraseSecretStore> {
    const N = options.cost ?? DEFAULT_SCRYPT_N;
    if (!Number.isInteger(N) || N < MIN_SCRYPT_N || N > MAX_SCRYPT_N || (N & (N - 1)) !== 0) {
      throw new RangeError(`scrypt cost must be a power of two from 2^15 to 2^20`);
    }
    const salt = randomBytes(SALT_BYTES);
    const key = await deriveKey(options.passphrase, { N, r: SCRYPT_R, p: SCRYPT_P, salt });
    const check = packSealed(gcmEncrypt(key, Buffer.from(CHECK_TEXT, 'utf8'), CHECK_AAD)).toString('base64');
    const store = new PassphraseSecretStore(options.filePath, key, { kdf: { name: 'scrypt', N, r: SCRYPT_R, p: SCRYPT_P, salt: salt.toString('base64') }, check }, new Map());
    await store.persist(store.sealed);
    return store;
  }

  private static async unlock(options: PassphraseSecretStoreOptions, text: string): Promise<PassphraseSecretStore> {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new SecretFileCorruptError('not JSON');
    }
    const parsed = secretFileSchema.safeParse(json);
    if (!parsed.success) throw new SecretFileCorruptError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    const file = parsed.data;
    const salt = Buffer.from(file.kdf.salt, 'base64');
    if (salt.byteLength < 16) throw new SecretFileCorruptError('salt too short');
    const key = await deriveKey(options.passphrase, { N: file.kdf.N, r: file.kdf.r, p: file.kdf.p, salt });
    const check = unpackSealed(Buffer.from(file.check, 'base64'));
    if (check === null) throw new SecretFileCorruptError('check value truncated');
    try {
      const plain = gcmDecrypt(key, check, CHECK_AAD).toString('utf8');
      if (plain !== CHECK_TEXT) throw new SecretFileCorruptError('check value differs');
    } catch (error) {
      key.fill(0);
      if (error instanceof AuthenticationFailedError) throw new WrongPassphraseError();
      throw error;
    }
    return new PassphraseSecretStore(options.filePath, key, { kdf: file.kdf, check: file.check }, new Map(Object.entries(file.secrets)));
  }

  get(name: string): Promise<string | null> {
    // Executor throws become rejections: callers see one failure path.
    return new Promise((resolve) => resolve(this.read(name)));
  }

  set(name: string, value: string): Promise<void> {
    return this.change(name, (current) => {
      const next = new Map(current);
      next.set(name, packSealed(gcmEncrypt(this.key, Buffer.from(value, 'utf8'), secretAad(name))).toString('base64'));
      return next;
    });
  }

  delete(name: string): Promise<void> {
    return this.change(name, (current) => {
      if (!current.has(name)) return null;
      const next = new Map(current);
      next.delete(name);
      return next;
    });
  }

  /** Forgets the derived key; later calls fail. */
  close(): void {
    this.closed = true;
    this.key.fill(0);
  }

  private read(name: string): string | null {
    assertSecretName(name);
    this.assertOpen();
    const packed = this.sealed.get(name);
    if (packed === undefined) return null;
    const sealed = unpackSealed(Buffer.from(packed, 'base64'));
    if (sealed === null) throw new SecretFileCorruptError('a secret is truncated');
    try {
      return gcmDecrypt(this.key, sealed, secretAad(name)).toString('utf8');
    } catch {
      // The check value opened, so the key is right: this entry was altered or moved.
      throw new SecretFileCorruptError('a secret fails authentication');
    }
  }

  private change(name: string, update: (current: ReadonlyMap<string, string>) => ReadonlyMap<string, string> | null): Promise<void> {
    const run = async (): Promise<void> => {
      assertSecretName(name);
      this.assertOpen();
      const next = update(this.sealed);
      if (next === null) return;
      // Memory follows the disk only once the disk has it, so a failed write changes nothing.
      await this.persist(next);
      this.sealed = next;
    };
    const result = this.queue.then(run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async persist(sealed: ReadonlyMap<string, string>): Promise<void> {
    const file: SecretFile = {
      format: FILE_FORMAT,
      version: FILE_VERSION,
      kdf: this.header.kdf,
      check: this.header.check,
      secrets: Object.fromEntries(sealed),
    };
    await writeFileAtomic(this.filePath, `${JSON.stringify(file, null, 2)}\n`, 0o600);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the secret store is closed');
  }
}
