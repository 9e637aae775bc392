// The durable webhook inbox (0004 webhook_inbox, 0006 webhook_inbox_retries): named statements only.
//
// Why it looks like this:
// - `store` is one INSERT OR IGNORE in autocommit mode: with WAL and synchronous=FULL it is on disk
//   when it returns, so the receiver answers OK only for an event that survives a crash. event_id is
//   the primary key, so a redelivery (same eventId, interface v1 §6.4.5) changes nothing and says so.
// - An order.credentials.ready body is stored without card_list; its cards are sealed field by field
//   with the CardCipher (the same record contexts as the vault) into sealed_payload, so no plain card
//   secret reaches the database or its WAL, not even for a forged event.
// - Processing state lives on the row: attempts counted before each try (a crash mid-processing still
//   counts), outcome text, processed_at once final; the retry time in webhook_inbox_retries.
import type { Database } from 'better-sqlite3';
import type { Card } from '../../shared/merchant/order';
import type { CardCipher } from '../vault/card-cipher';
import { ensureVaultKey } from '../vault/card-store';

export interface InboxEntry {
  readonly eventId: string;
  readonly eventType: string;
  readonly occurredAt: number | null;
  readonly receivedAt: number;
  /** The body as received, without card_list. */
  readonly body: Record<string, unknown>;
  readonly hasSealedCards: boolean;
  readonly processedAt: number | null;
  readonly attempts: number;
  readonly outcome: string | null;
  readonly nextAttemptAt: number | null;
}

export interface SealedCard {
  readonly cardNo: Buffer;
  readonly cardPassword: Buffer;
  readonly expiresAt: number | null;
}

interface InboxRow {
  event_id: string;
  event_type: string;
  occurred_at: number | null;
  received_at: number;
  body_json: string;
  sealed_payload: Buffer | null;
  processed_at: number | null;
  attempts: number;
  outcome: string | null;
  next_attempt_at: number | null;
}

interface SealedPayloadV1 {
  v: 1;
  cards: { no: string; pw: string; expiresAt: number | null }[];
}

function toEntry(row: InboxRow): InboxEntry {
  return {
    eventId: row.event_id,
    eventType: row.event_type,
    occurredAt: row.occurred_at,
    receivedAt: row.received_at,
    body: JSON.parse(row.body_json) as Record<string, unknown>,
    hasSealedCards: row.sealed_payload !== null,
    processedAt: row.processed_at,
    attempts: row.attempts,
    outcome: row.outcome,
    nextAttemptAt: row.next_attempt_at,
  };
}

export interface StoreInput {
  readonly eventId: string;
  readonly eventType: string;
  readonly occurredAt: number | null;
  /** The parsed body; card_list is taken out here and sealed. */
  readonly body: Record<string, unknown>;
  /** Unix seconds. */
  readonly receivedAt: number;
}

export interface StoreItem {
  readonly input: StoreInput;
  /** order.credentials.ready: the cards to seal for `clientOrderRef` (validated by the caller). */
  readonly cards: { readonly clientOrderRef: string; readonly list: readonly Card[] } | null;
}

