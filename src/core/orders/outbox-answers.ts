// What the merchant's answer to a create (or a look-up) does to an order intent: accepted with its
// order stored, parked for the buyer, queued again, unknown (looked up later), or rejected. The table
// of outcomes is at the top of order-outbox.ts.
import type { Order } from '../../shared/merchant/order';
import { MerchantAccessError, MerchantApiError, MerchantError, MerchantNotBeforeError, MerchantTransportError } from '../merchant/merchant-errors';
import { backoffMs } from '../../shared/backoff';
import {
  addRequestIds,
  getIntent,
  markAccepted,
  markNeedsConfirmation,
  markRejected,
  markRequeued,
  markUnknown,
  parkForAccess,
  type OrderIntent,
  type ParkedFrom,
} from './order-intent-store';
import { applyOrderDetail } from './order-store';
import { recordLearnedPrice } from '../catalog/learned-price';
import {
  MerchantProtocolMismatch,
  accessParkOf,
  bumpFailures,
  changed,
  later,
  noteOf,
  nowSeconds,
  reachedMerchant,
  secondsAtOrAfter,
  wentOffline,
  type OutboxContext,
} from './outbox-context';
import { sealRechargedEntries } from './recharged-entries';
import { reachedServerFailureCeiling } from './outbox-server-failures';
import { MERCHANT_ERROR } from '../../shared/merchant-error-codes';

/** The merchant has the order: stored (cards sealed) in the same transaction as the intent's status. */
export function accept(ctx: OutboxContext, ref: string, order: Order, requestId: string, source: 'createResponse' | 'orderDetail'): void {
  const { db, cipher, logger } = ctx;
  if (order.clientOrderRef !== ref) throw new MerchantProtocolMismatch(ref);
  const now = nowSeconds(ctx);
  let confirmedUnitPriceFen: number | null = null;
  db.transaction(() => {
    const intent = getIntent(db, ref);
    confirmedUnitPriceFen = intent?.confirmedUnitPriceFen ?? null;
    applyOrderDetail({ db, cipher, logger, now }, order, source);
    // The price the merchant charged is a price it asked now: into the variant's history with the rest.
    recordLearnedPrice(db, { productRef: order.productRef, variantRef: order.variantRef, priceFen: order.unitPrice, statedAtS: source === 'createResponse' ? null : order.createdAt }, now);
    addRequestIds(db, ref, [requestId]);
    markAccepted(db, ref, requestId, now, sealRechargedEntries(cipher, ref, intent?.purchaseEntries ?? null, intent?.optionLabels ?? null));
  }).immediate();
  ctx.failures.delete(ref);
  logger.info('order accepted', { clientOrderRef: ref, platformOrderRef: order.platformOrderRef, state: order.state, requestId });
  // The price rose between the guard's read and the create: the interface cannot refuse it, so it
  // is said loudly and both prices stay on the order's detail.
  if (confirmedUnitPriceFen !== null && order.unitPrice > confirmedUnitPriceFen) {
    logger.warn('the merchant charged a higher unit price than the buyer confirmed', {
      clientOrderRef: ref,
      platformOrderRef: order.platformOrderRef,
      confirmedUnitPriceFen,
      chargedUnitPriceFen: order.unitPrice,
      requestId,
    });
  }
  changed(ctx, ref);
  ctx.onAccepted?.(order);
}

/** Every attempt's requestId is kept on the intent for support (interface v1 §7.5 "keep requestId"). */
export function keepRequestIds(ctx: OutboxContext, ref: string, error: unknown): void {
  if (error instanceof MerchantError) addRequestIds(ctx.db, ref, error.requestIds);
}

/**
 * The merchant refused our access (401/403, never retried): the intent is parked, kept, until access
 * works again. `from`: where it goes back to.
 */
export function parkRefused(ctx: OutboxContext, ref: string, error: MerchantAccessError, from: ParkedFrom): void {
  const status = accessParkOf(error.refusal);
  ctx.failures.delete(ref);
  if (parkForAccess(ctx.db, ref, status, from, noteOf(error), nowSeconds(ctx))) {
    ctx.logger.warn('the merchant refused access; the order is kept and waits until access works again', { clientOrderRef: ref, status, code: error.code, requestId: error.requestId });
  }
  changed(ctx, ref);
}

/**
 * The merchant may or may not have the order: unknown, looked up by its ref after a backoff; a 500 that
 * reaches the intent's ceiling leaves it waiting for the buyer instead (contract §7.12).
 */
