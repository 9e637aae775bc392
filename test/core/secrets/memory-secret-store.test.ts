import { describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';
import { InvalidSecretNameError } from '../../../src/core/secrets/secret-store';

describe('MemorySecretStore', () => {
  it('gets, sets and deletes', async () => {
    const store = new MemorySecretStore();
    expect(store.kind).toBe('memory');
    expect(await store.get('k1')).toBeNull();
    await store.set('k1', 'v');
    expect(await store.get('k1')).toBe('v');
    await store.delete('k1');
    await store.delete('k1');
    expect(await store.get('k1')).toBeNull();
  });

  it('rejects invalid names as a rejected promise, not a throw', async () => {
    const store = new MemorySecretStore();
    await expect(store.set('has space', 'v')).rejects.toBeInstanceOf(InvalidSecretNameError);
    await expect(store.get('__proto__')).rejects.toBeInstanceOf(InvalidSecretNameError);
  });
});
