// Named operations on aftersale_outbox (0009): the buyer's messages from the moment they are typed
// until the merchant accepted or refused them. Every status change is one guarded UPDATE, so a worker
// and a restart can never both move the same message. Messages of one case leave in the order they
// were written (rowid order): a later one never overtakes one that is still being retried.
import type { Database } from 'better-sqlite3';

export type OutboxStatus = 'queued' | 'sending' | 'retrying' | 'sent' | 'failed';

export interface OutboxMessage {
  readonly clientMessageRef: string;
  readonly platformCaseRef: string;
  readonly text: string;
  readonly images: string[];
  readonly status: OutboxStatus;
  readonly attempts: number;
  readonly lastAttemptAt: number | null;
  readonly nextAttemptAt: number | null;
  readonly lastErrorCode: string | null;
  readonly lastErrorMessage: string | null;
  readonly lastRequestId: string | null;
  readonly messageRef: string | null;
  readonly sentCreatedAt: number | null;
  readonly createdAt: number;
}

/** Why an attempt did not end in `sent`: our code (TRANSPORT, TIMEOUT, PROTOCOL, LOCAL) or the merchant's. */
export interface AttemptNote {
  readonly code: string;
  readonly message: string;
  readonly requestId: string | null;
}

interface Row {
  client_message_ref: string;
  platform_case_ref: string;
  text: string;
  images_json: string;
  status: OutboxStatus;
  attempts: number;
  last_attempt_at: number | null;
  next_attempt_at: number | null;
  last_error_code: string | null;
  last_error_message: string | null;
  last_request_id: string | null;
  message_ref: string | null;
  sent_created_at: number | null;
  created_at: number;
}

function toMessage(row: Row): OutboxMessage {
  return {
    clientMessageRef: row.client_message_ref,
    platformCaseRef: row.platform_case_ref,
    text: row.text,
    images: JSON.parse(row.images_json) as string[],
    status: row.status,
    attempts: row.attempts,
    lastAttemptAt: row.last_attempt_at,
    nextAttemptAt: row.next_attempt_at,
    lastErrorCode: row.last_error_code,
    lastErrorMessage: row.last_error_message,
    lastRequestId: row.last_request_id,
    messageRef: row.message_ref,
    sentCreatedAt: row.sent_created_at,
    createdAt: row.created_at,
  };
}

const COLUMNS = `client_message_ref, platform_case_ref, text, images_json, status, attempts, last_attempt_at, next_attempt_at,
  last_error_code, last_error_message, last_request_id, message_ref, sent_created_at, created_at`;

/** Written (and committed) before any request: the ref and content every send will carry. */
export function enqueueMessage(db: Database, message: { clientMessageRef: string; platformCaseRef: string; text: string; images: readonly string[] }, now: number): void {
  db.prepare(
    `INSERT INTO aftersale_outbox (client_message_ref, platform_case_ref, text, images_json, status, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'queued', ?, ?)`,
  ).run(message.clientMessageRef, message.platformCaseRef, message.text, JSON.stringify(message.images), now, now);
}

export function getOutboxMessage(db: Database, clientMessageRef: string): OutboxMessage | null {
  const row = db.prepare<[string], Row>(`SELECT ${COLUMNS} FROM aftersale_outbox WHERE client_message_ref = ?`).get(clientMessageRef);
  return row === undefined ? null : toMessage(row);
}

/** Claims a due message for one send; false when another worker (or nothing) has it. */
export function claimForSending(db: Database, clientMessageRef: string, now: number): boolean {
  return (
    db
      .prepare(
        `UPDATE aftersale_outbox SET status = 'sending', attempts = attempts + 1, last_attempt_at = ?, updated_at = ?
         WHERE client_message_ref = ? AND status IN ('queued', 'retrying')`,
      )
      .run(now, now, clientMessageRef).changes === 1
  );
}

export function markSent(db: Database, clientMessageRef: string, accepted: { messageRef: string; createdAt: number; requestId: string }, now: number): boolean {
  return (
    db
      .prepare(
        `UPDATE aftersale_outbox SET status = 'sent', message_ref = ?, sent_created_at = ?, last_request_id = ?, next_attempt_at = NULL,
           last_error_code = NULL, last_error_message = NULL, updated_at = ?
         WHERE client_message_ref = ? AND status = 'sending'`,
      )
      .run(accepted.messageRef, accepted.createdAt, accepted.requestId, now, clientMessageRef).changes === 1
  );
}

export function markRetrying(db: Database, clientMessageRef: string, note: AttemptNote, nextAttemptAt: number, now: number): void {
  db.prepare(
    `UPDATE aftersale_outbox SET status = 'retrying', next_attempt_at = ?, last_error_code = ?, last_error_message = ?, last_request_id = ?, updated_at = ?
     WHERE client_message_ref = ? AND status = 'sending'`,
  ).run(nextAttemptAt, note.code, note.message, note.requestId, now, clientMessageRef);
}

/** Final: the merchant refused this content (a 4xx that sending again cannot change). */
export function markFailed(db: Database, clientMessageRef: string, note: AttemptNote, now: number): void {
  db.prepare(
    `UPDATE aftersale_outbox SET status = 'failed', next_attempt_at = NULL, last_error_code = ?, last_error_message = ?, last_request_id = ?, updated_at = ?
     WHERE client_message_ref = ? AND status = 'sending'`,
  ).run(note.code, note.message, note.requestId, now, clientMessageRef);
}

/** Start-up: a 'sending' row may have reached the merchant before a crash; sending it again is safe (contract §9.2). */
export function markInterruptedForRetry(db: Database, now: number): number {
  return db
    .prepare(
      `UPDATE aftersale_outbox SET status = 'retrying', next_attempt_at = ?, last_error_code = 'INTERRUPTED',
         last_error_message = 'the app stopped while sending', updated_at = ? WHERE status = 'sending'`,
    )
    .run(now, now).changes;
}

/** The merchant answers again: messages that waited out an outage go now instead of at their backoff. */
export function makeOfflineRetriesDue(db: Database, now: number): number {
  return db
    .prepare(`UPDATE aftersale_outbox SET next_attempt_at = ? WHERE status = 'retrying' AND last_error_code IN ('TRANSPORT', 'TIMEOUT') AND next_attempt_at > ?`)
    .run(now, now).changes;
}

/** The oldest unsent message of each case, when it is due. */
export function dueMessages(db: Database, now: number, limit: number): OutboxMessage[] {
  return db
    .prepare<{ now: number; limit: number }, Row>(
      `SELECT ${COLUMNS} FROM aftersale_outbox o
       WHERE o.status IN ('queued', 'retrying') AND coalesce(o.next_attempt_at, 0) <= @now
         AND NOT EXISTS (SELECT 1 FROM aftersale_outbox p WHERE p.platform_case_ref = o.platform_case_ref
                           AND p.status IN ('queued', 'sending', 'retrying') AND p.rowid < o.rowid)
       ORDER BY o.rowid LIMIT @limit`,
    )
    .all({ now, limit })
    .map(toMessage);
}

export function nextDueAt(db: Database): number | null {
  return db.prepare<[], { at: number | null }>(`SELECT min(coalesce(next_attempt_at, 0)) AS at FROM aftersale_outbox WHERE status IN ('queued', 'retrying')`).get()?.at ?? null;
}
