// The buyer gives an order intent up (contract §7.8). Queued or parked: withdrawn at once. Unknown:
// moved to withdrawing (never sent again) and looked up now. Sending: marked, and the answer in flight
// decides. Never a second order, never a click ignored: the outcome says which case applied.
import { IntentStateError } from './order-errors';
import { getIntent, markWithdrawing, markWithdrawn, requestWithdrawal, withdrawAccessParked } from './order-intent-store';
import { changed, nowSeconds, type OutboxContext } from './outbox-context';
import { resolveWithdrawal, type WithdrawOutcome } from './outbox-lookups';
import { withdrawServerFailing } from './server-failure-store';

export async function withdrawIntent(ctx: OutboxContext, clientOrderRef: string): Promise<WithdrawOutcome> {
  const { db, logger } = ctx;
  // A status can move under us (the outbox claims, answers arrive): every step is a guarded
  // UPDATE, and a lost race just reads the new status again.
  for (let round = 0; round < 5; round++) {
    const intent = getIntent(db, clientOrderRef);
    if (intent === null) throw new IntentStateError(`no order intent ${clientOrderRef}`);
    const now = nowSeconds(ctx);
    switch (intent.status) {
      case 'withdrawn':
        return 'withdrawn';
      case 'accepted':
        return 'merchantHasOrder';
      case 'rejected':
        throw new IntentStateError(`order intent ${clientOrderRef} was refused by the merchant; there is nothing to withdraw`);
      case 'sending':
        if (!requestWithdrawal(db, clientOrderRef, now)) continue;
        logger.info('withdraw requested while the order is being sent; its answer decides', { clientOrderRef });
        changed(ctx, clientOrderRef);
        return 'checking';
      case 'unknown':
        if (!markWithdrawing(db, clientOrderRef, now)) continue;
        changed(ctx, clientOrderRef);
        return resolveWithdrawal(ctx, clientOrderRef);
      case 'withdrawing':
        return resolveWithdrawal(ctx, clientOrderRef);
      case 'merchant_failing':
        // A create that met a 500 may have been taken: looked up (the buyer asked for it), never sent again.
        if (!withdrawServerFailing(db, clientOrderRef, now)) continue;
        changed(ctx, clientOrderRef);
        return resolveWithdrawal(ctx, clientOrderRef);
      case 'needs_key':
      case 'account_suspended':
      case 'access_denied': {
        const moved = withdrawAccessParked(db, clientOrderRef, now);
        if (moved === null) continue;
        ctx.failures.delete(clientOrderRef);
        changed(ctx, clientOrderRef);
        if (moved === 'withdrawn') {
          logger.info('order withdrawn before the merchant saw it', { clientOrderRef, from: intent.status });
          return 'withdrawn';
        }
        // It may exist at the merchant: looked up now, and again once access works.
        return resolveWithdrawal(ctx, clientOrderRef);
      }
      default:
        if (!markWithdrawn(db, clientOrderRef, now)) continue;
        ctx.failures.delete(clientOrderRef);
        logger.info('order withdrawn before the merchant saw it', { clientOrderRef, from: intent.status });
        changed(ctx, clientOrderRef);
        return 'withdrawn';
    }
  }
  throw new IntentStateError(`order intent ${clientOrderRef} kept changing while it was being withdrawn; try again`);
}
