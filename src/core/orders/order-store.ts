// Named operations on `orders` and `refunds` (0002), and the one place that applies an order object
// received from the merchant: the order row, its refunds and its cards, in one transaction.
//
// Why it looks like this:
// - A detail older than what is stored (lower revision) changes nothing: an order never moves back.
//   Cards are immutable, so even such a detail may still fill in a card that is missing.
// - Refunds are recorded only from `GET /orders/{ref}` (source 'orderDetail'): the authenticated
//   re-check of interface v1 §6.4.9. The create and action responses update the order itself but never the
//   refunds table, and nothing else (a webhook body, a hint) reaches this code at all.
// - The card secrets are registered with the logger before anything about the order can be logged,
//   and leave this module only sealed; detail_json is stored without card_list (its CHECK insists).
import type { Database } from 'better-sqlite3';
import type { Order } from '../../shared/merchant/order';
import type { SecretAwareLogger } from '../logging/logger';
import type { CardCipher } from '../vault/card-cipher';
import { storeCards } from '../vault/card-store';

export type DetailSource = 'orderDetail' | 'createResponse' | 'actionResponse';

export interface StoredOrder {
  readonly clientOrderRef: string;
  readonly platformOrderRef: string;
  readonly productRef: number;
  readonly variantRef: number;
  readonly productType: string | null;
  readonly units: number;
  readonly unitPriceFen: number;
  readonly totalFen: number;
  readonly refundedFen: number;
  /** Raw: an unknown state stays as received (see classifyOrderState). */
  readonly state: string;
  readonly allowedActions: string[];
  readonly revision: number;
  readonly failureReason: string | null;
  readonly verificationHint: string | null;
  readonly updatedAt: number;
  readonly completedAt: number | null;
  readonly fetchedAt: number;
  readonly nextPollAt: number | null;
  readonly unchangedPolls: number;
}

export interface StoredRefund {
  readonly refundRef: string;
  readonly clientRefundRef: string | null;
  readonly clientOrderRef: string;
  readonly amountFen: number;
  readonly state: string;
  readonly reason: string | null;
  readonly merchantNote: string | null;
  readonly resolvedAt: number | null;
}

interface OrderRow {
  client_order_ref: string;
  platform_order_ref: string;
  product_ref: number;
  variant_ref: number;
  product_type: string | null;
  units: number;
  unit_price_fen: number;
  total_fen: number;
  refunded_fen: number;
  state: string;
  allowed_actions_json: string;
  revision: number;
  failure_reason: string | null;
  verification_hint: string | null;
  updated_at: number;
  completed_at: number | null;
  fetched_at: number;
  next_poll_at: number | null;
  unchanged_polls: number;
}

function toOrder(row: OrderRow): StoredOrder {
  return {
    clientOrderRef: row.client_order_ref,
    platformOrderRef: row.platform_order_ref,
    productRef: row.product_ref,
    variantRef: row.variant_ref,
    productType: row.product_type,
    units: row.units,
    unitPriceFen: row.unit_price_fen,
    totalFen: row.total_fen,
    refundedFen: row.refunded_fen,
    state: row.state,
    allowedActions: JSON.parse(row.allowed_actions_json) as string[],
    revision: row.revision,
    failureReason: row.failure_reason,
    verificationHint: row.verification_hint,
    updatedAt: row.updated_at,
    completedAt: row.completed_at,
    fetchedAt: row.fetched_at,
    nextPollAt: row.next_poll_at,
    unchangedPolls: row.unchanged_polls,
  };
}

export function getStoredOrder(db: Database, clientOrderRef: string): StoredOrder | null {
  const row = db.prepare<[string], OrderRow>('SELECT * FROM orders WHERE client_order_ref = ?').get(clientOrderRef);
  return row === undefined ? null : toOrder(row);
}

export function listStoredOrders(db: Database): StoredOrder[] {
  return db.prepare<[], OrderRow>('SELECT * FROM orders ORDER BY created_at, rowid').all().map(toOrder);
}

