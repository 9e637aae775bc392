// Named operations on aftersale_open_intents (0009): a case create from the moment before it is sent
// until its outcome is known. The row exists only while it is not: the case stored (or a definite
// refusal) removes it, in the same transaction as the case when there is one.
import type { Database } from 'better-sqlite3';

export interface OpenIntent {
  readonly clientOrderRef: string;
  readonly category: string;
  readonly description: string;
  readonly images: string[];
  readonly status: 'sending' | 'unknown';
  readonly attempts: number;
  readonly nextAttemptAt: number | null;
  readonly lastErrorCode: string | null;
  readonly lastRequestId: string | null;
  readonly createdAt: number;
}

interface Row {
  client_order_ref: string;
  category: string;
  description: string;
  images_json: string;
  status: 'sending' | 'unknown';
  attempts: number;
  next_attempt_at: number | null;
  last_error_code: string | null;
  last_request_id: string | null;
  created_at: number;
}

const toIntent = (row: Row): OpenIntent => ({
  clientOrderRef: row.client_order_ref,
  category: row.category,
  description: row.description,
  images: JSON.parse(row.images_json) as string[],
  status: row.status,
  attempts: row.attempts,
  nextAttemptAt: row.next_attempt_at,
  lastErrorCode: row.last_error_code,
  lastRequestId: row.last_request_id,
  createdAt: row.created_at,
});

const COLUMNS = 'client_order_ref, category, description, images_json, status, attempts, next_attempt_at, last_error_code, last_request_id, created_at';

export function getOpenIntent(db: Database, clientOrderRef: string): OpenIntent | null {
  const row = db.prepare<[string], Row>(`SELECT ${COLUMNS} FROM aftersale_open_intents WHERE client_order_ref = ?`).get(clientOrderRef);
  return row === undefined ? null : toIntent(row);
}

/** A new create for an order with no unresolved one: recorded before the request leaves. */
export function insertOpenIntent(db: Database, content: { clientOrderRef: string; category: string; description: string; images: readonly string[] }, now: number): void {
  db.prepare(
    `INSERT INTO aftersale_open_intents (client_order_ref, category, description, images_json, status, attempts, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'sending', 0, ?, ?)`,
  ).run(content.clientOrderRef, content.category, content.description, JSON.stringify(content.images), now, now);
}

/** One more send of the same content (a create with the same content is a safe retry, contract §9.1). */
export function claimOpenIntent(db: Database, clientOrderRef: string, now: number): OpenIntent | null {
  db.prepare(`UPDATE aftersale_open_intents SET status = 'sending', attempts = attempts + 1, next_attempt_at = NULL, updated_at = ? WHERE client_order_ref = ?`).run(
    now,
    clientOrderRef,
  );
  return getOpenIntent(db, clientOrderRef);
}

export function markOpenUnknown(db: Database, clientOrderRef: string, note: { code: string; requestId: string | null }, nextAttemptAt: number, now: number): void {
  db.prepare(
    `UPDATE aftersale_open_intents SET status = 'unknown', next_attempt_at = ?, last_error_code = ?, last_request_id = ?, updated_at = ? WHERE client_order_ref = ?`,
  ).run(nextAttemptAt, note.code, note.requestId, now, clientOrderRef);
}

export function deleteOpenIntent(db: Database, clientOrderRef: string): void {
  db.prepare('DELETE FROM aftersale_open_intents WHERE client_order_ref = ?').run(clientOrderRef);
}

/** Start-up: a create that was on its way when the app stopped is unknown until sent again. */
export function markInterruptedOpensUnknown(db: Database, now: number): number {
  return db.prepare(`UPDATE aftersale_open_intents SET status = 'unknown', next_attempt_at = ?, last_error_code = 'INTERRUPTED', updated_at = ? WHERE status = 'sending'`).run(now, now)
    .changes;
}

export function dueOpenIntents(db: Database, now: number): OpenIntent[] {
  return db
    .prepare<[number], Row>(`SELECT ${COLUMNS} FROM aftersale_open_intents WHERE status = 'unknown' AND coalesce(next_attempt_at, 0) <= ? ORDER BY created_at`)
    .all(now)
    .map(toIntent);
}

export function nextOpenDueAt(db: Database): number | null {
  return db.prepare<[], { at: number | null }>(`SELECT min(coalesce(next_attempt_at, 0)) AS at FROM aftersale_open_intents WHERE status = 'unknown'`).get()?.at ?? null;
}
