// The secret-store port (DESIGN.md: createCore takes it). Implementations: the Electron shell's
// safeStorage adapter, the passphrase file for plain Node (CLI, tests, headless), memory for tests.
//
// Key wrapping is done by storing: the vault's data key is itself a secret of this store (base64
// text under a name), so each implementation's own protection (safeStorage, scrypt + AES-GCM) is
// what wraps it. No second wrapping API is needed, and a store only ever handles opaque strings.

export interface SecretStore {
  /** Where secrets live (`passphrase-file`, `memory`, `safe-storage`, …), shown to the user. */
  readonly kind: string;
  /** The value, or null when no secret has that name. */
  get(name: string): Promise<string | null>;
  /** Stores durably before resolving. */
  set(name: string, value: string): Promise<void>;
  /** Removing an absent name is not an error. */
  delete(name: string): Promise<void>;
}

/** Names are short and plain so that every backend (file keys, keychain labels) can hold them. */
const SECRET_NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

export class InvalidSecretNameError extends Error {
  override readonly name = 'InvalidSecretNameError';
  constructor() {
    // The name itself is not echoed: a caller may have passed a secret by mistake.
    super('secret names are 1 to 128 characters of A-Z a-z 0-9 . _ : - and start with a letter or digit');
  }
}

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

export function assertSecretName(name: string): void {
  if (!isSecretName(name)) throw new InvalidSecretNameError();
}
