// The app's SecretStore in Electron: each secret encrypted with safeStorage (the OS keychain, DPAPI,
// or a Linux keyring) and the blobs kept in one file in userData, replaced atomically (0600).
//
// Two cases are never handled silently (DESIGN.md "Rules that carry money or secrets"):
// - Linux's `basic_text` backend encrypts with a password hard-coded in Chromium, i.e. not at all in
//   any useful sense. There, secrets stay in memory only (gone when the app quits) unless the user
//   explicitly accepted the weaker storage (`acceptWeakerStorage`, remembered in the file).
// - A backend change (libsecret one day, kwallet or basic_text the next) makes the old blobs
//   unreadable. They are kept in their own section of the file, never overwritten, and the change is
//   reported (`status().backendChange`, `onBackendChange`) so the user can switch back or reconnect.
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../../core';
import { assertSecretName, type SecretStore } from '../../core';
import { emptySafeStorageFile, safeStorageFileSchema, type SafeStorageFile } from './safe-storage-file';
import type { SafeStoragePort } from './safe-storage-port';

export const WEAK_BACKEND = 'basic_text';

/**
 * `os`: encrypted by the OS and kept on disk. `weak-accepted`: basic_text, kept on disk because the
 * user said so. `memory-weak-backend`: basic_text, not accepted, memory only. `memory-unavailable`:
 * safeStorage cannot encrypt at all, memory only.
 */
export type SecretPersistence = 'os' | 'weak-accepted' | 'memory-weak-backend' | 'memory-unavailable';

export interface BackendChange {
  previous: string;
  current: string;
  /** How many secrets stay behind, readable only under `previous`. */
  secretsLeftBehind: number;
}

export interface SafeStorageStatus {
  backend: string;
  persistence: SecretPersistence;
  weakStorageAccepted: boolean;
  backendChange: BackendChange | null;
}

export interface SafeStorageSecretStoreOptions {
  filePath: string;
  safeStorage: SafeStoragePort;
  onBackendChange?: (change: BackendChange) => void;
}

export class SafeStorageFileCorruptError extends Error {
  override readonly name = 'SafeStorageFileCorruptError';
  constructor(detail: string) {
    super(`the secret store file is damaged: ${detail}`);
  }
}

export class SecretUnreadableError extends Error {
  override readonly name = 'SecretUnreadableError';
  constructor(backend: string) {
    // The secret's name is not echoed: callers may log this message.
    super(`a stored secret can no longer be decrypted by the system keyring (${backend})`);
  }
}

function isMissingFile(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}

async function readStoreFile(filePath: string): Promise<SafeStorageFile> {
  let text: string;
  try {
    text = await readFile(filePath, 'utf8');
  } catch (error) {
    if (isMissingFile(error)) return emptySafeStorageFile();
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new SafeStorageFileCorruptError('not JSON');
  }
  const parsed = safeStorageFileSchema.safeParse(json);
  if (!parsed.success) throw new SafeStorageFileCorruptError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  return parsed.data;
}

function persistenceFor(backend: string, available: boolean, weakAccepted: boolean): SecretPersistence {
  // 'unknown' is what Linux answers before the app is ready: nothing to trust yet.
  if (!available || backend === 'unknown') return 'memory-unavailable';
  if (backend !== WEAK_BACKEND) return 'os';
  return weakAccepted ? 'weak-accepted' : 'memory-weak-backend';
}

const isOnDisk = (persistence: SecretPersistence): boolean => persistence === 'os' || persistence === 'weak-accepted';

export class SafeStorageSecretStore implements SecretStore {
  /** Plain values while secrets are memory-only; empty otherwise. */
  private readonly memory = new Map<string, string>();
  /** Writes (and mode switches) run one after another, so none loses another's change. */
  private queue: Promise<void> = Promise.resolve();

  private constructor(
    private readonly filePath: string,
    private readonly port: SafeStoragePort,
    private readonly backend: string,
    private readonly available: boolean,
    private file: SafeStorageFile,
    private persistence: SecretPersistence,
    private readonly change: BackendChange | null,
  ) {}

  static async open(options: SafeStorageSecretStoreOptions): Promise<SafeStorageSecretStore> {
    const file = await readStoreFile(options.filePath);
    const backend = options.safeStorage.backend();
    const available = await options.safeStorage.isAvailable();
    const previous = file.lastBackend;
    const leftBehind = previous === null || previous === backend ? 0 : Object.keys(file.backends[previous] ?? {}).length;
    const change = previous !== null && leftBehind > 0 ? { previous, current: backend, secretsLeftBehind: leftBehind } : null;
    const store = new SafeStorageSecretStore(options.filePath, options.safeStorage, backend, available, file, persistenceFor(backend, available, file.weakStorageAccepted), change);
    if (change !== null) options.onBackendChange?.(change);
    return store;
  }

