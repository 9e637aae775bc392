// Reads the vault for people: a masked list of an order's cards (no audit needed, nothing secret
// leaves), and the plain text of a card only on an explicit reveal, which is written to the
// append-only audit_log first. If the audit row cannot be written, nothing is revealed. A card of a
// refunded or cancelled order is revealed only with the buyer's acknowledgement, which its audit
// row records; audit rows name the card as the vault does (merchant order number, #1 first). Each action
// is one row: a reveal is `reveal`, a copy to the clipboard is `copy` (with the field), never both. A
// row's detail holds facts (shared/ipc/views/audit.ts), which the screen words in the buyer's language.
import type { Database } from 'better-sqlite3';
import { AUDIT_FACTS_VERSION, type AuditFacts } from '../../shared/ipc/views/audit';
import { openRechargedEntries } from '../orders/recharged-entries';
import type { StoredEntries } from '../orders/stored-entries';
import { CardDecryptionError, DataKeyMissingError, type CardCipher } from './card-cipher';
import { createCardLabels } from './card-labels';
import { createRefundMarkReader, RefundedCardsError } from './refund-mark';

export interface MaskedCard {
  readonly seq: number;
  /** e.g. `••••••3921`: enough to tell cards apart, not enough to use one. */
  readonly cardNoMasked: string;
  readonly hasPassword: boolean;
  readonly expiresAt: number | null;
  readonly receivedAt: number;
  readonly usedAt: number | null;
  readonly exportedAt: number | null;
}

export interface RevealedCard {
  readonly seq: number;
  readonly cardNo: string;
  readonly cardPassword: string | null;
  readonly expiresAt: number | null;
}

interface CardRow {
  seq: number;
  card_no_sealed: Buffer;
  card_password_sealed: Buffer | null;
  expires_at: number | null;
  received_at: number;
  used_at: number | null;
  exported_at: number | null;
}

export interface VaultReaderOptions {
  readonly db: Database;
  readonly cipher: CardCipher;
  /** Unix seconds for audit rows. */
  readonly now: () => number;
}

export class CardNotFoundError extends Error {
  override readonly name = 'CardNotFoundError';
}

export interface RevealOptions {
  /** The buyer was told the card's order was refunded or cancelled, and goes on. */
  readonly acknowledgeRefunded?: boolean | undefined;
}

/** Which field of a card a copy puts on the clipboard. */
export type CopiedField = 'cardNo' | 'cardPassword';

/**
 * The mask of a card whose data key is missing (core.vaultKeyMissing, or a key lost before a new one
 * was started): the list still shows that the card exists; opening it says DATA_KEY_MISSING.
 */
const UNREADABLE_CARD_MASK = '••••••••';

/** Shows at most the last 4 characters, and none of a short value. */
function maskCardNo(cardNo: string): string {
  const chars = [...cardNo];
  const shown = chars.length >= 10 ? 4 : chars.length >= 6 ? 2 : 0;
  return '•'.repeat(Math.max(4, chars.length - shown)) + chars.slice(chars.length - shown).join('');
}

