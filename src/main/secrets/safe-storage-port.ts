// The few operations the secret store needs from Electron's safeStorage, as promises. Electron 41.7.1
// ships only the synchronous API (its electron.d.ts has no encryptStringAsync); later versions add
// isAsyncEncryptionAvailable / encryptStringAsync / decryptStringAsync (non-blocking, key rotation)
// and remove the synchronous one. The adapter uses the asynchronous API whenever the running
// Electron has it and the synchronous one otherwise; blobs of either decrypt with the other.

export interface SafeStoragePort {
  /** Where the OS keeps the key: Linux's selected backend, or `keychain` / `dpapi`. */
  backend(): string;
  isAvailable(): Promise<boolean>;
  encrypt(plainText: string): Promise<Buffer>;
  /** `shouldReEncrypt`: the key was rotated; encrypt the value again and store the new blob. */
  decrypt(encrypted: Buffer): Promise<{ value: string; shouldReEncrypt: boolean }>;
}

/** Electron 41's synchronous safeStorage (the members used). */
export interface SyncSafeStorage {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  getSelectedStorageBackend(): string;
}

/** The asynchronous members of later Electron versions. */
interface AsyncSafeStorage {
  isAsyncEncryptionAvailable(): Promise<boolean>;
  encryptStringAsync(plainText: string): Promise<Buffer>;
  decryptStringAsync(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }>;
}

function hasAsyncApi(storage: object): storage is AsyncSafeStorage {
  return (
    'isAsyncEncryptionAvailable' in storage &&
    typeof storage.isAsyncEncryptionAvailable === 'function' &&
    'encryptStringAsync' in storage &&
    typeof storage.encryptStringAsync === 'function' &&
    'decryptStringAsync' in storage &&
    typeof storage.decryptStringAsync === 'function'
  );
}

export function createSafeStoragePort(storage: SyncSafeStorage, platform: NodeJS.Platform): SafeStoragePort {
  const backend = (): string => {
    if (platform === 'darwin') return 'keychain';
    if (platform === 'win32') return 'dpapi';
    return storage.getSelectedStorageBackend();
  };
  if (hasAsyncApi(storage)) {
    return {
      backend,
      isAvailable: () => storage.isAsyncEncryptionAvailable(),
      encrypt: (plainText) => storage.encryptStringAsync(plainText),
      decrypt: async (encrypted) => {
        const { result, shouldReEncrypt } = await storage.decryptStringAsync(encrypted);
        return { value: result, shouldReEncrypt };
      },
    };
  }
  // Executor throws become rejections, so callers see one failure path.
  return {
    backend,
    isAvailable: () => new Promise((resolve) => resolve(storage.isEncryptionAvailable())),
    encrypt: (plainText) => new Promise((resolve) => resolve(storage.encryptString(plainText))),
    decrypt: (encrypted) => new Promise((resolve) => resolve({ value: storage.decryptString(encrypted), shouldReEncrypt: false })),
  };
}
