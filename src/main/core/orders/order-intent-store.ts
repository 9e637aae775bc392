// Named operations on order_intents (0002): the outbox's durable state. Every status change is one
// guarded UPDATE (`WHERE status IN …`), so two workers, or a worker and the user, can never both
// move the same intent: the loser sees 0 changed rows.
import type { Database } from 'better-sqlite3';

export type IntentStatus = 'queued' | 'sending' | 'unknown' | 'accepted' | 'rejected' | 'needs_confirmation' | 'withdrawn';

export interface OrderIntent {
  readonly clientOrderRef: string;
  readonly batchId: string | null;
  readonly productRef: number;
  readonly variantRef: number;
  readonly productType: string;
  readonly units: number;
  readonly purchaseSchemaRevision: number | null;
  /** Null once the outcome is final (the column is cleared) or for products without entries. */
  readonly purchaseEntries: Record<string, string>[] | null;
  readonly orderCallbackUrl: string | null;
  readonly imageUrl: string | null;
  readonly status: IntentStatus;
  readonly attempts: number;
  readonly lastAttemptAt: number | null;
  readonly nextAttemptAt: number | null;
  readonly lastErrorCode: string | null;
  readonly lastErrorMessage: string | null;
  readonly lastRequestId: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly resolvedAt: number | null;
}

interface IntentRow {
  client_order_ref: string;
  batch_id: string | null;
  product_ref: number;
  variant_ref: number;
  product_type: string;
  units: number;
  purchase_schema_revision: number | null;
  purchase_entries_json: string | null;
  order_callback_url: string | null;
  image_url: string | null;
  status: IntentStatus;
  attempts: number;
  last_attempt_at: number | null;
  next_attempt_at: number | null;
  last_error_code: string | null;
  last_error_message: string | null;
  last_request_id: string | null;
  created_at: number;
  updated_at: number;
  resolved_at: number | null;
}

function toIntent(row: IntentRow): OrderIntent {
  return {
    clientOrderRef: row.client_order_ref,
    batchId: row.batch_id,
    productRef: row.product_ref,
    variantRef: row.variant_ref,
    productType: row.product_type,
    units: row.units,
    purchaseSchemaRevision: row.purchase_schema_revision,
    purchaseEntries: row.purchase_entries_json === null ? null : (JSON.parse(row.purchase_entries_json) as Record<string, string>[]),
    orderCallbackUrl: row.order_callback_url,
    imageUrl: row.image_url,
    status: row.status,
    attempts: row.attempts,
    lastAttemptAt: row.last_attempt_at,
    nextAttemptAt: row.next_attempt_at,
    lastErrorCode: row.last_error_code,
    lastErrorMessage: row.last_error_message,
    lastRequestId: row.last_request_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    resolvedAt: row.resolved_at,
  };
}

export interface NewIntent {
  clientOrderRef: string;
  batchId: string | null;
  productRef: number;
  variantRef: number;
  productType: string;
  units: number;
  purchaseSchemaRevision: number | null;
  purchaseEntries: Record<string, string>[];
  orderCallbackUrl: string | null;
  imageUrl: string | null;
}

/** What a failed or inconclusive attempt leaves on the row. */
export interface AttemptNote {
  code: string | null;
  message: string | null;
  requestId: string | null;
}

export function insertIntent(db: Database, intent: NewIntent, now: number): void {
  db.prepare(
    `INSERT INTO order_intents (client_order_ref, batch_id, product_ref, variant_ref, product_type, units, purchase_schema_revision,
       purchase_entries_json, order_callback_url, image_url, status, attempts, next_attempt_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', 0, ?, ?, ?)`,
  ).run(
    intent.clientOrderRef,
    intent.batchId,
    intent.productRef,
    intent.variantRef,
    intent.productType,
    intent.units,
    intent.purchaseSchemaRevision,
    intent.purchaseEntries.length === 0 ? null : JSON.stringify(intent.purchaseEntries),
    intent.orderCallbackUrl,
    intent.imageUrl,
    now,
    now,
    now,
  );
}

export function getIntent(db: Database, clientOrderRef: string): OrderIntent | null {
  const row = db.prepare<[string], IntentRow>('SELECT * FROM order_intents WHERE client_order_ref = ?').get(clientOrderRef);
  return row === undefined ? null : toIntent(row);
}

