// The cipher's side of a lost data key (card-cipher.ts): a vault whose database names keys is never
// given a fresh key by opening; a locked cipher seals and opens nothing; a new key is the buyer's
// explicit step, after which values under the lost key are reported as key-missing (not tampering).
import { describe, expect, it } from 'vitest';
import { CURRENT_KEY_SECRET, CardCipher, CardDecryptionError, DataKeyMissingError, type CardSecretRecord } from '../../../src/core/vault/card-cipher';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';

const record: CardSecretRecord = { clientOrderRef: 'ord_0001', seq: 0, field: 'card_no' };

describe('CardCipher with a missing data key', () => {
  it('refuses to open when cards depend on a key the store does not have, and mints nothing', async () => {
    const first = await CardCipher.open(new MemorySecretStore());
    const empty = new MemorySecretStore();
    await expect(CardCipher.open(empty, { knownKeyIds: [first.keyId] })).rejects.toBeInstanceOf(DataKeyMissingError);
    expect(await empty.get(CURRENT_KEY_SECRET)).toBeNull();
    // A vault no card depends on may start over: nothing is lost.
    const fresh = await CardCipher.open(empty, { knownKeyIds: [] });
    expect(fresh.isLocked).toBe(false);
    expect(await empty.get(CURRENT_KEY_SECRET)).toBe(fresh.keyId);
  });

  it('a locked cipher seals and opens nothing until a new key is adopted; the old values stay key-missing', async () => {
    const lost = await CardCipher.open(new MemorySecretStore());
    const sealedUnderLost = lost.seal('CARD-0001', record);
    const locked = CardCipher.locked();
    expect(locked.isLocked).toBe(true);
    expect(() => locked.seal('CARD-0002', record)).toThrow(DataKeyMissingError);
    expect(() => locked.unseal(sealedUnderLost, record)).toThrow(DataKeyMissingError);
    expect(() => locked.keyId).toThrow(DataKeyMissingError);
    expect(locked.canOpen(sealedUnderLost, record)).toBe(false);

    const store = new MemorySecretStore();
    await locked.adoptNewKey(store);
    expect(locked.isLocked).toBe(false);
    expect(await store.get(CURRENT_KEY_SECRET)).toBe(locked.keyId);
    const sealed = locked.seal('CARD-0002', record);
    expect(locked.unseal(sealed, record)).toBe('CARD-0002');
    expect(locked.canOpen(sealed, record)).toBe(true);
    const old = (() => {
      try {
        locked.unseal(sealedUnderLost, record);
        return null;
      } catch (error) {
        return error;
      }
    })();
    expect(old).toBeInstanceOf(CardDecryptionError);
    expect((old as CardDecryptionError).keyMissing).toBe(true);
    // Tampering is still tampering, not a missing key.
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 1;
    expect(() => locked.unseal(tampered, record)).toThrow(CardDecryptionError);
    expect(locked.canOpen(tampered, record)).toBe(false);
  });
});
