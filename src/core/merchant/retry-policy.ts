// The retry matrix of interface v1 §7.5 in one place: which failures are retried, how often, and how long to
// wait (growing, jittered, never earlier than Retry-After).
import { backoffMs } from '../../shared/backoff';
import type { MerchantError } from './merchant-errors';
import { MerchantApiError, MerchantProtocolError, MerchantTransportError } from './merchant-errors';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Attempts in all for a 500 (interface v1 §7.5: a limited number of times). */
  maxAttemptsOn500: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/**
 * The one ceiling on 500 answers (interface v1 §7.5 "limited number of times", contract §7.12): the
 * attempts one call takes, and the 500 answers one order intent takes over its whole life (its creates
 * and look-ups together, counted in order_intents.server_failures, 0022) before it waits for the buyer.
 */
export const MAX_SERVER_FAILURES = 3;

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 6, maxAttemptsOn500: MAX_SERVER_FAILURES, baseDelayMs: 500, maxDelayMs: 30_000 };

/**
 * A failure of the merchant's server that §7.5 retries "a limited number of times": any 5xx answer
 * (the envelope's 500001, or a gateway's page) except 503, which has its own rule (wait, Retry-After).
 */
export function isServerFailure(error: unknown): boolean {
  if (!(error instanceof MerchantApiError) && !(error instanceof MerchantProtocolError)) return false;
  return error.httpStatus >= 500 && error.httpStatus !== 503;
}

/**
 * Whether the request may be sent again after this failure. A retry always reuses the same client
 * reference and the same body; a request that is not safe to repeat (a verification code) is never
 * retried after a transport failure, since the merchant may have taken it.
 */
export function shouldRetry(error: MerchantError, attempt: number, policy: RetryPolicy, repeatable: boolean): boolean {
  if (attempt >= policy.maxAttempts) return false;
  if (error instanceof MerchantTransportError) return repeatable && error.failure !== 'insecure' && error.failure !== 'tls';
  if (error instanceof MerchantApiError) {
    if (error.httpStatus === 429 || error.httpStatus === 503) return true;
    if (error.httpStatus >= 500) return repeatable && attempt < policy.maxAttemptsOn500;
    return false;
  }
  if (error instanceof MerchantProtocolError) {
    // A gateway's HTML page on 502/503/504 is the merchant being away, not a broken interface.
    // A gateway's 429 page still means "slow down" (interface v1 §7.5 retries every 429).
    if (error.httpStatus === 429) return true;
    return repeatable && error.httpStatus >= 502 && error.httpStatus <= 504 && attempt < policy.maxAttemptsOn500;
  }
  return false;
}

/** The app's one backoff (shared/backoff.ts) after `attempt` attempts, and never less than what the merchant asked for. */
export function retryDelayMs(error: MerchantError, attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const jittered = backoffMs({ baseMs: policy.baseDelayMs, maxMs: policy.maxDelayMs }, attempt, random);
  const floor = error instanceof MerchantApiError && error.retryAfterMs !== null ? error.retryAfterMs : 0;
  return Math.max(jittered, floor);
}
