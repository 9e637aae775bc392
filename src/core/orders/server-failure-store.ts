// The ceiling on the merchant's 500 answers per order intent, in order_intents (0022, contract §7.12):
// counted durably (a restart does not reset it), the intent parked as merchant_failing at the ceiling,
// and the buyer's retry or withdraw the only ways out. Each move is one guarded UPDATE, as in
// order-intent-store.ts, so a worker and the buyer can never both move the same intent.
import type { Database } from 'better-sqlite3';
import type { AttemptNote } from './order-intent-store';

/** What counting one more 500 did: the count now, and whether the intent now waits for the buyer. */
export interface ServerFailureCount {
  readonly count: number;
  readonly parked: boolean;
}

/**
 * One more 500-class answer for an intent being sent or looked up (sending, unknown, withdrawing). At
 * `ceiling` it becomes merchant_failing: kept with its ref, content and withdraw request, never due.
 * Null when the intent is in none of those statuses (someone else moved it).
 */
export function countServerFailure(db: Database, clientOrderRef: string, ceiling: number, note: AttemptNote, now: number): ServerFailureCount | null {
  return db.transaction((): ServerFailureCount | null => {
    const row = db
      .prepare<[number, string], { server_failures: number }>(
        `UPDATE order_intents SET server_failures = server_failures + 1, updated_at = ?
         WHERE client_order_ref = ? AND status IN ('sending', 'unknown', 'withdrawing') RETURNING server_failures`,
      )
      .get(now, clientOrderRef);
    if (row === undefined) return null;
    if (row.server_failures < ceiling) return { count: row.server_failures, parked: false };
    db.prepare(
      `UPDATE order_intents SET status = 'merchant_failing', next_attempt_at = NULL, last_error_code = ?, last_error_message = ?,
         last_request_id = coalesce(?, last_request_id), updated_at = ?
       WHERE client_order_ref = ?`,
    ).run(note.code, note.message, note.requestId, now, clientOrderRef);
    return { count: row.server_failures, parked: true };
  }).immediate();
}

/**
 * The buyer's retry: merchant_failing → unknown (looked up by its ref first: a create that met a 500
 * may have been taken; 404002 then sends it again under the same ref), or withdrawing when the buyer
 * had withdrawn it. The count starts again from 0. False when it was not waiting for the buyer.
 */
export function retryServerFailing(db: Database, clientOrderRef: string, now: number): boolean {
  return (
    db
      .prepare(
        `UPDATE order_intents SET status = CASE WHEN withdraw_requested_at IS NOT NULL THEN 'withdrawing' ELSE 'unknown' END,
           server_failures = 0, next_attempt_at = ?, updated_at = ?
         WHERE client_order_ref = ? AND status = 'merchant_failing'`,
      )
      .run(now, now, clientOrderRef).changes === 1
  );
}

/**
 * The buyer withdraws it instead: merchant_failing → withdrawing (looked up, never sent again; an order
 * the merchant took is kept as an order). The look-ups get a fresh count: the buyer asked for them.
 */
export function withdrawServerFailing(db: Database, clientOrderRef: string, now: number): boolean {
  return (
    db
      .prepare(
        `UPDATE order_intents SET status = 'withdrawing', withdraw_requested_at = coalesce(withdraw_requested_at, ?), server_failures = 0,
           next_attempt_at = ?, updated_at = ?
         WHERE client_order_ref = ? AND status = 'merchant_failing'`,
      )
      .run(now, now, now, clientOrderRef).changes === 1
  );
}

/** The intents waiting for the buyer after the ceiling, oldest first. */
export function serverFailingRefs(db: Database, batchId?: string): string[] {
  return db
    .prepare<[string | null], { ref: string }>(
      `SELECT client_order_ref AS ref FROM order_intents WHERE status = 'merchant_failing' AND (?1 IS NULL OR batch_id = ?1) ORDER BY created_at, rowid`,
    )
    .all(batchId ?? null)
    .map((row) => row.ref);
}
