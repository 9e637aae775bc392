// A secret store that forgets everything when the process ends: for tests, and for a session where
// the user chose not to keep the API key on a machine without a real keychain.
import type { SecretStore } from './secret-store';
import { assertSecretName } from './secret-store';

export class MemorySecretStore implements SecretStore {
  readonly kind = 'memory';
  private readonly values = new Map<string, string>();

  // Executor throws become rejections, as with every other store.
  get(name: string): Promise<string | null> {
    return new Promise((resolve) => {
      assertSecretName(name);
      resolve(this.values.get(name) ?? null);
    });
  }

  set(name: string, value: string): Promise<void> {
    return new Promise((resolve) => {
      assertSecretName(name);
      this.values.set(name, value);
      resolve();
    });
  }

  delete(name: string): Promise<void> {
    return new Promise((resolve) => {
      assertSecretName(name);
      this.values.delete(name);
      resolve();
    });
  }
}
