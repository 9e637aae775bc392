// Encrypts card credentials before they reach the database (DESIGN.md "Rules that carry money or
// secrets"): AES-256-GCM under a random 256-bit data key, a fresh 96-bit nonce per value, and
// associated data naming the record, so a ciphertext copied onto another card, order or field does
// not decrypt.
//
// The data key is a secret of the SecretStore (base64 under `vault.card-key.<keyId>`, the current
// id under `vault.card-key.current`): the store's own protection (safeStorage, or scrypt + GCM in
// the passphrase file) wraps it. Losing the store's secrets makes the vault unreadable, by design.
// A key is minted only for a vault that never had one: when the database names keys (vault_keys) but
// the store has none (a memory-only store after a restart, a keyring that changed), opening fails
// with DataKeyMissingError instead of silently starting over, and core runs with a locked cipher
// until the buyer restores the store or explicitly starts a new key (adoptNewKey).
//
// Sealed format, version 1 (29 bytes of overhead + the UTF-8 plaintext's length):
//   version (1 byte, 0x01) | key id (8 bytes) | nonce (12) | tag (16) | ciphertext
// The version and key id are part of the associated data too, so they cannot be altered.
import { randomBytes } from 'node:crypto';
import { AuthenticationFailedError, KEY_BYTES, NONCE_BYTES, TAG_BYTES, gcmDecrypt, gcmEncrypt } from '../secrets/aes-gcm';
import type { SecretStore } from '../secrets/secret-store';
import { CLIENT_REF_PATTERN } from '../../shared/refs';

export const SEALED_VERSION = 1;
const KEY_ID_BYTES = 8;
const HEADER_BYTES = 1 + KEY_ID_BYTES;
const OVERHEAD = HEADER_BYTES + NONCE_BYTES + TAG_BYTES;

export const CURRENT_KEY_SECRET = 'vault.card-key.current';
export const keySecretName = (keyId: string): string => `vault.card-key.${keyId}`;

export type CardField = 'card_no' | 'card_password';

/** The record a card secret belongs to: the order, the card's position in it, and which field. */
export interface CardSecretRecord {
  readonly clientOrderRef: string;
  /** Position of the card in the order's `card_list`, from 0. */
  readonly seq: number;
  readonly field: CardField;
}

const FIELDS: ReadonlySet<string> = new Set<CardField>(['card_no', 'card_password']);

/**
 * `card:${clientOrderRef}:${seq}:${field}`. The parts are checked so that no two records can
 * produce the same text (a ref never contains `:`).
 */
export function cardSecretContext(record: CardSecretRecord): string {
  if (!CLIENT_REF_PATTERN.test(record.clientOrderRef)) throw new RangeError('clientOrderRef must be 1 to 64 characters of A-Z a-z 0-9 _ -');
  if (!Number.isSafeInteger(record.seq) || record.seq < 0) throw new RangeError('seq must be a non-negative integer');
  if (!FIELDS.has(record.field)) throw new RangeError('field must be card_no or card_password');
  return `card:${record.clientOrderRef}:${record.seq}:${record.field}`;
}

/**
 * A sealed value of an order intent that is not a card: the top-up entries the merchant accepted
 * (the recharged account, 0010). `intent:` contexts can never equal a `card:` one.
 */
export interface IntentSecretRecord {
  readonly clientOrderRef: string;
  readonly field: 'recharged_entries';
}

export type SealedRecord = CardSecretRecord | IntentSecretRecord;

function recordContext(record: SealedRecord): string {
  if ('seq' in record) return cardSecretContext(record);
  if (!CLIENT_REF_PATTERN.test(record.clientOrderRef)) throw new RangeError('clientOrderRef must be 1 to 64 characters of A-Z a-z 0-9 _ -');
  if (record.field !== 'recharged_entries') throw new RangeError('field must be recharged_entries');
  return `intent:${record.clientOrderRef}:${record.field}`;
}

export class CardDecryptionError extends Error {
  override readonly name = 'CardDecryptionError';
  constructor(
    reason: string,
    /** Sealed under a data key this run does not hold (lost with the secret store), rather than damaged. */
    readonly keyMissing = false,
  ) {
    super(`a card secret could not be decrypted: ${reason}`);
  }
}

export class DataKeyMissingError extends Error {
  override readonly name = 'DataKeyMissingError';
  constructor(keyId: string) {
    // Never replaced silently by a new key: that would hide the loss of every stored card.
    super(`the vault data key ${keyId} is missing or damaged in the secret store`);
  }
}

function decodeKey(encoded: string | null, keyId: string): Buffer {
  if (encoded === null) throw new DataKeyMissingError(keyId);
  const key = Buffer.from(encoded, 'base64');
  if (key.byteLength !== KEY_BYTES) throw new DataKeyMissingError(keyId);
  return key;
}

export interface CardCipherOpenOptions {
  /** Key ids the database already names (vault_keys): with any, a missing key is an error, never re-minted. */
  readonly knownKeyIds?: readonly string[];
}

/** Mints a key and stores it, the key before the pointer to it, so a crash in between leaves no dangling id. */
async function mintKey(store: SecretStore): Promise<{ keyIdHex: string; key: Buffer }> {
  const keyIdHex = randomBytes(KEY_ID_BYTES).toString('hex');
  const key = randomBytes(KEY_BYTES);
  await store.set(keySecretName(keyIdHex), key.toString('base64'));
  await store.set(CURRENT_KEY_SECRET, keyIdHex);
  return { keyIdHex, key };
}