export function listIntents(db: Database, filter: { status?: IntentStatus; batchId?: string } = {}): OrderIntent[] {
  return db
    .prepare<[{ status: string | null; batchId: string | null }], IntentRow>(
      `SELECT * FROM order_intents WHERE (@status IS NULL OR status = @status) AND (@batchId IS NULL OR batch_id = @batchId) ORDER BY created_at, rowid`,
    )
    .all({ status: filter.status ?? null, batchId: filter.batchId ?? null })
    .map(toIntent);
}

export function countIntentsByStatus(db: Database): Record<IntentStatus, number> {
  const counts: Record<IntentStatus, number> = { queued: 0, sending: 0, unknown: 0, accepted: 0, rejected: 0, needs_confirmation: 0, withdrawn: 0 };
  for (const row of db.prepare<[], { status: IntentStatus; n: number }>('SELECT status, count(*) AS n FROM order_intents GROUP BY status').all()) {
    counts[row.status] = row.n;
  }
  return counts;
}

/** Intents the outbox should work on now: queued or unknown and due, oldest first. */
export function dueIntents(db: Database, now: number, limit: number): OrderIntent[] {
  return db
    .prepare<[number, number], IntentRow>(
      `SELECT * FROM order_intents
       WHERE status IN ('queued', 'unknown') AND coalesce(next_attempt_at, 0) <= ?
       ORDER BY next_attempt_at, created_at LIMIT ?`,
    )
    .all(now, limit)
    .map(toIntent);
}

/** The earliest next_attempt_at among pending intents (to know when to wake up), or null. */
export function nextDueAt(db: Database): number | null {
  const row = db
    .prepare<[], { at: number | null }>(`SELECT min(coalesce(next_attempt_at, 0)) AS at FROM order_intents WHERE status IN ('queued', 'unknown')`)
    .get();
  return row?.at ?? null;
}

/** Start-up recovery: a 'sending' row means a request may have left before the crash. */
export function markInterruptedSendsUnknown(db: Database, now: number): number {
  return db
    .prepare(
      `UPDATE order_intents SET status = 'unknown', next_attempt_at = ?, last_error_code = 'INTERRUPTED',
         last_error_message = 'the app stopped while this order was being sent', updated_at = ?
       WHERE status = 'sending'`,
    )
    .run(now, now).changes;
}

/**
 * Before the first send only: an intent placed without a callback URL takes the URL that is live now.
 * Stored, so every retry sends the same bytes; a URL chosen at placing time could be dead by the time a
 * queued (offline) intent goes out.
 */
export function adoptCallbackUrl(db: Database, clientOrderRef: string, url: string, now: number): boolean {
  return (
    db
      .prepare(
        `UPDATE order_intents SET order_callback_url = ?, updated_at = ?
         WHERE client_order_ref = ? AND status = 'queued' AND attempts = 0 AND order_callback_url IS NULL`,
      )
      .run(url, now, clientOrderRef).changes === 1
  );
}

/** queued|unknown → sending, counting the attempt. False when someone else moved it first. */
export function claimForSending(db: Database, clientOrderRef: string, now: number): boolean {
  return (
    db
      .prepare(
        `UPDATE order_intents SET status = 'sending', attempts = attempts + 1, last_attempt_at = ?, updated_at = ?
         WHERE client_order_ref = ? AND status IN ('queued', 'unknown')`,
      )
      .run(now, now, clientOrderRef).changes === 1
  );
}

/** → accepted. Entries are cleared: nothing is ever resent after acceptance (0002 comment). */
export function markAccepted(db: Database, clientOrderRef: string, requestId: string, now: number): boolean {
  return (
    db
      .prepare(
        `UPDATE order_intents SET status = 'accepted', purchase_entries_json = NULL, next_attempt_at = NULL, last_error_code = NULL,
           last_error_message = NULL, last_request_id = ?, updated_at = ?, resolved_at = ?
         WHERE client_order_ref = ? AND status IN ('sending', 'unknown', 'queued')`,
      )
      .run(requestId, now, now, clientOrderRef).changes === 1
  );
}

/**
 * sending → rejected with the merchant's code. Entries are kept when `keepEntries` (an
 * idempotency conflict must be investigated with exactly what was sent), cleared otherwise.
 */
