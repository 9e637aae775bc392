// The price guard's step in the outbox (contract §7.7): right before an intent is sent, its product is
// read by GET /goods/{productRef} (once per product per pass, applied to the catalog cache like any
// authenticated snapshot). A higher price parks it as price_changed, a product or variant that cannot
// supply parks it as unavailable, and a failed read leaves it waiting as the failure says.
import type { ProductDetail } from '../../shared/merchant/catalog';
import { MerchantAccessError, MerchantApiError, MerchantError, MerchantNotBeforeError, MerchantTransportError } from '../merchant/merchant-errors';
import { backoffMs } from '../../shared/backoff';
import { deferIntent, parkPriceChanged, parkSchemaChanged, parkUnavailable, type OrderIntent, type ParkedFrom } from './order-intent-store';
import { keepRequestIds, parkRefused, refreshTemplate } from './outbox-answers';
import {
  bumpFailures,
  changed,
  later,
  noteOf,
  nowSeconds,
  reachedMerchant,
  secondsAtOrAfter,
  wentOffline,
  type GuardReads,
  type OutboxContext,
} from './outbox-context';
import { judgeGuard } from './price-guard';
import { MERCHANT_ERROR } from '../../shared/merchant-error-codes';

/** The guard's read failed: nothing was sent; the intent waits as the failure says. */
function guardReadFailed(ctx: OutboxContext, ref: string, from: ParkedFrom, error: unknown): void {
  const { db, logger } = ctx;
  // The read was made to send this intent: its requestIds are the intent's too (for support).
  keepRequestIds(ctx, ref, error);
  if (error instanceof MerchantAccessError) {
    parkRefused(ctx, ref, error, from);
    return;
  }
  const note = noteOf(error);
  if (error instanceof MerchantNotBeforeError) {
    deferIntent(db, ref, note, secondsAtOrAfter(error.notBeforeMs), nowSeconds(ctx));
    logger.warn('the merchant asked to wait before the product can be read; the order waits until then', { clientOrderRef: ref, notBefore: new Date(error.notBeforeMs).toISOString() });
    changed(ctx, ref);
    return;
  }
  let nextAt = later(ctx, ctx.retryRule, bumpFailures(ctx, ref));
  if (error instanceof MerchantApiError) {
    reachedMerchant(ctx);
    if (error.httpStatus === 429) nextAt = Math.ceil((ctx.clock.nowMs() + Math.max(error.retryAfterMs ?? 0, backoffMs(ctx.retryRule, ctx.failures.get(ref) ?? 1))) / 1000);
  } else if (error instanceof MerchantTransportError) {
    wentOffline(ctx);
  }
  deferIntent(db, ref, note, nextAt, nowSeconds(ctx));
  logger.warn('the product could not be read before sending; the order waits', { clientOrderRef: ref, code: note.code, requestId: note.requestId });
  changed(ctx, ref);
}

function readProduct(ctx: OutboxContext, productRef: number, reads: GuardReads): Promise<ProductDetail> {
  let read = reads.get(productRef);
  if (read === undefined) {
    read = ctx.client.getProduct(productRef, ctx.signal()).then(({ data }) => {
      ctx.catalog.applyProductSnapshot({ from: 'detail', detail: data });
      return data;
    });
    // Every intent of the product awaits it; one failure is seen by each, never unhandled.
    read.catch(() => undefined);
    reads.set(productRef, read);
  }
  return read;
}

/** The detail shows a new template revision: the template is fetched (the stale one is never used) and the buyer asked again. */
async function schemaChanged(ctx: OutboxContext, intent: OrderIntent, revision: number): Promise<void> {
  const ref = intent.clientOrderRef;
  await refreshTemplate(ctx, intent);
  if (parkSchemaChanged(ctx.db, ref, nowSeconds(ctx))) {
    ctx.logger.info('order parked before sending: the purchase template changed; the buyer confirms again', { clientOrderRef: ref, from: intent.purchaseSchemaRevision, to: revision });
  }
  changed(ctx, ref);
}

/** True when the intent may be sent now; otherwise it was parked or deferred (or moved by someone else). */
export async function guard(ctx: OutboxContext, intent: OrderIntent, reads: GuardReads): Promise<boolean> {
  const { db, logger } = ctx;
  const ref = intent.clientOrderRef;
  let detail: ProductDetail;
  try {
    detail = await readProduct(ctx, intent.productRef, reads);
  } catch (error) {
    if (error instanceof MerchantApiError && error.code === MERCHANT_ERROR.RESOURCE_NOT_VISIBLE) {
      reachedMerchant(ctx);
      if (parkUnavailable(db, ref, 'variantGone', nowSeconds(ctx))) logger.info('order parked: the product is no longer visible', { clientOrderRef: ref, requestId: error.requestId });
      changed(ctx, ref);
      return false;
    }
    guardReadFailed(ctx, ref, intent.status === 'unknown' ? 'unknown' : 'queued', error);
    if (!(error instanceof MerchantError)) throw error;
    return false;
  }
  reachedMerchant(ctx);
  const verdict = judgeGuard(detail, intent);
  if (verdict.kind === 'send') return true;
  ctx.failures.delete(ref);
  if (verdict.kind === 'schemaChanged') {
    await schemaChanged(ctx, intent, verdict.purchaseSchemaRevision);
    return false;
  }
  if (verdict.kind === 'priceChanged') {
    if (parkPriceChanged(db, ref, verdict.unitPriceFen, nowSeconds(ctx))) {
      logger.info('order parked: the price rose above the confirmed one', { clientOrderRef: ref, confirmedUnitPriceFen: intent.confirmedUnitPriceFen, unitPriceFen: verdict.unitPriceFen });
    }
  } else if (parkUnavailable(db, ref, verdict.reason, nowSeconds(ctx))) {
    logger.info('order parked: the merchant cannot supply it now', { clientOrderRef: ref, reason: verdict.reason });
  }
  changed(ctx, ref);
  return false;
}