/** The durable inbox of webhook events: stored before the 200, processed and retried from here. */
export interface WebhookInbox {
  /**
   * Stores an event durably; 'duplicate' when its eventId is already in the inbox (nothing written).
   * `cards` (order.credentials.ready) are sealed for `clientOrderRef`; the caller has validated both.
   */
  store(input: StoreInput, cards: StoreItem["cards"]): "stored" | "duplicate";
  /**
   * Stores several events in one transaction (one fsync for a burst: group commit), in order; the
   * same eventId twice in one batch is stored once. All or nothing: a failure throws for the batch.
   */
  storeMany(items: readonly StoreItem[]): ("stored" | "duplicate")[];
  /** The stored event, or null. */
  get(eventId: string): InboxEntry | null;
  /** Unprocessed events whose next attempt is due at `now` (Unix seconds), oldest first. */
  due(now: number, limit: number): InboxEntry[];
  /** The earliest next attempt of any unprocessed event (0 = due now), null when none is pending. */
  nextDueAt(): number | null;
  /**
   * Counted (and committed, one transaction for the batch) before a try, so an attempt cut off by a
   * crash is still counted.
   */
  beginAttempts(eventIds: readonly string[]): void;
  /**
   * Final, for several events in one transaction: they will not be processed again, and any sealed
   * cards are dropped (no longer needed). Returns the ids this call finished (not already finished).
   */
  finishMany(outcomes: readonly { eventId: string; outcome: string }[], now: number): string[];
  /** Not processed this time: try again at `at` (Unix seconds), keeping the outcome for the log. */
  retryLater(eventId: string, outcome: string, at: number): void;
  /** The sealed cards of an order.credentials.ready event (as the sender claimed them), if any. */
  sealedCards(eventId: string): SealedCard[];
}