export function markRejected(db: Database, clientOrderRef: string, note: AttemptNote, now: number, keepEntries: boolean): boolean {
  return (
    db
      .prepare(
        `UPDATE order_intents SET status = 'rejected', purchase_entries_json = CASE WHEN ? THEN purchase_entries_json END,
           next_attempt_at = NULL, last_error_code = ?, last_error_message = ?, last_request_id = ?, updated_at = ?, resolved_at = ?
         WHERE client_order_ref = ? AND status = 'sending'`,
      )
      .run(keepEntries ? 1 : 0, note.code, note.message, note.requestId, now, now, clientOrderRef).changes === 1
  );
}

/** sending → needs_confirmation (the template changed): waits for the buyer, never resent by itself. */
export function markNeedsConfirmation(db: Database, clientOrderRef: string, note: AttemptNote, now: number): boolean {
  return (
    db
      .prepare(
        `UPDATE order_intents SET status = 'needs_confirmation', next_attempt_at = NULL, last_error_code = ?, last_error_message = ?,
           last_request_id = ?, updated_at = ?
         WHERE client_order_ref = ? AND status = 'sending'`,
      )
      .run(note.code, note.message, note.requestId, now, clientOrderRef).changes === 1
  );
}

/** sending|unknown → unknown, to be resolved by GET /orders/{ref} at `nextAttemptAt`. */
export function markUnknown(db: Database, clientOrderRef: string, note: AttemptNote, nextAttemptAt: number, now: number): boolean {
  return (
    db
      .prepare(
        `UPDATE order_intents SET status = 'unknown', next_attempt_at = ?, last_error_code = ?, last_error_message = ?,
           last_request_id = coalesce(?, last_request_id), updated_at = ?
         WHERE client_order_ref = ? AND status IN ('sending', 'unknown')`,
      )
      .run(nextAttemptAt, note.code, note.message, note.requestId, now, clientOrderRef).changes === 1
  );
}

/**
 * sending → queued: the merchant surely did not process the request (refused by its rate limiter,
 * or the account is blocked), so it is sent again later as it is.
 */
export function markRequeued(db: Database, clientOrderRef: string, note: AttemptNote, nextAttemptAt: number, now: number): boolean {
  return (
    db
      .prepare(
        `UPDATE order_intents SET status = 'queued', next_attempt_at = ?, last_error_code = ?, last_error_message = ?,
           last_request_id = coalesce(?, last_request_id), updated_at = ?
         WHERE client_order_ref = ? AND status = 'sending'`,
      )
      .run(nextAttemptAt, note.code, note.message, note.requestId, now, clientOrderRef).changes === 1
  );
}

/**
 * needs_confirmation → queued with content the buyer confirmed against the new template. Same
 * ref: the merchant stored nothing for the rejected create (contract 7.1), so reusing it is safe.
 */
export function requeueConfirmed(
  db: Database,
  clientOrderRef: string,
  content: { units: number; purchaseSchemaRevision: number | null; purchaseEntries: Record<string, string>[] },
  now: number,
): boolean {
  return (
    db
      .prepare(
        `UPDATE order_intents SET status = 'queued', units = ?, purchase_schema_revision = ?, purchase_entries_json = ?,
           next_attempt_at = ?, last_error_code = NULL, last_error_message = NULL, updated_at = ?
         WHERE client_order_ref = ? AND status = 'needs_confirmation'`,
      )
      .run(
        content.units,
        content.purchaseSchemaRevision,
        content.purchaseEntries.length === 0 ? null : JSON.stringify(content.purchaseEntries),
        now,
        now,
        clientOrderRef,
      ).changes === 1
  );
}

/**
 * → withdrawn, only where the merchant surely holds nothing: never sent (queued, no attempt), or
 * refused with PURCHASE_SCHEMA_CHANGED (a rejected create stores nothing).
 */
export function markWithdrawn(db: Database, clientOrderRef: string, now: number): boolean {
  return (
    db
      .prepare(
        `UPDATE order_intents SET status = 'withdrawn', purchase_entries_json = NULL, next_attempt_at = NULL, updated_at = ?, resolved_at = ?
         WHERE client_order_ref = ? AND (status = 'needs_confirmation' OR (status = 'queued' AND attempts = 0))`,
      )
      .run(now, now, clientOrderRef).changes === 1
  );
}