export function listRefunds(db: Database, clientOrderRef: string): StoredRefund[] {
  return db
    .prepare<[string], { refund_ref: string; client_refund_ref: string | null; client_order_ref: string; amount_fen: number; state: string; reason: string | null; merchant_note: string | null; resolved_at: number | null }>(
      'SELECT * FROM refunds WHERE client_order_ref = ? ORDER BY created_at, refund_ref',
    )
    .all(clientOrderRef)
    .map((row) => ({
      refundRef: row.refund_ref,
      clientRefundRef: row.client_refund_ref,
      clientOrderRef: row.client_order_ref,
      amountFen: row.amount_fen,
      state: row.state,
      reason: row.reason,
      merchantNote: row.merchant_note,
      resolvedAt: row.resolved_at,
    }));
}

/** Orders whose next poll is due, soonest first. */
export function ordersDueForPoll(db: Database, now: number, limit: number): StoredOrder[] {
  return db
    .prepare<[number, number], OrderRow>('SELECT * FROM orders WHERE next_poll_at IS NOT NULL AND next_poll_at <= ? ORDER BY next_poll_at LIMIT ?')
    .all(now, limit)
    .map(toOrder);
}

export function nextPollAt(db: Database): number | null {
  return db.prepare<[], { at: number | null }>('SELECT min(next_poll_at) AS at FROM orders').get()?.at ?? null;
}

/** Sets when to poll next (null: stop) and the count of polls that saw no change. */
export function schedulePoll(db: Database, clientOrderRef: string, nextAt: number | null, unchangedPolls: number, polledAt: number | null): void {
  db.prepare('UPDATE orders SET next_poll_at = ?, unchanged_polls = ?, last_polled_at = coalesce(?, last_polled_at) WHERE client_order_ref = ?').run(
    nextAt,
    unchangedPolls,
    polledAt,
    clientOrderRef,
  );
}

export interface ApplyResult {
  /** The order row was written (new, or a revision at least as new as the stored one). */
  readonly applied: boolean;
  /** The revision went up (or the order is new): the tracker resets its backoff. */
  readonly changed: boolean;
  readonly cardsStored: number;
}

export interface ApplyContext {
  readonly db: Database;
  readonly cipher: CardCipher;
  readonly logger: SecretAwareLogger;
  /** Unix seconds. */
  readonly now: number;
}

/**
 * Stores an authenticated order object. Runs in its own transaction unless already inside one
 * (better-sqlite3 nests as a savepoint), so callers can join it with their intent update.
 */
export function applyOrderDetail(ctx: ApplyContext, order: Order, source: DetailSource): ApplyResult {
  const { db, cipher, logger, now } = ctx;
  // Before anything else: from here on a card secret in any log line becomes ***.
  for (const card of order.card_list ?? []) {
    logger.registerSecret(card.card_no);
    logger.registerSecret(card.card_password);
  }
  const run = db.transaction((): ApplyResult => {
    const stored = db.prepare<[string], { revision: number }>('SELECT revision FROM orders WHERE client_order_ref = ?').get(order.clientOrderRef);
    const cardsStored = storeCards(db, cipher, order.clientOrderRef, order.card_list ?? [], source, now);
    if (stored !== undefined && order.revision < stored.revision) return { applied: false, changed: false, cardsStored };
    const changed = stored === undefined || order.revision > stored.revision;
    const detail: Record<string, unknown> = { ...order };
    delete detail.card_list;
    const values = {
      ref: order.clientOrderRef,
      platformRef: order.platformOrderRef,
      productRef: order.productRef,
      variantRef: order.variantRef,
      productName: order.productName,
      variantTitle: order.variantTitle,
      productType: order.productType,
      units: order.units,
      unitPrice: order.unitPrice,
      total: order.totalAmount,
      refunded: order.refundedAmount,
      state: order.state,
      actions: JSON.stringify(order.allowedActions),
      revision: order.revision,
      failureReason: order.failureReason,
      hint: order.verificationHint,
      entryCount: order.entryCount,
      callbackUrl: order.orderCallbackUrl,
      imageUrl: order.imageUrl,
      createdAt: order.createdAt,
      updatedAt: order.updatedAt,
      completedAt: order.completedAt,
      // Money in detail_json is fen, as everywhere inside the app.
      detail: JSON.stringify(detail),
      fetchedAt: now,
    };
    db.prepare(
      `INSERT INTO orders (client_order_ref, platform_order_ref, product_ref, variant_ref, product_name, variant_title, product_type, units,
         unit_price_fen, total_fen, refunded_fen, state, allowed_actions_json, revision, failure_reason, verification_hint, entry_count,
         order_callback_url, image_url, created_at, updated_at, completed_at, detail_json, fetched_at)
       VALUES (@ref, @platformRef, @productRef, @variantRef, @productName, @variantTitle, @productType, @units, @unitPrice, @total, @refunded,
         @state, @actions, @revision, @failureReason, @hint, @entryCount, @callbackUrl, @imageUrl, @createdAt, @updatedAt, @completedAt,
         @detail, @fetchedAt)
       ON CONFLICT (client_order_ref) DO UPDATE SET
         platform_order_ref = excluded.platform_order_ref, product_name = excluded.product_name, variant_title = excluded.variant_title,
         product_type = excluded.product_type, unit_price_fen = excluded.unit_price_fen, total_fen = excluded.total_fen,
         refunded_fen = excluded.refunded_fen, state = excluded.state, allowed_actions_json = excluded.allowed_actions_json,
         revision = excluded.revision, failure_reason = excluded.failure_reason, verification_hint = excluded.verification_hint,
         entry_count = excluded.entry_count, order_callback_url = excluded.order_callback_url, image_url = excluded.image_url,
         updated_at = excluded.updated_at, completed_at = excluded.completed_at, detail_json = excluded.detail_json,
         fetched_at = excluded.fetched_at`,
    ).run(values);
    recordStateChange(db, order, now);
    if (source === 'orderDetail') recordRefunds(db, order, now);
    return { applied: true, changed, cardsStored };
  });
  return run.immediate();
}

