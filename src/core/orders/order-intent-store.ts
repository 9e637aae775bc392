// Named operations on order_intents (0002): the outbox's durable state. Every status change is one
// guarded UPDATE (`WHERE status IN …`), so two workers, or a worker and the user, can never both
// move the same intent: the loser sees 0 changed rows.
import type { Database } from 'better-sqlite3';
import type { OptionLabels } from '../../shared/purchase-option-labels';
import { readStoredEntries, storedEntriesJson } from './stored-entries';

export type IntentStatus =
  | 'queued'
  | 'sending'
  | 'unknown'
  | 'accepted'
  | 'rejected'
  | 'needs_confirmation'
  | 'withdrawn'
  | 'price_changed'
  | 'unavailable'
  | 'withdrawing'
  | 'needs_key'
  | 'account_suspended'
  | 'access_denied'
  | 'needs_template'
  | 'merchant_failing';

/** Why the price guard parked an intent as `unavailable` (0010). */
export type UnavailableReason = 'productUnavailable' | 'variantUnavailable' | 'variantGone' | 'outOfStock';

/** Statuses in which the merchant surely holds nothing and the buyer decides: confirm or withdraw. */
export const PARKED_STATUSES: readonly IntentStatus[] = ['needs_confirmation', 'price_changed', 'unavailable'];

/**
 * Statuses of an intent the merchant refused to talk about (401/403, 0012): kept, never sent, and back
 * where it was (`parkedFrom`) by itself once access works again: a key accepted by GET /account
 * (needs_key), GET /account answering an accessState other than `suspended` (the other two).
 */
export type AccessParkStatus = 'needs_key' | 'account_suspended' | 'access_denied';
export const ACCESS_PARKED_STATUSES: readonly AccessParkStatus[] = ['needs_key', 'account_suspended', 'access_denied'];

/** Where an access-parked intent returns: queued (the merchant holds nothing) or unknown (looked up first). */
export type ParkedFrom = 'queued' | 'unknown';

/**
 * An order placed while the merchant could not be reached and no trusted template was cached (0017,
 * contract §7.10): kept with what the buyer confirmed, never sent; the outbox fetches its template when
 * the merchant answers again and moves it to queued or needs_confirmation.
 */
export const NEEDS_TEMPLATE: IntentStatus = 'needs_template';

/** Statuses the outbox will still send by itself: in flight, not yet sent (quitting asks, contract §17.2). */
export const NOT_SENT_STATUSES: readonly IntentStatus[] = ['queued', NEEDS_TEMPLATE];
/** Statuses of an intent sent whose outcome is not known yet: in flight, awaiting the merchant's answer. */
export const AWAITING_ANSWER_STATUSES: readonly IntentStatus[] = ['sending', 'unknown', 'withdrawing'];

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
  /** The labels of the options picked in purchaseEntries, one record per group; null when none were kept (contract §7.11). */
  readonly optionLabels: OptionLabels[] | null;
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
  /** The unit price the buyer confirmed (fen); null only for intents written before 0010 without a cached price. */
  readonly confirmedUnitPriceFen: number | null;
  /** The price the guard read when it parked the intent as price_changed. */
  readonly guardUnitPriceFen: number | null;
  readonly unavailableReason: string | null;
  /** Set when the buyer withdrew while a create was in flight: its outcome decides. */
  readonly withdrawRequestedAt: number | null;
  /** The entries kept sealed once the merchant accepted (0010); open with openRechargedEntries. */
  readonly rechargedEntriesSealed: Buffer | null;
  /** Set while access-parked (0012): the status it goes back to. */
  readonly parkedFrom: ParkedFrom | null;
  /** The requestId of every attempt made for it (creates and order look-ups), oldest first (0012). */
  readonly requestIds: string[];
  /** The merchant's 500 answers it met since placed or last retried by the buyer (0022, contract §7.12). */
  readonly serverFailures: number;
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
  confirmed_unit_price_fen: number | null;
  guard_unit_price_fen: number | null;
  unavailable_reason: string | null;
  withdraw_requested_at: number | null;
  recharged_entries_sealed: Buffer | null;
  parked_from: ParkedFrom | null;
  request_ids_json: string;
  server_failures: number;
}