/** The card vault: masked lists, and plain text only through an audited reveal. */
export interface VaultReader {
  /** The order's cards, numbers masked, nothing opened or audited. */
  listCards(clientOrderRef: string): MaskedCard[];
  /**
   * One card in plain text; audited as `reveal` of the card as the vault names it (`<merchant
   * order number> #<seq + 1>`). RefundedCardsError, nothing revealed or audited, for a card of a
   * refunded or cancelled order without `acknowledgeRefunded`.
   */
  revealCard(clientOrderRef: string, seq: number, reveal?: RevealOptions): RevealedCard;
  /**
   * One card opened for a copy of `field` to the clipboard; audited as ONE `copy` row (not a reveal),
   * after the same guard as a reveal.
   */
  copyCard(clientOrderRef: string, seq: number, field: CopiedField, reveal?: RevealOptions): RevealedCard;
  /** The card as the vault and the audit log name it (merchant order number, #1 first). */
  cardLabel(clientOrderRef: string, seq: number): string;
  /** The masked number of a card row read elsewhere (the vault list), without a second query. */
  maskSealedCardNo(clientOrderRef: string, seq: number, cardNoSealed: Buffer): string;
  /**
   * Opens a card row read elsewhere WITHOUT writing an audit row: only for a caller that records
   * its own (the export writes one `export` row for the whole file, in the transaction that marks
   * the cards exported). Anything else reveals through revealCard.
   */
  openForAuditedCaller(row: {
      clientOrderRef: string;
      seq: number;
      cardNoSealed: Buffer;
      cardPasswordSealed: Buffer | null;
      expiresAt: number | null;
  }): RevealedCard;
  /** Every card of an order in plain text (e.g. to copy them all); audited once with the count. */
  revealOrderCards(clientOrderRef: string, reveal?: RevealOptions): RevealedCard[];
  /**
   * The top-up entries an accepted order recharged, kept sealed on its intent (0010). An account
   * identifier, not a card secret: shown in the order's detail (masked in lists), not audited.
   */
  openRechargedEntries(clientOrderRef: string, sealed: Buffer | null): StoredEntries | null;
}

