// The few operations the secret store needs from Electron's safeStorage. Electron 45 deprecates the
// synchronous encryptString / decryptString / isEncryptionAvailable in favour of the asynchronous
// API (non-blocking, and it reports a rotated key through `shouldReEncrypt`), so only that is used;
// blobs the synchronous API wrote under Electron 41 decrypt with it.

export interface SafeStoragePort {
  /** Where the OS keeps the key: Linux's selected backend, or `keychain` / `dpapi`. */
  backend(): string;
  isAvailable(): Promise<boolean>;
  encrypt(plainText: string): Promise<Buffer>;
  /** `shouldReEncrypt`: the key was rotated; encrypt the value again and store the new blob. */
  decrypt(encrypted: Buffer): Promise<{ value: string; shouldReEncrypt: boolean }>;
}

/** The members of Electron's safeStorage used here. */
export interface ElectronSafeStorage {
  isAsyncEncryptionAvailable(): Promise<boolean>;
  encryptStringAsync(plainText: string): Promise<Buffer>;
  decryptStringAsync(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }>;
  getSelectedStorageBackend(): string;
}

export function createSafeStoragePort(storage: ElectronSafeStorage, platform: NodeJS.Platform): SafeStoragePort {
  return {
    backend: () => {
      if (platform === 'darwin') return 'keychain';
      if (platform === 'win32') return 'dpapi';
      return storage.getSelectedStorageBackend();
    },
    isAvailable: () => storage.isAsyncEncryptionAvailable(),
    encrypt: (plainText) => storage.encryptStringAsync(plainText),
    decrypt: async (encrypted) => {
      const { result, shouldReEncrypt } = await storage.decryptStringAsync(encrypted);
      return { value: result, shouldReEncrypt };
    },
  };
}
