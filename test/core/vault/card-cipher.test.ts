import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CURRENT_KEY_SECRET, CardCipher, CardDecryptionError, DataKeyMissingError, SEALED_VERSION, cardSecretContext, keySecretName } from '../../../src/core/vault/card-cipher';
import type { CardSecretRecord } from '../../../src/core/vault/card-cipher';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';

const PASSWORD = 'Pw-7731-canary-密码';
const record: CardSecretRecord = { clientOrderRef: 'ord_0001', seq: 0, field: 'card_password' };

describe('CardCipher', () => {
  it('round-trips, with a fresh nonce per value and the versioned header', async () => {
    const cipher = await CardCipher.open(new MemorySecretStore());
    const a = cipher.seal(PASSWORD, record);
    const b = cipher.seal(PASSWORD, record);
    expect(cipher.unseal(a, record)).toBe(PASSWORD);
    expect(cipher.unseal(new Uint8Array(b), record)).toBe(PASSWORD);
    expect(a.equals(b)).toBe(false);
    expect(a[0]).toBe(SEALED_VERSION);
    expect(a.subarray(1, 9).toString('hex')).toBe(cipher.keyId);
    expect(a.byteLength).toBe(1 + 8 + 12 + 16 + Buffer.byteLength(PASSWORD));
    expect(cipher.unseal(cipher.seal('', record), record)).toBe('');
  });

  it('never carries the plaintext in the sealed bytes', async () => {
    const cipher = await CardCipher.open(new MemorySecretStore());
    const sealed = cipher.seal(PASSWORD, record);
    expect(sealed.includes(Buffer.from(PASSWORD, 'utf8'))).toBe(false);
    expect(sealed.toString('latin1')).not.toContain('canary');
  });

  it('fails on any flipped bit', async () => {
    const cipher = await CardCipher.open(new MemorySecretStore());
    const sealed = cipher.seal(PASSWORD, record);
    for (let i = 0; i < sealed.byteLength; i += 1) {
      const tampered = Buffer.from(sealed);
      tampered[i] = (tampered[i] ?? 0) ^ 0x01;
      expect(() => cipher.unseal(tampered, record)).toThrow(CardDecryptionError);
    }
    expect(() => cipher.unseal(sealed.subarray(0, 20), record)).toThrow(CardDecryptionError);
  });

  it('fails for another record: order, position or field', async () => {
    const cipher = await CardCipher.open(new MemorySecretStore());
    const sealed = cipher.seal(PASSWORD, record);
    expect(() => cipher.unseal(sealed, { ...record, clientOrderRef: 'ord_0002' })).toThrow(CardDecryptionError);
    expect(() => cipher.unseal(sealed, { ...record, seq: 1 })).toThrow(CardDecryptionError);
    expect(() => cipher.unseal(sealed, { ...record, field: 'card_no' })).toThrow(CardDecryptionError);
  });

  it('fails under a different data key, even one stored under the same id', async () => {
    const store = new MemorySecretStore();
    const cipher = await CardCipher.open(store);
    const sealed = cipher.seal(PASSWORD, record);

    const other = await CardCipher.open(new MemorySecretStore());
    expect(() => other.unseal(sealed, record)).toThrow(/unknown data key/);

    const impostor = new MemorySecretStore();
    await impostor.set(CURRENT_KEY_SECRET, cipher.keyId);
    await impostor.set(keySecretName(cipher.keyId), randomBytes(32).toString('base64'));
    const impostorCipher = await CardCipher.open(impostor);
    expect(impostorCipher.keyId).toBe(cipher.keyId);
    expect(() => impostorCipher.unseal(sealed, record)).toThrow(CardDecryptionError);
  });

  it('keeps its data key in the secret store and reuses it', async () => {
    const store = new MemorySecretStore();
    const first = await CardCipher.open(store);
    const sealed = first.seal(PASSWORD, record);
    const keyText = await store.get(keySecretName(first.keyId));
    expect(Buffer.from(keyText ?? '', 'base64').byteLength).toBe(32);
    const second = await CardCipher.open(store);
    expect(second.keyId).toBe(first.keyId);
    expect(second.unseal(sealed, record)).toBe(PASSWORD);
  });

  it('refuses to start when the stored key is gone instead of making a new one', async () => {
    const store = new MemorySecretStore();
    const cipher = await CardCipher.open(store);
    await store.delete(keySecretName(cipher.keyId));
    await expect(CardCipher.open(store)).rejects.toBeInstanceOf(DataKeyMissingError);
  });

  it('checks record parts and stops after dispose', async () => {
    expect(cardSecretContext(record)).toBe('card:ord_0001:0:card_password');
    expect(() => cardSecretContext({ ...record, clientOrderRef: 'a:b' })).toThrow(RangeError);
    expect(() => cardSecretContext({ ...record, seq: -1 })).toThrow(RangeError);
    const cipher = await CardCipher.open(new MemorySecretStore());
    cipher.dispose();
    expect(() => cipher.seal(PASSWORD, record)).toThrow(/disposed/);
  });
});