function toIntent(row: IntentRow): OrderIntent {
  const entries = row.purchase_entries_json === null ? null : readStoredEntries(row.purchase_entries_json);
  return {
    clientOrderRef: row.client_order_ref,
    batchId: row.batch_id,
    productRef: row.product_ref,
    variantRef: row.variant_ref,
    productType: row.product_type,
    units: row.units,
    purchaseSchemaRevision: row.purchase_schema_revision,
    purchaseEntries: entries?.groups ?? null,
    optionLabels: entries?.optionLabels ?? null,
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
    confirmedUnitPriceFen: row.confirmed_unit_price_fen,
    guardUnitPriceFen: row.guard_unit_price_fen,
    unavailableReason: row.unavailable_reason,
    withdrawRequestedAt: row.withdraw_requested_at,
    rechargedEntriesSealed: row.recharged_entries_sealed,
    parkedFrom: row.parked_from,
    requestIds: JSON.parse(row.request_ids_json) as string[],
    serverFailures: row.server_failures,
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
  /** The labels of the options picked, one record per group (optionLabelsOf; empty without a template). */
  optionLabels: OptionLabels[];
  orderCallbackUrl: string | null;
  imageUrl: string | null;
  /** What the buyer confirmed (fen); null only when nothing was shown (never for a new intent from the app). */
  confirmedUnitPriceFen: number | null;
}

/** What a failed or inconclusive attempt leaves on the row. */
export interface AttemptNote {
  code: string | null;
  message: string | null;
  requestId: string | null;
}

/** Writes a new intent: queued (checked against its template), or needs_template (no template yet, 0017). */
export function insertIntent(db: Database, intent: NewIntent, now: number, status: 'queued' | 'needs_template' = 'queued'): void {
  db.prepare(
    `INSERT INTO order_intents (client_order_ref, batch_id, product_ref, variant_ref, product_type, units, purchase_schema_revision,
       purchase_entries_json, order_callback_url, image_url, status, attempts, next_attempt_at, created_at, updated_at, confirmed_unit_price_fen)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?)`,
  ).run(
    intent.clientOrderRef,
    intent.batchId,
    intent.productRef,
    intent.variantRef,
    intent.productType,
    intent.units,
    intent.purchaseSchemaRevision,
    storedEntriesJson(intent.purchaseEntries, intent.optionLabels),
    intent.orderCallbackUrl,
    intent.imageUrl,
    status,
    now,
    now,
    now,
    intent.confirmedUnitPriceFen,
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
  const counts: Record<IntentStatus, number> = {
    queued: 0,
    sending: 0,
    unknown: 0,
    accepted: 0,
    rejected: 0,
    needs_confirmation: 0,
    withdrawn: 0,
    price_changed: 0,
    unavailable: 0,
    withdrawing: 0,
    needs_key: 0,
    account_suspended: 0,
    access_denied: 0,
    needs_template: 0,
    merchant_failing: 0,
  };
  for (const row of db.prepare<[], { status: IntentStatus; n: number }>('SELECT status, count(*) AS n FROM order_intents GROUP BY status').all()) {
    counts[row.status] = row.n;
  }
  return counts;
}

/** Intents the outbox should work on now: queued, unknown or withdrawing and due, oldest first. */
export function dueIntents(db: Database, now: number, limit: number): OrderIntent[] {
  return db
    .prepare<[number, number], IntentRow>(
      `SELECT * FROM order_intents
       WHERE status IN ('queued', 'unknown', 'withdrawing') AND coalesce(next_attempt_at, 0) <= ?
       ORDER BY next_attempt_at, created_at LIMIT ?`,
    )
    .all(now, limit)
    .map(toIntent);
}

/** The earliest next_attempt_at among pending intents (to know when to wake up), or null. */
export function nextDueAt(db: Database): number | null {
  const row = db
    .prepare<[], { at: number | null }>(`SELECT min(coalesce(next_attempt_at, 0)) AS at FROM order_intents WHERE status IN ('queued', 'unknown', 'withdrawing', 'needs_template')`)
    .get();
  return row?.at ?? null;
}

/**
 * Start-up recovery: a 'sending' row means a request may have left before the crash (withdrawing
 * when the buyer withdrew meanwhile: resolved by GET, never sent again).
 */
export function markInterruptedSendsUnknown(db: Database, now: number): number {
  return db
    .prepare(
      `UPDATE order_intents SET status = ${UNKNOWN_OR_WITHDRAWING}, next_attempt_at = ?, last_error_code = 'INTERRUPTED',
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

/**
 * → accepted. The plain entries are cleared (nothing is ever resent after acceptance, 0002); what was
 * recharged stays only sealed (0010), passed in by the caller who holds the cipher.
 */
export function markAccepted(db: Database, clientOrderRef: string, requestId: string, now: number, rechargedEntriesSealed: Buffer | null): boolean {
  return (
    db
      .prepare(
        `UPDATE order_intents SET status = 'accepted', purchase_entries_json = NULL, recharged_entries_sealed = coalesce(?, recharged_entries_sealed),
           next_attempt_at = NULL, last_error_code = NULL, last_error_message = NULL, last_request_id = ?, updated_at = ?, resolved_at = ?
         WHERE client_order_ref = ? AND status IN ('sending', 'unknown', 'queued', 'withdrawing')`,
      )
      .run(rechargedEntriesSealed, requestId, now, now, clientOrderRef).changes === 1
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

/**
 * sending → needs_confirmation (the template changed): waits for the buyer, never resent by itself.
 * Withdrawn instead when the buyer withdrew while it was in flight: the refused create stored nothing.
 */
export function markNeedsConfirmation(db: Database, clientOrderRef: string, note: AttemptNote, now: number): boolean {
  return (
    db
      .prepare(
        `UPDATE order_intents SET status = ${CONFIRM_OR_WITHDRAWN}, ${CLEAR_IF_WITHDRAWN}, next_attempt_at = NULL, last_error_code = ?, last_error_message = ?,
           last_request_id = ?, updated_at = ?
         WHERE client_order_ref = ? AND status = 'sending'`,
      )
      .run(now, note.code, note.message, note.requestId, now, clientOrderRef).changes === 1
  );
}

/**
 * sending|unknown → unknown, to be resolved by GET /orders/{ref} at `nextAttemptAt`; withdrawing
 * stays withdrawing, and a send the buyer withdrew during becomes withdrawing (resolved, never resent).
 */
export function markUnknown(db: Database, clientOrderRef: string, note: AttemptNote, nextAttemptAt: number, now: number): boolean {
  return (
    db
      .prepare(
        `UPDATE order_intents SET status = ${UNKNOWN_OR_WITHDRAWING}, next_attempt_at = ?, last_error_code = ?, last_error_message = ?,
           last_request_id = coalesce(?, last_request_id), updated_at = ?
         WHERE client_order_ref = ? AND status IN ('sending', 'unknown', 'withdrawing')`,
      )
      .run(nextAttemptAt, note.code, note.message, note.requestId, now, clientOrderRef).changes === 1
  );
}

/**
 * sending → queued: the merchant surely did not process the request (refused by its rate limiter,
 * or the account is blocked), so it is sent again later as it is; withdrawn instead when the buyer
 * withdrew while it was in flight.
 */
export function markRequeued(db: Database, clientOrderRef: string, note: AttemptNote, nextAttemptAt: number, now: number): boolean {
  return (
    db
      .prepare(
        `UPDATE order_intents SET status = ${QUEUED_OR_WITHDRAWN}, ${CLEAR_IF_WITHDRAWN}, next_attempt_at = ?, last_error_code = ?, last_error_message = ?,
           last_request_id = coalesce(?, last_request_id), updated_at = ?
         WHERE client_order_ref = ? AND status = 'sending'`,
      )
      .run(now, nextAttemptAt, note.code, note.message, note.requestId, now, clientOrderRef).changes === 1
  );
}

/** What the buyer confirms for a parked intent: content checked against the cached template, and the price. */
export interface ConfirmedContent {
  units: number;
  purchaseSchemaRevision: number | null;
  purchaseEntries: Record<string, string>[];
  optionLabels: OptionLabels[];
  confirmedUnitPriceFen: number | null;
}

/**
 * needs_confirmation | price_changed | unavailable → queued with content and price the buyer
 * confirmed. Same ref: the merchant stored nothing under it (a refused create stores nothing,
 * contract §7.1; a parked intent was never sent since), so reusing it is safe. The guard runs again
 * before the send.
 */
export function requeueConfirmed(db: Database, clientOrderRef: string, content: ConfirmedContent, now: number): boolean {
  return (
    db
      .prepare(
        `UPDATE order_intents SET status = 'queued', units = ?, purchase_schema_revision = ?, purchase_entries_json = ?,
           confirmed_unit_price_fen = ?, guard_unit_price_fen = NULL, unavailable_reason = NULL,
           next_attempt_at = ?, last_error_code = NULL, last_error_message = NULL, updated_at = ?
         WHERE client_order_ref = ? AND status IN ('needs_confirmation', 'price_changed', 'unavailable')`,
      )
      .run(
        content.units,
        content.purchaseSchemaRevision,
        storedEntriesJson(content.purchaseEntries, content.optionLabels),
        content.confirmedUnitPriceFen,
        now,
        now,
        clientOrderRef,
      ).changes === 1
  );
}

/** queued → price_changed: the guard read a higher price than the buyer confirmed; nothing was sent. */
export function parkPriceChanged(db: Database, clientOrderRef: string, guardUnitPriceFen: number, now: number): boolean {
  return (
    db
      .prepare(
        `UPDATE order_intents SET status = 'price_changed', guard_unit_price_fen = ?, next_attempt_at = NULL, last_error_code = 'PRICE_CHANGED',
           last_error_message = 'the merchant asks more than the confirmed unit price', updated_at = ?
         WHERE client_order_ref = ? AND status IN ('queued', 'unknown') AND withdraw_requested_at IS NULL`,
      )
      .run(guardUnitPriceFen, now, clientOrderRef).changes === 1
  );
}

/**
 * queued|unknown (the merchant holds nothing) → needs_confirmation before sending: the variant shows
 * another purchaseSchemaRevision than the intent was checked against (the create would be 409101).
 */
export function parkSchemaChanged(db: Database, clientOrderRef: string, now: number): boolean {
  return (
    db
      .prepare(
        `UPDATE order_intents SET status = 'needs_confirmation', next_attempt_at = NULL, last_error_code = 'SCHEMA_CHANGED',
           last_error_message = 'the purchase template changed before sending', updated_at = ?
         WHERE client_order_ref = ? AND status IN ('queued', 'unknown') AND withdraw_requested_at IS NULL`,
      )
      .run(now, clientOrderRef).changes === 1
  );
}

/** queued → unavailable (needs_template too: its variant is gone): the guard found the product or variant unavailable, gone, or short of stock. */
export function parkUnavailable(db: Database, clientOrderRef: string, reason: UnavailableReason, now: number): boolean {
  return (
    db
      .prepare(
        `UPDATE order_intents SET status = 'unavailable', unavailable_reason = ?, next_attempt_at = NULL, last_error_code = 'UNAVAILABLE',
           last_error_message = ?, updated_at = ?
         WHERE client_order_ref = ? AND status IN ('queued', 'unknown', 'needs_template') AND withdraw_requested_at IS NULL`,
      )
      .run(reason, reason, now, clientOrderRef).changes === 1
  );
}

/** The guard's read failed (merchant away, 5xx, 429): nothing was sent, the intent waits as it is until `nextAttemptAt`. */
export function deferIntent(db: Database, clientOrderRef: string, note: AttemptNote, nextAttemptAt: number, now: number): boolean {
  return (
    db
      .prepare(
        `UPDATE order_intents SET next_attempt_at = ?, last_error_code = ?, last_error_message = ?, last_request_id = coalesce(?, last_request_id), updated_at = ?
         WHERE client_order_ref = ? AND status IN ('queued', 'unknown')`,
      )
      .run(nextAttemptAt, note.code, note.message, note.requestId, now, clientOrderRef).changes === 1
  );
}

/**
 * → withdrawn, only where the merchant surely holds nothing: queued (never sent, or sent and refused
 * before any order rule ran: 429, 401/403), parked (needs_confirmation, price_changed, unavailable:
 * refused or never sent), or withdrawing once GET /orders/{ref} answered 404002. The ref is retired:
 * no status leads from withdrawn to a send.
 */
export function markWithdrawn(db: Database, clientOrderRef: string, now: number, from: readonly IntentStatus[] = WITHDRAWABLE_AT_ONCE): boolean {
  const placeholders = from.map(() => '?').join(', ');
  return (
    db
      .prepare(
        `UPDATE order_intents SET status = 'withdrawn', purchase_entries_json = NULL, next_attempt_at = NULL, updated_at = ?, resolved_at = ?
         WHERE client_order_ref = ? AND status IN (${placeholders})`,
      )
      .run(now, now, clientOrderRef, ...from).changes === 1
  );
}

const WITHDRAWABLE_AT_ONCE: readonly IntentStatus[] = ['queued', ...PARKED_STATUSES, 'needs_template'];

/** unknown → withdrawing: from now on only resolved by GET /orders/{ref}, never sent again. */
export function markWithdrawing(db: Database, clientOrderRef: string, now: number): boolean {
  return (
    db
      .prepare(
        `UPDATE order_intents SET status = 'withdrawing', withdraw_requested_at = coalesce(withdraw_requested_at, ?), updated_at = ?
         WHERE client_order_ref = ? AND status = 'unknown'`,
      )
      .run(now, now, clientOrderRef).changes === 1
  );
}

/** sending: the buyer withdrew while a create is in flight; its outcome decides (see markUnknown and friends). */
export function requestWithdrawal(db: Database, clientOrderRef: string, now: number): boolean {
  return (
    db
      .prepare(`UPDATE order_intents SET withdraw_requested_at = coalesce(withdraw_requested_at, ?), updated_at = ? WHERE client_order_ref = ? AND status = 'sending'`)
      .run(now, now, clientOrderRef).changes === 1
  );
}

// Outcomes of a send the buyer withdrew while it was in flight.
const UNKNOWN_OR_WITHDRAWING = `CASE WHEN status = 'withdrawing' OR withdraw_requested_at IS NOT NULL THEN 'withdrawing' ELSE 'unknown' END`;
const QUEUED_OR_WITHDRAWN = `CASE WHEN withdraw_requested_at IS NOT NULL THEN 'withdrawn' ELSE 'queued' END`;
const CONFIRM_OR_WITHDRAWN = `CASE WHEN withdraw_requested_at IS NOT NULL THEN 'withdrawn' ELSE 'needs_confirmation' END`;
/** Takes one parameter: the time of resolution. */
const CLEAR_IF_WITHDRAWN = `purchase_entries_json = CASE WHEN withdraw_requested_at IS NOT NULL THEN NULL ELSE purchase_entries_json END,
  resolved_at = CASE WHEN withdraw_requested_at IS NOT NULL THEN ? ELSE resolved_at END`;

/** Appends requestIds of attempts made for the intent (a list kept for support, 0012); duplicates are skipped. */
export function addRequestIds(db: Database, clientOrderRef: string, requestIds: readonly string[]): void {
  if (requestIds.length === 0) return;
  db.transaction(() => {
    const row = db.prepare<[string], { request_ids_json: string }>('SELECT request_ids_json FROM order_intents WHERE client_order_ref = ?').get(clientOrderRef);
    if (row === undefined) return;
    const list = JSON.parse(row.request_ids_json) as string[];
    for (const id of requestIds) if (!list.includes(id)) list.push(id);
    db.prepare('UPDATE order_intents SET request_ids_json = ? WHERE client_order_ref = ?').run(JSON.stringify(list), clientOrderRef);
  }).immediate();
}

/**
 * sending | queued | unknown → an access park (the merchant refused the key, the account or the
 * address). `from` is where it returns: queued when the merchant surely holds nothing, unknown when an
 * earlier attempt may have created the order. A send the buyer withdrew during ends withdrawn
 * (nothing held) or withdrawing (looked up), as the other outcomes of a withdrawn send do.
 */
export function parkForAccess(db: Database, clientOrderRef: string, status: AccessParkStatus, from: ParkedFrom, note: AttemptNote, now: number): boolean {
  return (
    db
      .prepare(
        `UPDATE order_intents SET
           status = CASE WHEN withdraw_requested_at IS NULL THEN @status WHEN @from = 'unknown' THEN 'withdrawing' ELSE 'withdrawn' END,
           parked_from = CASE WHEN withdraw_requested_at IS NULL THEN @from END,
           purchase_entries_json = CASE WHEN withdraw_requested_at IS NOT NULL AND @from = 'queued' THEN NULL ELSE purchase_entries_json END,
           resolved_at = CASE WHEN withdraw_requested_at IS NOT NULL AND @from = 'queued' THEN @now ELSE resolved_at END,
           next_attempt_at = CASE WHEN withdraw_requested_at IS NOT NULL AND @from = 'unknown' THEN @now END,
           last_error_code = @code, last_error_message = @message, last_request_id = coalesce(@requestId, last_request_id), updated_at = @now
         WHERE client_order_ref = @ref AND status IN ('sending', 'queued', 'unknown')`,
      )
      .run({ status, from, now, code: note.code, message: note.message, requestId: note.requestId, ref: clientOrderRef }).changes === 1
  );
}

/** Access works again for these parks: each goes back where it was, due now. Returns the refs moved. */
export function releaseAccessParks(db: Database, statuses: readonly AccessParkStatus[], now: number): string[] {
  if (statuses.length === 0) return [];
  const placeholders = statuses.map(() => '?').join(', ');
  return db.transaction(() => {
    const refs = db
      .prepare<string[], { ref: string }>(`SELECT client_order_ref AS ref FROM order_intents WHERE status IN (${placeholders}) ORDER BY created_at, rowid`)
      .all(...statuses)
      .map((row) => row.ref);
    db.prepare(`UPDATE order_intents SET status = parked_from, parked_from = NULL, next_attempt_at = ?, updated_at = ? WHERE status IN (${placeholders})`).run(now, now, ...statuses);
    return refs;
  }).immediate();
}

/** How many intents wait in each access park. */
export function countAccessParks(db: Database, statuses: readonly AccessParkStatus[]): number {
  if (statuses.length === 0) return 0;
  const placeholders = statuses.map(() => '?').join(', ');
  return db.prepare<string[], { n: number }>(`SELECT count(*) AS n FROM order_intents WHERE status IN (${placeholders})`).get(...statuses)?.n ?? 0;
}

/**
 * The buyer withdraws an access-parked intent: withdrawn at once when it came from queued (the merchant
 * holds nothing), withdrawing when from unknown (looked up once access works, never sent again).
 */
export function withdrawAccessParked(db: Database, clientOrderRef: string, now: number): 'withdrawn' | 'withdrawing' | null {
  const row = db
    .prepare<[string], { parked_from: ParkedFrom | null }>(`SELECT parked_from FROM order_intents WHERE client_order_ref = ? AND status IN ('needs_key', 'account_suspended', 'access_denied')`)
    .get(clientOrderRef);
  if (row === undefined || row.parked_from === null) return null;
  const moved =
    row.parked_from === 'queued'
      ? db
          .prepare(
            `UPDATE order_intents SET status = 'withdrawn', parked_from = NULL, purchase_entries_json = NULL, next_attempt_at = NULL, updated_at = ?, resolved_at = ?
             WHERE client_order_ref = ? AND status IN ('needs_key', 'account_suspended', 'access_denied') AND parked_from = 'queued'`,
          )
          .run(now, now, clientOrderRef).changes
      : db
          .prepare(
            `UPDATE order_intents SET status = 'withdrawing', parked_from = NULL, withdraw_requested_at = coalesce(withdraw_requested_at, ?), next_attempt_at = ?, updated_at = ?
             WHERE client_order_ref = ? AND status IN ('needs_key', 'account_suspended', 'access_denied') AND parked_from = 'unknown'`,
          )
          .run(now, now, now, clientOrderRef).changes;
  if (moved !== 1) return null;
  return row.parked_from === 'queued' ? 'withdrawn' : 'withdrawing';
}

/** needs_template intents whose template the outbox should try to fetch now, oldest first. */
export function dueTemplateWaits(db: Database, now: number, limit: number): OrderIntent[] {
  return db
    .prepare<[number, number], IntentRow>(
      `SELECT * FROM order_intents WHERE status = 'needs_template' AND coalesce(next_attempt_at, 0) <= ?
       ORDER BY next_attempt_at, created_at LIMIT ?`,
    )
    .all(now, limit)
    .map(toIntent);
}

/**
 * needs_template → queued: its template came and the units and entries the buyer confirmed are valid
 * under it. The revision is the template's; the price the buyer confirmed still caps the send (the
 * guard runs before it, as for every queued intent).
 */
export function fillTemplate(db: Database, clientOrderRef: string, content: { purchaseSchemaRevision: number; purchaseEntries: Record<string, string>[]; optionLabels: OptionLabels[]; productType: string }, now: number): boolean {
  return (
    db
      .prepare(
        `UPDATE order_intents SET status = 'queued', purchase_schema_revision = ?, purchase_entries_json = ?, product_type = ?,
           next_attempt_at = ?, last_error_code = NULL, last_error_message = NULL, updated_at = ?
         WHERE client_order_ref = ? AND status = 'needs_template'`,
      )
      .run(content.purchaseSchemaRevision, storedEntriesJson(content.purchaseEntries, content.optionLabels), content.productType, now, now, clientOrderRef)
      .changes === 1
  );
}

/**
 * needs_template → needs_confirmation: the template came but what the buyer could give offline does not
 * fit it (a top-up's fields, units outside unitRule). The buyer confirms with the template's form.
 */
export function templateNeedsBuyer(db: Database, clientOrderRef: string, note: AttemptNote, productType: string, now: number): boolean {
  return (
    db
      .prepare(
        `UPDATE order_intents SET status = 'needs_confirmation', product_type = ?, next_attempt_at = NULL, last_error_code = ?, last_error_message = ?, updated_at = ?
         WHERE client_order_ref = ? AND status = 'needs_template'`,
      )
      .run(productType, note.code, note.message, now, clientOrderRef).changes === 1
  );
}

/** needs_template stays: the template could not be fetched now; tried again at `nextAttemptAt`. */
export function deferTemplateWait(db: Database, clientOrderRef: string, note: AttemptNote, nextAttemptAt: number, now: number): boolean {
  return (
    db
      .prepare(
        `UPDATE order_intents SET next_attempt_at = ?, last_error_code = ?, last_error_message = ?, last_request_id = coalesce(?, last_request_id), updated_at = ?
         WHERE client_order_ref = ? AND status = 'needs_template'`,
      )
      .run(nextAttemptAt, note.code, note.message, note.requestId, now, clientOrderRef).changes === 1
  );
}