export class CardCipher {
  private disposed = false;

  private constructor(
    /** null: locked (the data key is missing); nothing can be sealed or opened. */
    private currentKeyId: Buffer | null,
    /** Keys by hex id; one today, several once keys are rotated. */
    private readonly keys: Map<string, Buffer>,
  ) {}

  /**
   * Loads the current data key. A vault that never had one (no current key in the store and no
   * knownKeyIds) gets a new one; otherwise a missing or damaged key throws DataKeyMissingError.
   */
  static async open(store: SecretStore, options: CardCipherOpenOptions = {}): Promise<CardCipher> {
    const keyIdHex = await store.get(CURRENT_KEY_SECRET);
    if (keyIdHex === null) {
      const known = options.knownKeyIds ?? [];
      if (known.length > 0) throw new DataKeyMissingError(known[known.length - 1] ?? '(unknown)');
      const minted = await mintKey(store);
      return new CardCipher(Buffer.from(minted.keyIdHex, 'hex'), new Map([[minted.keyIdHex, minted.key]]));
    }
    if (!/^[0-9a-f]{16}$/.test(keyIdHex)) throw new DataKeyMissingError('(unreadable id)');
    const key = decodeKey(await store.get(keySecretName(keyIdHex)), keyIdHex);
    return new CardCipher(Buffer.from(keyIdHex, 'hex'), new Map([[keyIdHex, key]]));
  }

  /** A cipher without a key: sealing and opening throw DataKeyMissingError until adoptNewKey. */
  static locked(): CardCipher {
    return new CardCipher(null, new Map());
  }

  /** Whether the data key is missing (opened with locked()). */
  get isLocked(): boolean {
    return this.currentKeyId === null;
  }

  /** Hex id of the key new values are sealed with. */
  get keyId(): string {
    if (this.currentKeyId === null) throw new DataKeyMissingError('(none)');
    return this.currentKeyId.toString('hex');
  }

  /**
   * The buyer's explicit choice after DataKeyMissing: a new data key for new cards. Cards sealed
   * under the lost key stay unreadable until the merchant delivers them again (storeCards replaces
   * such rows). Never called on its own.
   */
  async adoptNewKey(store: SecretStore): Promise<void> {
    if (this.disposed) throw new Error('the card cipher has been disposed');
    const minted = await mintKey(store);
    this.keys.set(minted.keyIdHex, minted.key);
    this.currentKeyId = Buffer.from(minted.keyIdHex, 'hex');
  }

  /** Whether this cipher can open the value (its key is held and it is intact for the record). */
  canOpen(sealedBytes: Uint8Array, record: CardSecretRecord): boolean {
    try {
      this.unseal(sealedBytes, record);
      return true;
    } catch (error) {
      if (error instanceof CardDecryptionError || error instanceof DataKeyMissingError) return false;
      throw error;
    }
  }

  /** Synchronous so that it can run inside a better-sqlite3 transaction. */
  seal(plaintext: string, record: SealedRecord): Buffer {
    const keyId = this.keyId;
    const key = this.keyFor(keyId);
    if (key === undefined || this.currentKeyId === null) throw new DataKeyMissingError(keyId);
    const header = Buffer.concat([Buffer.of(SEALED_VERSION), this.currentKeyId]);
    const sealed = gcmEncrypt(key, Buffer.from(plaintext, 'utf8'), associatedData(header, record));
    return Buffer.concat([header, sealed.nonce, sealed.tag, sealed.ciphertext]);
  }

  unseal(sealedBytes: Uint8Array, record: SealedRecord): string {
    const bytes = Buffer.from(sealedBytes);
    if (bytes.byteLength < OVERHEAD) throw new CardDecryptionError('too short');
    if (bytes[0] !== SEALED_VERSION) throw new CardDecryptionError(`unknown format version ${bytes[0] ?? ''}`);
    const header = bytes.subarray(0, HEADER_BYTES);
    const keyId = bytes.subarray(1, HEADER_BYTES).toString('hex');
    const key = this.keyFor(keyId);
    if (key === undefined) {
      // Its key is not held: lost with the secret store (the buyer was told at start), not tampering.
      throw this.currentKeyId === null ? new DataKeyMissingError(keyId) : new CardDecryptionError(`unknown data key ${keyId}`, true);
    }
    const nonce = bytes.subarray(HEADER_BYTES, HEADER_BYTES + NONCE_BYTES);
    const tag = bytes.subarray(HEADER_BYTES + NONCE_BYTES, OVERHEAD);
    const ciphertext = bytes.subarray(OVERHEAD);
    try {
      return gcmDecrypt(key, { nonce, tag, ciphertext }, associatedData(header, record)).toString('utf8');
    } catch (error) {
      if (error instanceof AuthenticationFailedError) throw new CardDecryptionError('authentication failed (altered, moved to another record, or another key)');
      throw error;
    }
  }

  /** Overwrites the keys in memory; the cipher cannot be used afterwards. */
  dispose(): void {
    this.disposed = true;
    for (const key of this.keys.values()) key.fill(0);
    this.keys.clear();
  }

  private keyFor(keyId: string): Buffer | undefined {
    if (this.disposed) throw new Error('the card cipher has been disposed');
    return this.keys.get(keyId);
  }
}

/** header | 0x00 | context: the record and the format both bound to the ciphertext. */
function associatedData(header: Buffer, record: SealedRecord): Buffer {
  return Buffer.concat([header, Buffer.of(0), Buffer.from(recordContext(record), 'utf8')]);
}