export function createVaultReader(options: VaultReaderOptions): VaultReader {
  const { db, cipher } = options;
  const selectAll = db.prepare<[string], CardRow>(
    'SELECT seq, card_no_sealed, card_password_sealed, expires_at, received_at, used_at, exported_at FROM cards WHERE client_order_ref = ? ORDER BY seq',
  );
  const selectOne = db.prepare<[string, number], CardRow>(
    'SELECT seq, card_no_sealed, card_password_sealed, expires_at, received_at, used_at, exported_at FROM cards WHERE client_order_ref = ? AND seq = ?',
  );
  const audit = db.prepare('INSERT INTO audit_log (at, action, subject, card_count, detail) VALUES (?, ?, ?, ?, ?)');
  const labels = createCardLabels(db);
  const markOf = createRefundMarkReader(db);

  /**
   * Refuses a marked order's cards without the acknowledgement; answers the acknowledgement the audit
   * row's facts record, or nothing.
   */
  const guard = (clientOrderRef: string, count: number, options: RevealOptions): Pick<AuditFacts, 'refundAcknowledged'> => {
    const mark = markOf(clientOrderRef);
    if (mark === null) return {};
    if (options.acknowledgeRefunded !== true) throw new RefundedCardsError(count, [mark]);
    return { refundAcknowledged: { mark } };
  };
  /** One card's row: opened only after the guard, audited before the plain text is returned. */
  const openAudited = (clientOrderRef: string, seq: number, reveal: RevealOptions, action: 'reveal' | 'copy', facts: Partial<AuditFacts>): RevealedCard => {
    const row = selectOne.get(clientOrderRef, seq);
    if (row === undefined) throw new CardNotFoundError(`the vault holds no card #${seq + 1} of that order`);
    // A copy of a password the card does not have copies nothing, so it is not audited either.
    if (facts.copied === 'cardPassword' && row.card_password_sealed === null) throw new CardNotFoundError(`card #${seq + 1} of that order has no password`);
    const acknowledged = guard(clientOrderRef, 1, reveal);
    const card = open(clientOrderRef, row);
    const detail: AuditFacts = { v: AUDIT_FACTS_VERSION, subject: { kind: 'card', card: labels.cardName(clientOrderRef, seq) }, ...facts, ...acknowledged };
    audit.run(options.now(), action, labels.card(clientOrderRef, seq), 1, JSON.stringify(detail));
    return card;
  };

  const openCardNo = (clientOrderRef: string, seq: number, sealed: Buffer): string => cipher.unseal(sealed, { clientOrderRef, seq, field: 'card_no' });
  const maskOf = (clientOrderRef: string, seq: number, sealed: Buffer): string => {
    try {
      return maskCardNo(openCardNo(clientOrderRef, seq, sealed));
    } catch (error) {
      // Only a missing key is shown as unreadable; a damaged or moved value still fails loudly.
      if (error instanceof DataKeyMissingError || (error instanceof CardDecryptionError && error.keyMissing)) return UNREADABLE_CARD_MASK;
      throw error;
    }
  };
  const open = (clientOrderRef: string, row: Pick<CardRow, 'seq' | 'card_no_sealed' | 'card_password_sealed' | 'expires_at'>): RevealedCard => ({
    seq: row.seq,
    cardNo: openCardNo(clientOrderRef, row.seq, row.card_no_sealed),
    cardPassword: row.card_password_sealed === null ? null : cipher.unseal(row.card_password_sealed, { clientOrderRef, seq: row.seq, field: 'card_password' }),
    expiresAt: row.expires_at,
  });

  return {
    listCards(clientOrderRef: string): MaskedCard[] {
      return selectAll.all(clientOrderRef).map((row) => ({
        seq: row.seq,
        cardNoMasked: maskOf(clientOrderRef, row.seq, row.card_no_sealed),
        hasPassword: row.card_password_sealed !== null,
        expiresAt: row.expires_at,
        receivedAt: row.received_at,
        usedAt: row.used_at,
        exportedAt: row.exported_at,
      }));
    },

    /**
     * One card in plain text; audited as `reveal` of the card as the vault names it (`<merchant
     * order number> #<seq + 1>`). RefundedCardsError, nothing revealed or audited, for a card of a
     * refunded or cancelled order without `acknowledgeRefunded`.
     */
    revealCard(clientOrderRef: string, seq: number, reveal: RevealOptions = {}): RevealedCard {
      return openAudited(clientOrderRef, seq, reveal, 'reveal', {});
    },

    /**
     * One card opened for a copy of `field` to the clipboard; audited as ONE `copy` row (not a reveal),
     * after the same guard as a reveal.
     */
    copyCard(clientOrderRef: string, seq: number, field: CopiedField, reveal: RevealOptions = {}): RevealedCard {
      return openAudited(clientOrderRef, seq, reveal, 'copy', { copied: field });
    },

    /** The card as the vault and the audit log name it (merchant order number, #1 first). */
    cardLabel(clientOrderRef: string, seq: number): string {
      return labels.card(clientOrderRef, seq);
    },

    /** The masked number of a card row read elsewhere (the vault list), without a second query. */
    maskSealedCardNo(clientOrderRef: string, seq: number, cardNoSealed: Buffer): string {
      return maskOf(clientOrderRef, seq, cardNoSealed);
    },

    /**
     * Opens a card row read elsewhere WITHOUT writing an audit row: only for a caller that records
     * its own (the export writes one `export` row for the whole file, in the transaction that marks
     * the cards exported). Anything else reveals through revealCard.
     */
    openForAuditedCaller(row: { clientOrderRef: string; seq: number; cardNoSealed: Buffer; cardPasswordSealed: Buffer | null; expiresAt: number | null }): RevealedCard {
      return open(row.clientOrderRef, { seq: row.seq, card_no_sealed: row.cardNoSealed, card_password_sealed: row.cardPasswordSealed, expires_at: row.expiresAt });
    },

    /** Every card of an order in plain text (e.g. to copy them all); audited once with the count. */
    revealOrderCards(clientOrderRef: string, reveal: RevealOptions = {}): RevealedCard[] {
      const rows = selectAll.all(clientOrderRef);
      const acknowledged = guard(clientOrderRef, rows.length, reveal);
      const cards = rows.map((row) => open(clientOrderRef, row));
      const detail: AuditFacts = { v: AUDIT_FACTS_VERSION, subject: { kind: 'order', order: { ...labels.naming(clientOrderRef) } }, allCards: true, ...acknowledged };
      audit.run(options.now(), 'reveal', `order ${labels.order(clientOrderRef)}`, cards.length, JSON.stringify(detail));
      return cards;
    },

    /**
     * The top-up entries an accepted order recharged, kept sealed on its intent (0010). An account
     * identifier, not a card secret: shown in the order's detail (masked in lists), not audited.
     */
    openRechargedEntries(clientOrderRef: string, sealed: Buffer | null): StoredEntries | null {
      return openRechargedEntries(cipher, clientOrderRef, sealed);
    },
  };
}

