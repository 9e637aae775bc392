// Intents whose send outcome is not known are looked up by GET /orders/{clientOrderRef}, never sent
// under a new ref: found → accepted; 404002 → sent again with the same ref and content (or, when the
// buyer withdrew it, withdrawn and the ref retired); anything else → still unknown, asked again later.
import { MerchantAccessError, MerchantApiError, MerchantNotBeforeError } from '../merchant/merchant-errors';
import { getIntent, markUnknown, markWithdrawn } from './order-intent-store';
import type { BackoffRule } from '../../shared/backoff';
import { accept, inconclusive, keepRequestIds, parkRefused } from './outbox-answers';
import {
  bumpFailures,
  changed,
  isOwnFailure,
  later,
  noteOf,
  nowSeconds,
  reachedMerchant,
  secondsAtOrAfter,
  type GuardReads,
  type OutboxContext,
} from './outbox-context';
import { sendIntent } from './outbox-send';
import { MERCHANT_ERROR } from '../../shared/merchant-error-codes';

/** A look-up of an intent ends at the first 500, which counts against the intent's ceiling (contract §7.12). */
const COUNTED_LOOKUP = { attemptsOn500: 1 } as const;

/**
 * What a withdraw did: `withdrawn` (the merchant holds nothing and never will under this ref),
 * `checking` (the outcome of a send is not known yet; it is looked up, never sent again), or
 * `merchantHasOrder` (the merchant created it; the order is stored and tracked as usual).
 */
export type WithdrawOutcome = 'withdrawn' | 'checking' | 'merchantHasOrder';

/** A withdrawing intent whose look-up was refused (401/403): the loop is paused anyway; this bounds the retries. */
const BLOCKED_RETRY: BackoffRule = { baseMs: 60_000, maxMs: 30 * 60_000 };

/** A withdrawn intent whose send outcome was not known: GET decides; it is never sent again. */
export async function resolveWithdrawal(ctx: OutboxContext, ref: string): Promise<WithdrawOutcome> {
  const { db, logger } = ctx;
  try {
    const { data, requestId } = await ctx.client.getOrder(ref, ctx.signal(), COUNTED_LOOKUP);
    reachedMerchant(ctx);
    accept(ctx, ref, data, requestId, 'orderDetail');
    logger.info('a withdrawn order was found at the merchant; it is kept as an order', { clientOrderRef: ref, requestId });
    return 'merchantHasOrder';
  } catch (error) {
    if (error instanceof MerchantApiError && error.code === MERCHANT_ERROR.ORDER_NOT_FOUND) {
      reachedMerchant(ctx);
      ctx.failures.delete(ref);
      if (markWithdrawn(db, ref, nowSeconds(ctx), ['withdrawing'])) {
        logger.info('order withdrawn: the merchant has none under its ref, which is retired', { clientOrderRef: ref, requestId: error.requestId });
      }
      changed(ctx, ref);
      return getIntent(db, ref)?.status === 'accepted' ? 'merchantHasOrder' : 'withdrawn';
    }
    if (error instanceof MerchantApiError) reachedMerchant(ctx);
    if (error instanceof MerchantAccessError || error instanceof MerchantNotBeforeError) {
      // Never sent again anyway: it waits, withdrawing, for access (the loop is paused meanwhile) or the time named.
      keepRequestIds(ctx, ref, error);
      const at = error instanceof MerchantNotBeforeError ? secondsAtOrAfter(error.notBeforeMs) : later(ctx, BLOCKED_RETRY, bumpFailures(ctx, ref));
      markUnknown(db, ref, noteOf(error), at, nowSeconds(ctx));
      changed(ctx, ref);
      return 'checking';
    }
    inconclusive(ctx, ref, error);
    if (isOwnFailure(error)) throw error;
    return 'checking';
  }
}

/** An intent whose create may or may not have reached the merchant: GET decides. */
export async function resolveUnknown(ctx: OutboxContext, ref: string, reads: GuardReads): Promise<void> {
  const { db, logger } = ctx;
  try {
    const { data, requestId } = await ctx.client.getOrder(ref, ctx.signal(), COUNTED_LOOKUP);
    reachedMerchant(ctx);
    accept(ctx, ref, data, requestId, 'orderDetail');
  } catch (error) {
    if (error instanceof MerchantAccessError) {
      keepRequestIds(ctx, ref, error);
      parkRefused(ctx, ref, error, 'unknown');
      return;
    }
    if (error instanceof MerchantNotBeforeError) {
      keepRequestIds(ctx, ref, error);
      markUnknown(db, ref, noteOf(error), secondsAtOrAfter(error.notBeforeMs), nowSeconds(ctx));
      changed(ctx, ref);
      return;
    }
    if (error instanceof MerchantApiError && error.code === MERCHANT_ERROR.ORDER_NOT_FOUND) {
      reachedMerchant(ctx);
      keepRequestIds(ctx, ref, error);
      logger.info('order not found at the merchant; sending it again with the same ref', { clientOrderRef: ref, requestId: error.requestId });
      await sendIntent(ctx, ref, reads);
      return;
    }
    if (error instanceof MerchantApiError) reachedMerchant(ctx);
    inconclusive(ctx, ref, error);
    if (isOwnFailure(error)) throw error;
  }
}
