// Writes delivered cards into the vault (0003 `cards`), sealed with the CardCipher: the plain text
// only exists in memory, the database (and so its WAL) only ever sees the sealed BLOBs. Synchronous
// on purpose, so that it runs inside the caller's transaction together with the order update: an
// order is never stored as completed without its cards, nor the cards without the order.
import type { Database } from 'better-sqlite3';
import type { Card } from '../../shared/merchant/order';
import { keySecretName, type CardCipher } from './card-cipher';

/** Where the data key is wrapped: the secret-store port, under the name stored in wrapped_key. */
const WRAP_SCHEME_SECRET_STORE = 'secret-store';

/**
 * Makes sure vault_keys names the cipher's current key (cards reference it). The key itself lives
 * in the secret store; the row holds only the name it is stored under, never key material.
 */
export function ensureVaultKey(db: Database, cipher: CardCipher, now: number): void {
  db.prepare(
    `INSERT INTO vault_keys (key_id, wrapped_key, wrap_scheme, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (key_id) DO NOTHING`,
  ).run(cipher.keyId, Buffer.from(keySecretName(cipher.keyId), 'utf8'), WRAP_SCHEME_SECRET_STORE, now);
}

/**
 * Seals and inserts each card of `cards` (its position is its seq). A card already stored for that
 * (order, seq) is left alone: a second delivery (poll and webhook, a retry) is a no-op, unless the
 * stored row can no longer be opened (its data key was lost with the secret store): then the
 * merchant's authenticated copy replaces it, which is how such cards are recovered. Returns how many
 * were newly stored or replaced. With the data key missing (a locked cipher) it throws
 * DataKeyMissingError, so the caller's transaction stores nothing and the delivery is retried later.
 */
export function storeCards(
  db: Database,
  cipher: CardCipher,
  clientOrderRef: string,
  cards: readonly Card[],
  source: string,
  now: number,
): number {
  if (cards.length === 0) return 0;
  ensureVaultKey(db, cipher, now);
  const existing = db.prepare<[string, number], { id: number; card_no_sealed: Buffer }>('SELECT id, card_no_sealed FROM cards WHERE client_order_ref = ? AND seq = ?');
  const replace = db.prepare('UPDATE cards SET key_id = ?, card_no_sealed = ?, card_password_sealed = ?, expires_at = ?, received_at = ?, source = ? WHERE id = ?');
  const insert = db.prepare(
    `INSERT INTO cards (client_order_ref, seq, key_id, card_no_sealed, card_password_sealed, expires_at, received_at, source)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (client_order_ref, seq) DO NOTHING`,
  );
  let stored = 0;
  cards.forEach((card, seq) => {
    // Checked first so that an already stored, readable card is not even sealed again.
    const row = existing.get(clientOrderRef, seq);
    if (row !== undefined && cipher.canOpen(row.card_no_sealed, { clientOrderRef, seq, field: 'card_no' })) return;
    const cardNo = cipher.seal(card.card_no, { clientOrderRef, seq, field: 'card_no' });
    const password = cipher.seal(card.card_password, { clientOrderRef, seq, field: 'card_password' });
    if (row === undefined) stored += insert.run(clientOrderRef, seq, cipher.keyId, cardNo, password, card.expiresAt, now, source).changes;
    else stored += replace.run(cipher.keyId, cardNo, password, card.expiresAt, now, source, row.id).changes;
  });
  return stored;
}

export function countCards(db: Database, clientOrderRef: string): number {
  return db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM cards WHERE client_order_ref = ?').get(clientOrderRef)?.n ?? 0;
}
