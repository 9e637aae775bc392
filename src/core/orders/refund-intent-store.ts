// Named operations on refund_intents (0002): like order intents, a refund request is written with
// its clientRefundRef before the first send and every retry reuses that row, ref and content.
import type { Database } from 'better-sqlite3';

export type RefundIntentStatus = 'queued' | 'sending' | 'unknown' | 'accepted' | 'rejected' | 'withdrawn';

export interface RefundIntent {
  readonly clientRefundRef: string;
  readonly clientOrderRef: string;
  /** Null: everything refundable (the amount left out, on every send). */
  readonly amountFen: number | null;
  readonly reason: string;
  readonly status: RefundIntentStatus;
  readonly attempts: number;
  readonly lastErrorCode: string | null;
  readonly lastRequestId: string | null;
}

interface Row {
  client_refund_ref: string;
  client_order_ref: string;
  amount_fen: number | null;
  reason: string;
  status: RefundIntentStatus;
  attempts: number;
  last_error_code: string | null;
  last_request_id: string | null;
}

const toIntent = (row: Row): RefundIntent => ({
  clientRefundRef: row.client_refund_ref,
  clientOrderRef: row.client_order_ref,
  amountFen: row.amount_fen,
  reason: row.reason,
  status: row.status,
  attempts: row.attempts,
  lastErrorCode: row.last_error_code,
  lastRequestId: row.last_request_id,
});

export function insertRefundIntent(db: Database, intent: { clientRefundRef: string; clientOrderRef: string; amountFen: number | null; reason: string }, now: number): void {
  db.prepare(
    `INSERT INTO refund_intents (client_refund_ref, client_order_ref, amount_fen, reason, status, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'queued', ?, ?)`,
  ).run(intent.clientRefundRef, intent.clientOrderRef, intent.amountFen, intent.reason, now, now);
}

export function getRefundIntent(db: Database, clientRefundRef: string): RefundIntent | null {
  const row = db.prepare<[string], Row>('SELECT * FROM refund_intents WHERE client_refund_ref = ?').get(clientRefundRef);
  return row === undefined ? null : toIntent(row);
}

/** The order's refund intent still in flight (at most one, by the unique index), if any. */
export function openRefundIntent(db: Database, clientOrderRef: string): RefundIntent | null {
  const row = db
    .prepare<[string], Row>(`SELECT * FROM refund_intents WHERE client_order_ref = ? AND status IN ('queued', 'sending', 'unknown')`)
    .get(clientOrderRef);
  return row === undefined ? null : toIntent(row);
}

export function claimRefundForSending(db: Database, clientRefundRef: string, now: number): boolean {
  return (
    db
      .prepare(
        `UPDATE refund_intents SET status = 'sending', attempts = attempts + 1, last_attempt_at = ?, updated_at = ?
         WHERE client_refund_ref = ? AND status IN ('queued', 'unknown')`,
      )
      .run(now, now, clientRefundRef).changes === 1
  );
}

export function finishRefundIntent(
  db: Database,
  clientRefundRef: string,
  status: 'accepted' | 'rejected' | 'unknown',
  note: { code: string | null; requestId: string | null },
  now: number,
): void {
  db.prepare(
    `UPDATE refund_intents SET status = ?, last_error_code = ?, last_request_id = coalesce(?, last_request_id), updated_at = ?,
       resolved_at = CASE WHEN ? IN ('accepted', 'rejected') THEN ? END
     WHERE client_refund_ref = ? AND status IN ('sending', 'unknown')`,
  ).run(status, note.code, note.requestId, now, status, now, clientRefundRef);
}