  /** What the user is shown as where secrets live (ConnectionStatus.secretStore). */
  get kind(): string {
    return isOnDisk(this.persistence) ? 'safe-storage' : 'memory';
  }

  status(): SafeStorageStatus {
    return { backend: this.backend, persistence: this.persistence, weakStorageAccepted: this.file.weakStorageAccepted, backendChange: this.change };
  }

  get(name: string): Promise<string | null> {
    return this.serialized(async () => {
      assertSecretName(name);
      if (!isOnDisk(this.persistence)) return this.memory.get(name) ?? null;
      const blob = this.section()[name];
      if (blob === undefined) return null;
      let decrypted: { value: string; shouldReEncrypt: boolean };
      try {
        decrypted = await this.port.decrypt(Buffer.from(blob, 'base64'));
      } catch {
        throw new SecretUnreadableError(this.backend);
      }
      // The OS rotated its key: store the value under the new one while we hold it.
      if (decrypted.shouldReEncrypt) await this.writeSection({ ...this.section(), [name]: await this.encrypt(decrypted.value) });
      return decrypted.value;
    });
  }

  set(name: string, value: string): Promise<void> {
    return this.serialized(async () => {
      assertSecretName(name);
      if (!isOnDisk(this.persistence)) {
        this.memory.set(name, value);
        return;
      }
      await this.writeSection({ ...this.section(), [name]: await this.encrypt(value) });
    });
  }

  delete(name: string): Promise<void> {
    return this.serialized(async () => {
      assertSecretName(name);
      if (!isOnDisk(this.persistence)) {
        this.memory.delete(name);
        return;
      }
      const section = this.section();
      if (!Object.hasOwn(section, name)) return;
      const next = { ...section };
      delete next[name];
      await this.writeSection(next);
    });
  }

  /** A copy of the secrets held in memory only (empty when they are on disk), for a move elsewhere. */
  memorySecrets(): Promise<ReadonlyMap<string, string>> {
    return this.serialized(() => Promise.resolve(new Map(this.memory)));
  }

  /** Drops the in-memory secrets once another store holds them. */
  forgetMemorySecrets(): Promise<void> {
    return this.serialized(() => {
      this.memory.clear();
      return Promise.resolve();
    });
  }

  /**
   * The user's explicit choice on Linux's basic_text backend. Accepting moves the in-memory secrets
   * to disk; withdrawing moves the basic_text secrets back into memory and off the disk.
   */
  acceptWeakerStorage(accepted: boolean): Promise<SafeStorageStatus> {
    return this.serialized(async () => {
      const next = persistenceFor(this.backend, this.available, accepted);
      if (accepted && next === 'weak-accepted' && this.persistence === 'memory-weak-backend') {
        const section: Record<string, string> = { ...this.section() };
        for (const [name, value] of this.memory) section[name] = await this.encrypt(value);
        await this.writeFile({ ...this.file, weakStorageAccepted: true, lastBackend: this.backend, backends: { ...this.file.backends, [this.backend]: section } });
        this.memory.clear();
      } else if (!accepted && next === 'memory-weak-backend' && this.persistence === 'weak-accepted') {
        const recovered = new Map<string, string>();
        for (const [name, blob] of Object.entries(this.section())) {
          recovered.set(name, (await this.port.decrypt(Buffer.from(blob, 'base64'))).value);
        }
        const backends = { ...this.file.backends };
        delete backends[this.backend];
        await this.writeFile({ ...this.file, weakStorageAccepted: false, backends });
        for (const [name, value] of recovered) this.memory.set(name, value);
      } else {
        await this.writeFile({ ...this.file, weakStorageAccepted: accepted });
      }
      this.persistence = next;
      return this.status();
    });
  }

  private section(): Readonly<Record<string, string>> {
    return this.file.backends[this.backend] ?? {};
  }

  private async encrypt(value: string): Promise<string> {
    return (await this.port.encrypt(value)).toString('base64');
  }

  /** Writes this backend's section; it becomes the backend the store last persisted with. */
  private writeSection(section: Record<string, string>): Promise<void> {
    return this.writeFile({ ...this.file, lastBackend: this.backend, backends: { ...this.file.backends, [this.backend]: section } });
  }

  private async writeFile(next: SafeStorageFile): Promise<void> {
    // Memory follows the disk only once the disk has it, so a failed write changes nothing.
    await writeFileAtomic(this.filePath, `${JSON.stringify(next, null, 2)}\n`, 0o600);
    this.file = next;
  }

  private serialized<T>(run: () => Promise<T>): Promise<T> {
    const result = this.queue.then(run);
    this.queue = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
