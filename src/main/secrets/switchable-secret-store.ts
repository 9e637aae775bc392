// The SecretStore core holds in the desktop app. Core keeps one reference for its lifetime, so when the
// buyer moves their secrets out of memory (into the passphrase file) the store behind this one is
// swapped in place: calls queue behind the move, so no read sees a half-moved state and no write lands
// in the store being left.
import type { SecretStore } from '../../core';

export class SwitchableSecretStore implements SecretStore {
  private queue: Promise<void> = Promise.resolve();

  constructor(private current: SecretStore) {}

  get kind(): string {
    return this.current.kind;
  }

  /** The store in use now (for status reads; calls go through this wrapper). */
  get active(): SecretStore {
    return this.current;
  }

  get(name: string): Promise<string | null> {
    return this.serialized(() => this.current.get(name));
  }

  set(name: string, value: string): Promise<void> {
    return this.serialized(() => this.current.set(name, value));
  }

  delete(name: string): Promise<void> {
    return this.serialized(() => this.current.delete(name));
  }

  /**
   * Builds the next store from the current one and uses it from then on. A failed build leaves the
   * current store in use, unchanged.
   */
  switchTo(build: (from: SecretStore) => Promise<SecretStore>): Promise<SecretStore> {
    return this.serialized(async () => {
      const next = await build(this.current);
      this.current = next;
      return next;
    });
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
