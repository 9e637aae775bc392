// ECMA-376 agile encryption of an OOXML package (MS-OFFCRYPTO 2.3.4.10 to 2.3.4.15), the "Encrypt
// with Password" of Excel 2010 and later, with node:crypto only:
// - a random 256-bit secret key encrypts the package with AES-256-CBC in 4096-byte segments, each
//   with its own IV (SHA-512 of the keyData salt and the segment index, 2.3.4.15);
// - the password becomes three keys by SHA-512 iterated 100,000 times over a random salt, finished
//   with a block key each (2.3.4.11); they encrypt the verifier input, the verifier hash and the
//   secret key itself (2.3.4.13);
// - data integrity (2.3.4.14): an HMAC-SHA-512 over the whole EncryptedPackage stream, its random
//   key and its value stored encrypted under the secret key, so a reader detects tampering.
// The output is the two stream contents; office-encrypted-container.ts puts them in the compound file.
import { createCipheriv, createHash, createHmac, hash, randomBytes } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

export const SPIN_COUNT = 100_000;
const SALT_BYTES = 16;
const BLOCK_BYTES = 16;
const KEY_BYTES = 32;
const HASH_BYTES = 64;
const SEGMENT_BYTES = 4096;
/** Iterations between yields, so a 100,000-round derivation does not hold main's event loop. */
const SPIN_SLICE = 20_000;

/** MS-OFFCRYPTO 2.3.4.13 and 2.3.4.14: the fixed block keys, one per derived key or IV. */
export const BLOCK_KEYS = {
  verifierHashInput: Buffer.from([0xfe, 0xa7, 0xd2, 0x76, 0x3b, 0x4b, 0x9e, 0x79]),
  verifierHashValue: Buffer.from([0xd7, 0xaa, 0x0f, 0x6d, 0x30, 0x61, 0x34, 0x4e]),
  encryptedKeyValue: Buffer.from([0x14, 0x6e, 0x0b, 0xe7, 0xab, 0xac, 0xd0, 0xd6]),
  hmacKey: Buffer.from([0x5f, 0xb2, 0xad, 0x01, 0x0c, 0xb9, 0xe1, 0xf6]),
  hmacValue: Buffer.from([0xa0, 0x67, 0x7f, 0x02, 0xb2, 0x2c, 0x84, 0x33]),
} as const;

const sha512 = (...parts: Uint8Array[]): Buffer => {
  const hash = createHash('sha512');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

const uint32le = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n, 0);
  return b;
};

/** AES-256-CBC without padding: every input here is already a whole number of blocks. */
function aesCbc(key: Buffer, iv: Buffer, data: Buffer): Buffer {
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}

/** 2.3.4.11 up to the block key: H0 = H(salt + password as UTF-16LE), Hn = H(iterator + Hn-1). */
export async function iteratedPasswordHash(password: string, salt: Buffer, spinCount = SPIN_COUNT): Promise<Buffer> {
  const passwordBytes = Buffer.from(password, 'utf16le');
  let h = sha512(salt, passwordBytes);
  passwordBytes.fill(0);
  // One buffer reused for iterator ‖ hash, and the one-shot crypto.hash (no Hash object per round):
  // the 100,000 rounds take a fraction of the time createHash would.
  const round = Buffer.alloc(4 + HASH_BYTES);
  for (let i = 0; i < spinCount; i++) {
    round.writeUInt32LE(i, 0);
    h.copy(round, 4);
    h = hash('sha512', round, 'buffer');
    if ((i + 1) % SPIN_SLICE === 0 && i + 1 < spinCount) await yieldToEventLoop();
  }
  round.fill(0);
  return h;
}

/** 2.3.4.11 finished: H(Hn + blockKey), cut to the key size (SHA-512 is longer than 256 bits). */
export function keyFromIteratedHash(iterated: Buffer, blockKey: Buffer): Buffer {
  return sha512(iterated, blockKey).subarray(0, KEY_BYTES);
}

/** 2.3.4.12: an IV from the keyData salt and a block key (or segment index), cut to the block size. */
function ivFrom(keyDataSalt: Buffer, blockKey: Buffer): Buffer {
  return sha512(keyDataSalt, blockKey).subarray(0, BLOCK_BYTES);
}

/** 2.3.4.15: size (8 bytes LE) then each 4096-byte segment encrypted with its own IV. */
function encryptPackage(secretKey: Buffer, keyDataSalt: Buffer, plain: Uint8Array): Buffer {
  const size = Buffer.alloc(8);
  size.writeBigUInt64LE(BigInt(plain.length), 0);
  const segments: Buffer[] = [size];
  for (let offset = 0, index = 0; offset < plain.length; offset += SEGMENT_BYTES, index++) {
    const end = Math.min(offset + SEGMENT_BYTES, plain.length);
    // The last segment is padded with zeros to whole blocks; the size above tells readers where the package ends.
    const padded = Buffer.alloc(Math.ceil((end - offset) / BLOCK_BYTES) * BLOCK_BYTES);
    padded.set(plain.subarray(offset, end));
    segments.push(aesCbc(secretKey, ivFrom(keyDataSalt, uint32le(index)), padded));
    padded.fill(0);
  }
  return Buffer.concat(segments);
}

