// Sending one intent: the live callback URL adopted, the price guard passed, the intent claimed as
// 'sending' (durably, before the request), then POST /orders/create with the stored ref and content.
import type { MerchantClient } from '../merchant/merchant-client';
import { adoptCallbackUrl, claimForSending, getIntent } from './order-intent-store';
import { accept, createFailed, inconclusive } from './outbox-answers';
import { changed, isOwnFailure, nowSeconds, reachedMerchant, type GuardReads, type OutboxContext } from './outbox-context';
import { createBodyOf } from './create-body';
import { guard } from './outbox-guard';

export async function sendIntent(ctx: OutboxContext, ref: string, reads: GuardReads): Promise<void> {
  const { db } = ctx;
  const live = ctx.liveCallbackUrl?.() ?? null;
  if (live !== null) adoptCallbackUrl(db, ref, live, nowSeconds(ctx));
  const waiting = getIntent(db, ref);
  if (waiting === null || (waiting.status !== 'queued' && waiting.status !== 'unknown')) return;
  if (!(await guard(ctx, waiting, reads))) return;
  if (!claimForSending(db, ref, nowSeconds(ctx))) return;
  changed(ctx, ref);
  const intent = getIntent(db, ref);
  if (intent === null) return;
  let result: Awaited<ReturnType<MerchantClient['createOrder']>>;
  try {
    result = await ctx.client.createOrder(createBodyOf(intent), ctx.signal());
  } catch (error) {
    await createFailed(ctx, intent, error);
    return;
  }
  reachedMerchant(ctx);
  try {
    accept(ctx, ref, result.data, result.requestId, 'createResponse');
  } catch (error) {
    // The merchant has the order but we could not store it: GET will find it again.
    inconclusive(ctx, ref, error);
    if (isOwnFailure(error)) throw error;
  }
}