/** A new row only when the state differs from the last one recorded (0010): the states passed through. */
function recordStateChange(db: Database, order: Order, now: number): void {
  db.prepare(
    `INSERT OR IGNORE INTO order_state_history (client_order_ref, revision, state, at, seen_at)
     SELECT @ref, @revision, @state, @at, @now
     WHERE coalesce((SELECT state FROM order_state_history WHERE client_order_ref = @ref ORDER BY revision DESC LIMIT 1), '') <> @state`,
  ).run({ ref: order.clientOrderRef, revision: order.revision, state: order.state.slice(0, 64), at: order.updatedAt, now });
}

export interface StateStep {
  readonly state: string;
  readonly revision: number;
  /** The merchant's updatedAt of that revision. */
  readonly at: number;
}

/** The states an order was seen in, in the merchant's order (by revision). */
export function listStateHistory(db: Database, clientOrderRef: string): StateStep[] {
  return db
    .prepare<[string], StateStep>('SELECT state, revision, at FROM order_state_history WHERE client_order_ref = ? ORDER BY revision')
    .all(clientOrderRef);
}

function recordRefunds(db: Database, order: Order, now: number): void {
  const upsert = db.prepare(
    `INSERT INTO refunds (refund_ref, client_refund_ref, client_order_ref, amount_fen, state, reason, merchant_note, created_at, resolved_at, updated_at)
     VALUES (@refundRef, @clientRefundRef, @clientOrderRef, @amount, @state, @reason, @note, @createdAt, @resolvedAt, @now)
     ON CONFLICT (refund_ref) DO UPDATE SET state = excluded.state, merchant_note = excluded.merchant_note,
       resolved_at = excluded.resolved_at, amount_fen = excluded.amount_fen, updated_at = excluded.updated_at`,
  );
  for (const refund of order.refunds) {
    // amount 0 cannot be a refund (CHECK > 0); a merchant sending one is skipped, not crashed on.
    if (refund.amount <= 0) continue;
    upsert.run({
      refundRef: refund.refundRef,
      clientRefundRef: refund.clientRefundRef === '' ? null : refund.clientRefundRef,
      clientOrderRef: order.clientOrderRef,
      amount: refund.amount,
      state: refund.state,
      reason: refund.reason,
      note: refund.merchantNote,
      createdAt: refund.createdAt,
      resolvedAt: refund.resolvedAt,
      now,
    });
  }
}