const b64 = (bytes: Buffer): string => bytes.toString('base64');

/** The XML descriptor of 2.3.4.10 with the values written in this order by Excel itself. */
function descriptorXml(v: {
  keyDataSalt: Buffer;
  encryptedHmacKey: Buffer;
  encryptedHmacValue: Buffer;
  passwordSalt: Buffer;
  encryptedVerifierHashInput: Buffer;
  encryptedVerifierHashValue: Buffer;
  encryptedKeyValue: Buffer;
}): string {
  const params = `saltSize="${SALT_BYTES}" blockSize="${BLOCK_BYTES}" keyBits="${KEY_BYTES * 8}" hashSize="${HASH_BYTES}" cipherAlgorithm="AES" cipherChaining="ChainingModeCBC" hashAlgorithm="SHA512"`;
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n' +
    '<encryption xmlns="http://schemas.microsoft.com/office/2006/encryption" xmlns:p="http://schemas.microsoft.com/office/2006/keyEncryptor/password" xmlns:c="http://schemas.microsoft.com/office/2006/keyEncryptor/certificate">' +
    `<keyData ${params} saltValue="${b64(v.keyDataSalt)}"/>` +
    `<dataIntegrity encryptedHmacKey="${b64(v.encryptedHmacKey)}" encryptedHmacValue="${b64(v.encryptedHmacValue)}"/>` +
    '<keyEncryptors><keyEncryptor uri="http://schemas.microsoft.com/office/2006/keyEncryptor/password">' +
    `<p:encryptedKey spinCount="${SPIN_COUNT}" ${params} saltValue="${b64(v.passwordSalt)}" ` +
    `encryptedVerifierHashInput="${b64(v.encryptedVerifierHashInput)}" encryptedVerifierHashValue="${b64(v.encryptedVerifierHashValue)}" ` +
    `encryptedKeyValue="${b64(v.encryptedKeyValue)}"/>` +
    '</keyEncryptor></keyEncryptors></encryption>'
  );
}

export interface AgileEncryptedStreams {
  /** The EncryptionInfo stream: version 4.4, flags 0x40 (agile), then the XML descriptor. */
  readonly encryptionInfo: Buffer;
  /** The EncryptedPackage stream. */
  readonly encryptedPackage: Buffer;
}

/** Encrypts an OOXML package (the .xlsx ZIP bytes) under `password`. */
export async function encryptAgile(plainPackage: Uint8Array, password: string): Promise<AgileEncryptedStreams> {
  const secretKey = randomBytes(KEY_BYTES);
  const keyDataSalt = randomBytes(SALT_BYTES);
  const passwordSalt = randomBytes(SALT_BYTES);
  const verifierHashInput = randomBytes(SALT_BYTES);
  const hmacKey = randomBytes(HASH_BYTES);

  const iterated = await iteratedPasswordHash(password, passwordSalt);
  const keys = {
    verifierHashInput: keyFromIteratedHash(iterated, BLOCK_KEYS.verifierHashInput),
    verifierHashValue: keyFromIteratedHash(iterated, BLOCK_KEYS.verifierHashValue),
    encryptedKeyValue: keyFromIteratedHash(iterated, BLOCK_KEYS.encryptedKeyValue),
  };
  iterated.fill(0);
  try {
    const encryptedPackage = encryptPackage(secretKey, keyDataSalt, plainPackage);
    const hmacValue = createHmac('sha512', hmacKey).update(encryptedPackage).digest();
    const xml = descriptorXml({
      keyDataSalt,
      encryptedHmacKey: aesCbc(secretKey, ivFrom(keyDataSalt, BLOCK_KEYS.hmacKey), hmacKey),
      encryptedHmacValue: aesCbc(secretKey, ivFrom(keyDataSalt, BLOCK_KEYS.hmacValue), hmacValue),
      passwordSalt,
      encryptedVerifierHashInput: aesCbc(keys.verifierHashInput, passwordSalt, verifierHashInput),
      encryptedVerifierHashValue: aesCbc(keys.verifierHashValue, passwordSalt, sha512(verifierHashInput)),
      encryptedKeyValue: aesCbc(keys.encryptedKeyValue, passwordSalt, secretKey),
    });
    // Version 4.4 (agile), reserved flags 0x00000040 (2.3.4.10).
    const header = Buffer.from([0x04, 0x00, 0x04, 0x00, 0x40, 0x00, 0x00, 0x00]);
    return { encryptionInfo: Buffer.concat([header, Buffer.from(xml, 'utf8')]), encryptedPackage };
  } finally {
    for (const key of [secretKey, hmacKey, keys.verifierHashInput, keys.verifierHashValue, keys.encryptedKeyValue]) key.fill(0);
  }
}
