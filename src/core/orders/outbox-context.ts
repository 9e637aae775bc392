// What every step of the order outbox shares (order-outbox.ts composes them): its dependencies, the
// per-intent failure counts that space out retries, the outage pause, and how a failure is noted on
// an intent. One object, so the steps (outbox-answers, outbox-guard, outbox-lookups, outbox-withdraw)
// can live in files of their own and still change the same state.
import type { Database } from 'better-sqlite3';
import type { ProductDetail } from '../../shared/merchant/catalog';
import type { CatalogRepository } from '../catalog/catalog-repository';
import type { SecretAwareLogger } from '../logging/logger';
import type { MerchantClient } from '../merchant/merchant-client';
import { MerchantApiError, MerchantError, MerchantNotBeforeError, MerchantTransportError, type AccessRefusal } from '../merchant/merchant-errors';
import type { Clock } from '../platform/clock';
import type { CardCipher } from '../vault/card-cipher';
import type { Order } from '../../shared/merchant/order';
import { backoffMs, type BackoffRule } from '../../shared/backoff';
import type { AccessParkStatus, AttemptNote } from './order-intent-store';
import type { TemplateSource } from './template-source';


/** Product details read by the guard in one pass: one GET per product however many intents it has. */
export type GuardReads = Map<number, Promise<ProductDetail>>;

export interface OutboxContext {
  readonly db: Database;
  readonly client: MerchantClient;
  readonly clock: Clock;
  readonly logger: SecretAwareLogger;
  readonly cipher: CardCipher;
  /** The guard's product reads are applied here, as sync and webhooks apply theirs. */
  readonly catalog: Pick<CatalogRepository, 'applyProductSnapshot'>;
  /** Templates for needs_template intents and after 409101 (the one template source, template-source.ts). */
  readonly templates: TemplateSource;
  /** Between attempts of one intent (unknown outcome, requeue). */
  readonly retryRule: BackoffRule;
  /** While the merchant is unreachable. */
  readonly offlineRule: BackoffRule;
  /** Consecutive inconclusive attempts per intent, for its backoff (reset when it resolves). */
  readonly failures: Map<string, number>;
  /** The outage pause: a transport failure stops every send until `pausedUntilMs` (core clock). */
  readonly offline: { failures: number; pausedUntilMs: number };
  /** The running pass's abort signal (stop() aborts it), if a pass runs. */
  signal(): AbortSignal | undefined;
  /** The webhook callback URL live now (null: none); taken by an intent placed without one, at its first send. */
  readonly liveCallbackUrl?: () => string | null;
  /** Called after an intent was accepted and its order stored (the tracker starts polling it). */
  readonly onAccepted?: (order: Order) => void;
  /** Called after any status change, for the UI. */
  readonly onChange?: (clientOrderRef: string) => void;
}

export const nowSeconds = (ctx: OutboxContext): number => Math.floor(ctx.clock.nowMs() / 1000);

/** Unix seconds `rule`'s n-th backoff from now. */
export const later = (ctx: OutboxContext, rule: BackoffRule, n: number): number => Math.ceil((ctx.clock.nowMs() + backoffMs(rule, n)) / 1000);

/** Counts one more inconclusive attempt of the intent; returns the count. */
export function bumpFailures(ctx: OutboxContext, ref: string): number {
  const n = (ctx.failures.get(ref) ?? 0) + 1;
  ctx.failures.set(ref, n);
  return n;
}

export const changed = (ctx: OutboxContext, ref: string): void => ctx.onChange?.(ref);

/** The merchant is away: every send waits out a growing pause. */
export function wentOffline(ctx: OutboxContext): void {
  ctx.offline.failures += 1;
  ctx.offline.pausedUntilMs = ctx.clock.nowMs() + backoffMs(ctx.offlineRule, ctx.offline.failures);
}

/** Any answer from the merchant: the outage (if there was one) is over. */
export function reachedMerchant(ctx: OutboxContext): void {
  ctx.offline.failures = 0;
  ctx.offline.pausedUntilMs = 0;
}

export const isPausedOffline = (ctx: OutboxContext): boolean => ctx.clock.nowMs() < ctx.offline.pausedUntilMs;

/** Unix seconds at or after a not-before time (ms). */
export const secondsAtOrAfter = (ms: number): number => Math.ceil(ms / 1000);

/** Which park a refusal means: each asks the buyer for a different remedy. */
export function accessParkOf(refusal: AccessRefusal): AccessParkStatus {
  if (refusal === 'keyInvalid') return 'needs_key';
  if (refusal === 'suspended') return 'account_suspended';
  return 'access_denied';
}

/** What the intent's row keeps of a failed attempt: a code, a message without secrets, the requestId. */
export function noteOf(error: unknown): AttemptNote {
  if (error instanceof MerchantNotBeforeError) return { code: 'NOT_BEFORE', message: `the merchant asked to wait until ${new Date(error.notBeforeMs).toISOString()} (${error.scope})`, requestId: error.requestId };
  if (error instanceof MerchantApiError) return { code: String(error.code), message: error.errorName, requestId: error.requestId };
  if (error instanceof MerchantTransportError) return { code: error.failure === 'timeout' ? 'TIMEOUT' : 'TRANSPORT', message: error.failure, requestId: error.requestId };
  if (error instanceof MerchantError) return { code: 'PROTOCOL', message: 'malformed merchant response', requestId: error.requestId };
  return { code: 'LOCAL', message: error instanceof Error ? error.name : 'unexpected failure', requestId: null };
}

/** The merchant answered for another order than the one asked about. */
export class MerchantProtocolMismatch extends Error {
  override readonly name = 'MerchantProtocolMismatch';
  constructor(ref: string) {
    super(`the merchant answered with another order than ${ref}`);
  }
}

/** A failure that is not the merchant's (a bug, a full disk): noted on the intent, then thrown on. */
export const isOwnFailure = (error: unknown): boolean => !(error instanceof MerchantError) && !(error instanceof MerchantProtocolMismatch);
