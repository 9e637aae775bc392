// AES-256-GCM with a fresh random 96-bit nonce per message and associated data, shared by the
// passphrase secret file and the card vault. Decryption failures surface as one error that says
// nothing about the data (no partial plaintext, no oracle on which part was wrong).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export const KEY_BYTES = 32;
export const NONCE_BYTES = 12;
export const TAG_BYTES = 16;

export interface GcmSealed {
  readonly nonce: Buffer;
  readonly tag: Buffer;
  readonly ciphertext: Buffer;
}

export class AuthenticationFailedError extends Error {
  override readonly name = 'AuthenticationFailedError';
  constructor() {
    super('decryption failed: wrong key, wrong associated data, or altered data');
  }
}

function checkKey(key: Uint8Array): void {
  if (key.byteLength !== KEY_BYTES) throw new RangeError(`an AES-256 key is ${KEY_BYTES} bytes`);
}

export function gcmEncrypt(key: Uint8Array, plaintext: Uint8Array, associatedData: Uint8Array): GcmSealed {
  checkKey(key);
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(associatedData);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { nonce, tag: cipher.getAuthTag(), ciphertext };
}

export function gcmDecrypt(key: Uint8Array, sealed: GcmSealed, associatedData: Uint8Array): Buffer {
  checkKey(key);
  if (sealed.nonce.byteLength !== NONCE_BYTES || sealed.tag.byteLength !== TAG_BYTES) throw new AuthenticationFailedError();
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.nonce, { authTagLength: TAG_BYTES });
    decipher.setAAD(associatedData);
    decipher.setAuthTag(sealed.tag);
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]);
  } catch {
    throw new AuthenticationFailedError();
  }
}

/** nonce | tag | ciphertext, the compact form used inside the secret file. */
export function packSealed(sealed: GcmSealed): Buffer {
  return Buffer.concat([sealed.nonce, sealed.tag, sealed.ciphertext]);
}

export function unpackSealed(packed: Uint8Array): GcmSealed | null {
  if (packed.byteLength < NONCE_BYTES + TAG_BYTES) return null;
  const bytes = Buffer.from(packed);
  return {
    nonce: bytes.subarray(0, NONCE_BYTES),
    tag: bytes.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES),
    ciphertext: bytes.subarray(NONCE_BYTES + TAG_BYTES),
  };
}