export function inconclusive(ctx: OutboxContext, ref: string, error: unknown): void {
  keepRequestIds(ctx, ref, error);
  if (reachedServerFailureCeiling(ctx, ref, error)) return;
  const note = noteOf(error);
  markUnknown(ctx.db, ref, note, later(ctx, ctx.retryRule, bumpFailures(ctx, ref)), nowSeconds(ctx));
  if (error instanceof MerchantTransportError) wentOffline(ctx);
  ctx.logger.warn('order outcome unknown; it will be looked up by its ref', { clientOrderRef: ref, code: note.code, requestId: note.requestId });
  changed(ctx, ref);
}

/** The template fetched again, once, through the one template source; a failure leaves the form to fetch it. */
export async function refreshTemplate(ctx: OutboxContext, intent: OrderIntent): Promise<void> {
  try {
    // Once, through the one template source: the buyer confirms with the form it gives.
    await ctx.templates.refetch(intent.productRef, intent.variantRef, ctx.signal());
  } catch (error) {
    // The intent still waits for the buyer; the form fetches the template again when opened.
    ctx.logger.warn('template refresh after PURCHASE_SCHEMA_CHANGED failed', { clientOrderRef: intent.clientOrderRef, error: error instanceof Error ? error.message : 'unknown' });
  }
}

/** A create that threw: what the failure says about the order decides where the intent goes. */
export async function createFailed(ctx: OutboxContext, intent: OrderIntent, error: unknown): Promise<void> {
  const { db, logger } = ctx;
  const ref = intent.clientOrderRef;
  const note = noteOf(error);
  const now = nowSeconds(ctx);
  keepRequestIds(ctx, ref, error);
  // A refusal or a wait says the last attempt created nothing; an earlier one of the call may have.
  const from: ParkedFrom = error instanceof MerchantError && error.earlierAttemptUncertain ? 'unknown' : 'queued';
  if (error instanceof MerchantNotBeforeError) {
    const at = secondsAtOrAfter(error.notBeforeMs);
    if (from === 'queued') markRequeued(db, ref, note, at, now);
    else markUnknown(db, ref, note, at, now);
    logger.warn('the merchant asked to wait; the order is kept and sent from the time named', { clientOrderRef: ref, notBefore: new Date(error.notBeforeMs).toISOString(), scope: error.scope, requestId: error.requestId });
    changed(ctx, ref);
    return;
  }
  if (error instanceof MerchantAccessError) {
    parkRefused(ctx, ref, error, from);
    return;
  }
  if (error instanceof MerchantTransportError && error.neverReached) {
    markRequeued(db, ref, note, later(ctx, ctx.retryRule, bumpFailures(ctx, ref)), now);
    wentOffline(ctx);
    logger.warn('the merchant could not be reached and received nothing; the order stays queued', { clientOrderRef: ref, code: note.code });
    changed(ctx, ref);
    return;
  }
  if (!(error instanceof MerchantApiError)) {
    inconclusive(ctx, ref, error);
    if (!(error instanceof MerchantError)) logger.error('unexpected failure while sending an order', { clientOrderRef: ref, error: error instanceof Error ? error.name : 'unknown' });
    return;
  }
  reachedMerchant(ctx);
  if (error.code === MERCHANT_ERROR.PURCHASE_SCHEMA_CHANGED) {
    await refreshTemplate(ctx, intent);
    markNeedsConfirmation(db, ref, note, nowSeconds(ctx));
    logger.warn('the purchase template changed; the order waits for the buyer to confirm', { clientOrderRef: ref, requestId: error.requestId });
  } else if (error.code === MERCHANT_ERROR.IDEMPOTENCY_CONFLICT) {
    markRejected(db, ref, note, now, true);
    logger.error('IDEMPOTENCY CONFLICT: the merchant holds different content under this clientOrderRef; stopped, needs a person', {
      clientOrderRef: ref,
      requestId: error.requestId,
    });
  } else if (error.httpStatus === 429) {
    const wait = Math.max(error.retryAfterMs ?? 0, backoffMs(ctx.retryRule, bumpFailures(ctx, ref)));
    markRequeued(db, ref, note, Math.ceil((ctx.clock.nowMs() + wait) / 1000), now);
  } else if (error.httpStatus >= 500) {
    inconclusive(ctx, ref, error);
    return;
  } else {
    markRejected(db, ref, note, now, false);
    ctx.failures.delete(ref);
    logger.info('order rejected by the merchant', { clientOrderRef: ref, code: error.code, requestId: error.requestId });
  }
  changed(ctx, ref);
}
