// The outbox's side of the ceiling on the merchant's 500 answers (interface v1 §7.5 "limited number of
// times", contract §7.12): a create or a look-up of an intent that ends in a 500-class answer counts
// once against the intent (the sender does not retry it: merchant-client.ts asks 1 attempt), and at
// MAX_SERVER_FAILURES the intent waits for the buyer with every requestId it got. 429, 503, timeouts
// and lost answers are not counted: they have their own rules (Retry-After, look-ups with backoff).
import { isServerFailure, MAX_SERVER_FAILURES } from '../merchant/retry-policy';
import { changed, noteOf, nowSeconds, type OutboxContext } from './outbox-context';
import { countServerFailure } from './server-failure-store';

/** Counts `error` when it is a 500-class answer; true when the intent reached the ceiling and now waits for the buyer. */
export function reachedServerFailureCeiling(ctx: OutboxContext, ref: string, error: unknown): boolean {
  if (!isServerFailure(error)) return false;
  const note = noteOf(error);
  const counted = countServerFailure(ctx.db, ref, MAX_SERVER_FAILURES, note, nowSeconds(ctx));
  if (counted === null || !counted.parked) return false;
  ctx.failures.delete(ref);
  ctx.logger.warn('the merchant failed this order too often; nothing more is sent until the buyer retries', {
    clientOrderRef: ref,
    serverFailures: counted.count,
    requestId: note.requestId,
  });
  changed(ctx, ref);
  return true;
}