export function createWebhookInbox(db: Database, cipher: CardCipher): WebhookInbox {
  const insert = db.prepare(
    `INSERT OR IGNORE INTO webhook_inbox (event_id, event_type, occurred_at, received_at, body_json, sealed_payload, key_id)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const columns = 'i.*, r.next_attempt_at AS next_attempt_at FROM webhook_inbox i LEFT JOIN webhook_inbox_retries r ON r.event_id = i.event_id';
  const selectOne = db.prepare<[string], InboxRow>(`SELECT ${columns} WHERE i.event_id = ?`);
  const exists = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM webhook_inbox WHERE event_id = ?');
  const selectDue = db.prepare<[number, number], InboxRow>(
    `SELECT ${columns} WHERE i.processed_at IS NULL AND coalesce(r.next_attempt_at, 0) <= ?
     ORDER BY coalesce(r.next_attempt_at, 0), i.received_at, i.rowid LIMIT ?`,
  );
  const selectNextDue = db.prepare<[], { at: number | null }>(
    `SELECT min(coalesce(r.next_attempt_at, 0)) AS at FROM webhook_inbox i LEFT JOIN webhook_inbox_retries r ON r.event_id = i.event_id
     WHERE i.processed_at IS NULL`,
  );
  const countAttempt = db.prepare<[string]>('UPDATE webhook_inbox SET attempts = attempts + 1 WHERE event_id = ? AND processed_at IS NULL');
  const finishRow = db.prepare<[number, string, string]>(
    `UPDATE webhook_inbox SET processed_at = ?, outcome = ?, sealed_payload = NULL, key_id = NULL
     WHERE event_id = ? AND processed_at IS NULL`,
  );
  const clearRetry = db.prepare<[string]>('DELETE FROM webhook_inbox_retries WHERE event_id = ?');
  const setOutcome = db.prepare<[string, string]>('UPDATE webhook_inbox SET outcome = ? WHERE event_id = ? AND processed_at IS NULL');
  const setRetry = db.prepare<[string, number]>(
    'INSERT INTO webhook_inbox_retries (event_id, next_attempt_at) VALUES (?, ?) ON CONFLICT (event_id) DO UPDATE SET next_attempt_at = excluded.next_attempt_at',
  );
  const finishMany = db.transaction((outcomes: readonly { eventId: string; outcome: string }[], now: number): string[] =>
    outcomes.flatMap(({ eventId, outcome }) => {
      const changed = finishRow.run(now, outcome, eventId).changes === 1;
      clearRetry.run(eventId);
      return changed ? [eventId] : [];
    }),
  );
  const beginAttempts = db.transaction((eventIds: readonly string[]): void => {
    for (const eventId of eventIds) countAttempt.run(eventId);
  });
  const retryLater = db.transaction((eventId: string, outcome: string, at: number): void => {
    if (setOutcome.run(outcome, eventId).changes === 1) setRetry.run(eventId, at);
  });
  const sealedOf = db.prepare<[string], { sealed_payload: Buffer | null }>('SELECT sealed_payload FROM webhook_inbox WHERE event_id = ?');

  const sealCards = (clientOrderRef: string, cards: readonly Card[]): Buffer => {
    const payload: SealedPayloadV1 = {
      v: 1,
      cards: cards.map((card, seq) => ({
        no: cipher.seal(card.card_no, { clientOrderRef, seq, field: 'card_no' }).toString('base64'),
        pw: cipher.seal(card.card_password, { clientOrderRef, seq, field: 'card_password' }).toString('base64'),
        expiresAt: card.expiresAt,
      })),
    };
    return Buffer.from(JSON.stringify(payload), 'utf8');
  };

  const storeOne = (input: StoreInput, cards: StoreItem['cards']): 'stored' | 'duplicate' => {
    const body: Record<string, unknown> = { ...input.body };
    delete body.card_list;
    let sealed: Buffer | null = null;
    if (cards !== null) {
      // A duplicate is answered without sealing its cards again.
      if (exists.get(input.eventId)?.n === 1) return 'duplicate';
      ensureVaultKey(db, cipher, input.receivedAt);
      sealed = sealCards(cards.clientOrderRef, cards.list);
    }
    const changes = insert.run(
      input.eventId,
      input.eventType,
      input.occurredAt,
      input.receivedAt,
      JSON.stringify(body),
      sealed,
      sealed === null ? null : cipher.keyId,
    ).changes;
    return changes === 1 ? 'stored' : 'duplicate';
  };
  const storeBatch = db.transaction((items: readonly StoreItem[]) => items.map((item) => storeOne(item.input, item.cards)));

  return {
    /**
     * Stores an event durably; 'duplicate' when its eventId is already in the inbox (nothing written).
     * `cards` (order.credentials.ready) are sealed for `clientOrderRef`; the caller has validated both.
     */
    store(input: StoreInput, cards: StoreItem['cards']): 'stored' | 'duplicate' {
      return storeOne(input, cards);
    },
    /**
     * Stores several events in one transaction (one fsync for a burst: group commit), in order; the
     * same eventId twice in one batch is stored once. All or nothing: a failure throws for the batch.
     */
    storeMany(items: readonly StoreItem[]): ('stored' | 'duplicate')[] {
      return storeBatch.immediate(items);
    },
    get(eventId: string): InboxEntry | null {
      const row = selectOne.get(eventId);
      return row === undefined ? null : toEntry(row);
    },
    /** Unprocessed events whose next attempt is due at `now` (Unix seconds), oldest first. */
    due(now: number, limit: number): InboxEntry[] {
      return selectDue.all(now, limit).map(toEntry);
    },
    /** The earliest next attempt of any unprocessed event (0 = due now), null when none is pending. */
    nextDueAt(): number | null {
      return selectNextDue.get()?.at ?? null;
    },
    beginAttempts(eventIds: readonly string[]): void {
      if (eventIds.length > 0) beginAttempts.immediate(eventIds);
    },
    finishMany(outcomes: readonly { eventId: string; outcome: string }[], now: number): string[] {
      return outcomes.length === 0 ? [] : finishMany.immediate(outcomes, now);
    },
    retryLater(eventId: string, outcome: string, at: number): void {
      retryLater.immediate(eventId, outcome, at);
    },
    /** The sealed cards of an order.credentials.ready event (as the sender claimed them), if any. */
    sealedCards(eventId: string): SealedCard[] {
      const row = sealedOf.get(eventId);
      if (row === undefined || row.sealed_payload === null) return [];
      const payload = JSON.parse(row.sealed_payload.toString('utf8')) as SealedPayloadV1;
      return payload.cards.map((c) => ({ cardNo: Buffer.from(c.no, 'base64'), cardPassword: Buffer.from(c.pw, 'base64'), expiresAt: c.expiresAt }));
    },
  };
}

