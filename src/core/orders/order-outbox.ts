// The outbox worker: sends recorded order intents to the merchant exactly once.
//
// For each due intent:
//   queued   → mark 'sending' (durably, before the request) → POST /orders/create with the stored
//              ref and content.
//   unknown  → GET /orders/{ref} first: found → accepted; 404002 → send again, same ref and content;
//              anything else → stay unknown, try later with backoff.
// Outcomes of a create:
//   order returned                → accepted; the order (and any cards, sealed) stored in the same
//                                    transaction as the intent's status.
//   409101 PURCHASE_SCHEMA_CHANGED → template refreshed, needs_confirmation: the buyer decides, the
//                                    outbox never resubmits other content by itself.
//   409001 IDEMPOTENCY_CONFLICT   → rejected and flagged loudly (a bug or a foreign ref): never a new ref.
//   429 (rate limiter refused)    → queued again: the limiter runs before the order rules, so nothing
//                                    was created.
//   a wait beyond the call's limit → (MerchantNotBeforeError: a long Retry-After, or a hold stored by any
//                                    process) queued again with next_attempt_at = the time named; the
//                                    loop sleeps through it (its pause covers orderCreate and orderRead).
//   401/403 (access refused)      → parked, never retried (spec 7.5): needs_key (401001),
//                                    account_suspended (403005), access_denied (403002 or another 403).
//                                    Kept with the status it returns to (queued, or unknown when an
//                                    earlier attempt of the call may have created it); back by itself
//                                    once a key is accepted (keyAccepted, from connect) or GET /account
//                                    answers without `suspended` (accountAnswered). The same park when the
//                                    guard's product read or GET /orders/{ref} is refused.
//   5xx, transport, malformed     → unknown: the merchant may have created it; GET decides.
//   no connection ever made       → queued again (refused, no route): not one byte reached the
//                                    merchant on any attempt (node-https-port.ts, request-sender.ts),
//                                    so the intent stays withdrawable at once. A connection that
//                                    dropped after the request (the sandbox's dropRate) stays unknown.
//   other 4xx                     → rejected with the code and requestId.
// The price guard (price-guard.ts) runs right before a queued intent is sent (and before an unknown one
// the merchant answered 404002 for is sent again): GET /goods/{productRef}, once per product per pass,
// applied to the catalog cache like any authenticated snapshot; a higher price parks it as
// price_changed, a product or variant that cannot supply parks it as unavailable; a failed read
// leaves it queued (the merchant away pauses the outbox as a failed create does).
// Withdraw (withdraw()): queued or parked → withdrawn at once; unknown → withdrawing, resolved by GET
// (404002 → withdrawn and the ref retired, found → accepted); sending → the in-flight answer decides
// (order-intent-store.ts). A withdrawing intent is never sent again, only looked up.
// At start-up `recover()` turns every 'sending' row (a request may have left before a crash) into
// 'unknown'. A transport failure pauses the whole outbox for a while (the merchant is away), so
// offline intents wait, visible, instead of each hammering a dead address.
import type { Database } from 'better-sqlite3';
import type { ProductDetail } from '../../shared/merchant/catalog';
import type { Order } from '../../shared/merchant/order';
import type { CatalogRepository } from '../catalog/catalog-repository';
import type { SecretAwareLogger } from '../logging/logger';
import type { CreateOrderBody, MerchantClient } from '../merchant/merchant-client';
import { ACCESS_RECHECK_MS } from '../merchant/access-gate';
import { MerchantAccessError, MerchantApiError, MerchantError, MerchantNotBeforeError, MerchantTransportError, type AccessRefusal } from '../merchant/merchant-errors';
import type { Clock } from '../platform/clock';
import { createWorkerLoop, type WorkerPause } from '../platform/worker-loop';
import type { CardCipher } from '../vault/card-cipher';
import { backoffMs, type BackoffRule } from '../../shared/backoff';
import { IntentStateError } from './order-errors';
import {
  addRequestIds,
  adoptCallbackUrl,
  countAccessParks,
  parkForAccess,
  releaseAccessParks,
  withdrawAccessParked,
  type AccessParkStatus,
  type ParkedFrom,
  claimForSending,
  deferIntent,
  dueIntents,
  getIntent,
  markAccepted,
  markInterruptedSendsUnknown,
  markNeedsConfirmation,
  markRejected,
  markRequeued,
  markUnknown,
  markWithdrawing,
  markWithdrawn,
  nextDueAt,
  parkPriceChanged,
  parkUnavailable,
  requestWithdrawal,
  type AttemptNote,
  type OrderIntent,
} from './order-intent-store';
import { applyOrderDetail } from './order-store';
import { judgeGuard } from './price-guard';
import { sealRechargedEntries } from './recharged-entries';
import { storeTemplate } from './template-cache';
import { MERCHANT_ERROR } from '../../shared/merchant-error-codes';
import { runBounded } from '../platform/bounded-pool';

/**
 * What a withdraw did: `withdrawn` (the merchant holds nothing and never will under this ref),
 * `checking` (the outcome of a send is not known yet; it is looked up, never sent again), or
 * `merchantHasOrder` (the merchant created it; the order is stored and tracked as usual).
 */
export type WithdrawOutcome = 'withdrawn' | 'checking' | 'merchantHasOrder';

/** Product details read by the guard in one pass: one GET per product however many intents it has. */
type GuardReads = Map<number, Promise<ProductDetail>>;

export interface OrderOutboxOptions {
  readonly db: Database;
  readonly client: MerchantClient;
  readonly clock: Clock;
  readonly logger: SecretAwareLogger;
  readonly cipher: CardCipher;
  /** The guard's product reads are applied here, as sync and webhooks apply theirs. */
  readonly catalog: Pick<CatalogRepository, 'applyProductSnapshot'>;
  /** Intents worked on at the same time; the client's quota model paces the requests anyway. */
  readonly concurrency?: number;
  /** Between attempts of one intent (unknown outcome, requeue). */
  readonly retry?: BackoffRule;
  /** While the merchant is unreachable. */
  readonly offline?: BackoffRule;
  /** The webhook callback URL live now (null: none); taken by an intent placed without one, at its first send. */
  readonly liveCallbackUrl?: () => string | null;
  /** Called after an intent was accepted and its order stored (the tracker starts polling it). */
  readonly onAccepted?: (order: Order) => void;
  /** Called after any status change, for the UI. */
  readonly onChange?: (clientOrderRef: string) => void;
  /**
   * The merchant's refusals as a pause of the loop (MerchantServices.pauseFor(['orderCreate',
   * 'orderRead'])): no pass while the key is refused or a Retry-After holds a group the outbox uses.
   */
  readonly pause?: WorkerPause;
  /**
   * GET /account, asked at most every ACCESS_RECHECK_MS while intents wait in account_suspended or
   * access_denied and this process knows no refusal (say, after a restart); its answer reaches
   * accountAnswered() through the access gate.
   */
  readonly probeAccount?: () => Promise<unknown>;
  /**
   * The refusal this connection is under (AccessGate.refusal): while the loop is paused by it, intents
   * that fall due (an order placed meanwhile) are parked at once, without a request, so the buyer sees
   * what to do instead of an order that seems to be on its way.
   */
  readonly accessRefusal?: () => MerchantAccessError | null;
}

export interface OutboxPass {
  readonly worked: number;
  /** True when the pass stopped early because the merchant is unreachable. */
  readonly offline: boolean;
}

const DEFAULT_RETRY: BackoffRule = { baseMs: 2_000, maxMs: 5 * 60_000 };
const DEFAULT_OFFLINE: BackoffRule = { baseMs: 2_000, maxMs: 60_000 };
/** A withdrawing intent whose look-up was refused (401/403): the loop is paused anyway; this bounds the retries. */
const BLOCKED_RETRY: BackoffRule = { baseMs: 60_000, maxMs: 30 * 60_000 };

/** Which park a refusal means: each asks the buyer for a different remedy. */
export function accessParkOf(refusal: AccessRefusal): AccessParkStatus {
  if (refusal === 'keyInvalid') return 'needs_key';
  if (refusal === 'suspended') return 'account_suspended';
  return 'access_denied';
}

/** Parks released when GET /account answers without `suspended` (a denied address gets no answer at all). */
const ACCOUNT_PARKS: readonly AccessParkStatus[] = ['account_suspended', 'access_denied'];

/** Unix seconds at or after a not-before time (ms). */
const secondsAtOrAfter = (ms: number): number => Math.ceil(ms / 1000);

/** The create body, built only from the stored row: every resend is byte-for-byte the same request. */
export function createBodyOf(intent: OrderIntent): CreateOrderBody {
  const body: CreateOrderBody = { clientOrderRef: intent.clientOrderRef, productRef: intent.productRef, units: intent.units };
  if (intent.variantRef !== 0) body.variantRef = intent.variantRef;
  // Card products take neither (spec 4.2.2); top-ups must carry the revision they were validated with.
  if (intent.productType !== 'card') {
    if (intent.purchaseSchemaRevision !== null) body.purchaseSchemaRevision = intent.purchaseSchemaRevision;
    body.purchaseEntries = intent.purchaseEntries ?? [];
  }
  if (intent.orderCallbackUrl !== null) body.orderCallbackUrl = intent.orderCallbackUrl;
  if (intent.imageUrl !== null) body.imageUrl = intent.imageUrl;
  return body;
}

function noteOf(error: unknown): AttemptNote {
  if (error instanceof MerchantNotBeforeError) return { code: 'NOT_BEFORE', message: `the merchant asked to wait until ${new Date(error.notBeforeMs).toISOString()} (${error.scope})`, requestId: error.requestId };
  if (error instanceof MerchantApiError) return { code: String(error.code), message: error.errorName, requestId: error.requestId };
  if (error instanceof MerchantTransportError) return { code: error.failure === 'timeout' ? 'TIMEOUT' : 'TRANSPORT', message: error.failure, requestId: error.requestId };
  if (error instanceof MerchantError) return { code: 'PROTOCOL', message: 'malformed merchant response', requestId: error.requestId };
  return { code: 'LOCAL', message: error instanceof Error ? error.name : 'unexpected failure', requestId: null };
}

export function createOrderOutbox(options: OrderOutboxOptions) {
  const { db, client, clock, logger, cipher, catalog } = options;
  const concurrency = options.concurrency ?? 4;
  const retryRule = options.retry ?? DEFAULT_RETRY;
  const offlineRule = options.offline ?? DEFAULT_OFFLINE;
  const inFlight = new Set<string>();
  /** Consecutive inconclusive attempts per intent, for its backoff (reset when it resolves). */
  const failures = new Map<string, number>();
  let offlineFailures = 0;
  let pausedUntilMs = 0;

  const nowSeconds = (): number => Math.floor(clock.nowMs() / 1000);
  const later = (rule: BackoffRule, n: number): number => Math.ceil((clock.nowMs() + backoffMs(rule, n)) / 1000);
  const bumpFailures = (ref: string): number => {
    const n = (failures.get(ref) ?? 0) + 1;
    failures.set(ref, n);
    return n;
  };
  const changed = (ref: string): void => options.onChange?.(ref);

  const wentOffline = (): void => {
    offlineFailures += 1;
    pausedUntilMs = clock.nowMs() + backoffMs(offlineRule, offlineFailures);
  };
  const reachedMerchant = (): void => {
    offlineFailures = 0;
    pausedUntilMs = 0;
  };

  const accept = (ref: string, order: Order, requestId: string, source: 'createResponse' | 'orderDetail'): void => {
    if (order.clientOrderRef !== ref) throw new MerchantProtocolMismatch(ref);
    const now = nowSeconds();
    let confirmedUnitPriceFen: number | null = null;
    db.transaction(() => {
      const intent = getIntent(db, ref);
      confirmedUnitPriceFen = intent?.confirmedUnitPriceFen ?? null;
      applyOrderDetail({ db, cipher, logger, now }, order, source);
      addRequestIds(db, ref, [requestId]);
      markAccepted(db, ref, requestId, now, sealRechargedEntries(cipher, ref, intent?.purchaseEntries ?? null));
    }).immediate();
    failures.delete(ref);
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
    changed(ref);
    options.onAccepted?.(order);
  };

  /** Every attempt's requestId is kept on the intent for support (spec 7.5 "keep requestId"). */
  const keepRequestIds = (ref: string, error: unknown): void => {
    if (error instanceof MerchantError) addRequestIds(db, ref, error.requestIds);
  };

  /**
   * The merchant refused our access (401/403, never retried): the intent is parked, kept, until access
   * works again. `from`: where it goes back to.
   */
  const parkRefused = (ref: string, error: MerchantAccessError, from: ParkedFrom): void => {
    const status = accessParkOf(error.refusal);
    failures.delete(ref);
    if (parkForAccess(db, ref, status, from, noteOf(error), nowSeconds())) {
      logger.warn('the merchant refused access; the order is kept and waits until access works again', { clientOrderRef: ref, status, code: error.code, requestId: error.requestId });
    }
    changed(ref);
  };

  const inconclusive = (ref: string, error: unknown): void => {
    keepRequestIds(ref, error);
    const note = noteOf(error);
    markUnknown(db, ref, note, later(retryRule, bumpFailures(ref)), nowSeconds());
    if (error instanceof MerchantTransportError) wentOffline();
    logger.warn('order outcome unknown; it will be looked up by its ref', { clientOrderRef: ref, code: note.code, requestId: note.requestId });
    changed(ref);
  };

  const refreshTemplate = async (intent: OrderIntent): Promise<void> => {
    try {
      const { data } = await client.getTemplate(intent.productRef, intent.variantRef);
      storeTemplate(db, data, nowSeconds());
    } catch (error) {
      // The intent still waits for the buyer; the form fetches the template again when opened.
      logger.warn('template refresh after PURCHASE_SCHEMA_CHANGED failed', { clientOrderRef: intent.clientOrderRef, error: error instanceof Error ? error.message : 'unknown' });
    }
  };

  /** The guard's read failed: nothing was sent; the intent waits as the failure says. */
  const guardReadFailed = (ref: string, from: ParkedFrom, error: unknown): void => {
    // The read was made to send this intent: its requestIds are the intent's too (for support).
    keepRequestIds(ref, error);
    if (error instanceof MerchantAccessError) {
      parkRefused(ref, error, from);
      return;
    }
    const note = noteOf(error);
    if (error instanceof MerchantNotBeforeError) {
      deferIntent(db, ref, note, secondsAtOrAfter(error.notBeforeMs), nowSeconds());
      logger.warn('the merchant asked to wait before the product can be read; the order waits until then', { clientOrderRef: ref, notBefore: new Date(error.notBeforeMs).toISOString() });
      changed(ref);
      return;
    }
    let nextAt = later(retryRule, bumpFailures(ref));
    if (error instanceof MerchantApiError) {
      reachedMerchant();
      if (error.httpStatus === 429) nextAt = Math.ceil((clock.nowMs() + Math.max(error.retryAfterMs ?? 0, backoffMs(retryRule, failures.get(ref) ?? 1))) / 1000);
    } else if (error instanceof MerchantTransportError) {
      wentOffline();
    }
    deferIntent(db, ref, note, nextAt, nowSeconds());
    logger.warn('the product could not be read before sending; the order waits', { clientOrderRef: ref, code: note.code, requestId: note.requestId });
    changed(ref);
  };

  const readProduct = (productRef: number, reads: GuardReads): Promise<ProductDetail> => {
    let read = reads.get(productRef);
    if (read === undefined) {
      read = client.getProduct(productRef, loop.signal() ?? undefined).then(({ data }) => {
        catalog.applyProductSnapshot({ from: 'detail', detail: data });
        return data;
      });
      // Every intent of the product awaits it; one failure is seen by each, never unhandled.
      read.catch(() => undefined);
      reads.set(productRef, read);
    }
    return read;
  };

  /** True when the intent may be sent now; otherwise it was parked or deferred (or moved by someone else). */
  const guard = async (intent: OrderIntent, reads: GuardReads): Promise<boolean> => {
    const ref = intent.clientOrderRef;
    let detail: ProductDetail;
    try {
      detail = await readProduct(intent.productRef, reads);
    } catch (error) {
      if (error instanceof MerchantApiError && error.code === MERCHANT_ERROR.RESOURCE_NOT_VISIBLE) {
        reachedMerchant();
        if (parkUnavailable(db, ref, 'variantGone', nowSeconds())) logger.info('order parked: the product is no longer visible', { clientOrderRef: ref, requestId: error.requestId });
        changed(ref);
        return false;
      }
      guardReadFailed(ref, intent.status === 'unknown' ? 'unknown' : 'queued', error);
      if (!(error instanceof MerchantError)) throw error;
      return false;
    }
    reachedMerchant();
    const verdict = judgeGuard(detail, intent);
    if (verdict.kind === 'send') return true;
    failures.delete(ref);
    if (verdict.kind === 'priceChanged') {
      if (parkPriceChanged(db, ref, verdict.unitPriceFen, nowSeconds())) {
        logger.info('order parked: the price rose above the confirmed one', { clientOrderRef: ref, confirmedUnitPriceFen: intent.confirmedUnitPriceFen, unitPriceFen: verdict.unitPriceFen });
      }
    } else if (parkUnavailable(db, ref, verdict.reason, nowSeconds())) {
      logger.info('order parked: the merchant cannot supply it now', { clientOrderRef: ref, reason: verdict.reason });
    }
    changed(ref);
    return false;
  };

  const send = async (ref: string, reads: GuardReads): Promise<void> => {
    const live = options.liveCallbackUrl?.() ?? null;
    if (live !== null) adoptCallbackUrl(db, ref, live, nowSeconds());
    const waiting = getIntent(db, ref);
    if (waiting === null || (waiting.status !== 'queued' && waiting.status !== 'unknown')) return;
    if (!(await guard(waiting, reads))) return;
    if (!claimForSending(db, ref, nowSeconds())) return;
    changed(ref);
    const intent = getIntent(db, ref);
    if (intent === null) return;
    let result: Awaited<ReturnType<MerchantClient['createOrder']>>;
    try {
      result = await client.createOrder(createBodyOf(intent), loop.signal() ?? undefined);
    } catch (error) {
      await createFailed(intent, error);
      return;
    }
    reachedMerchant();
    try {
      accept(ref, result.data, result.requestId, 'createResponse');
    } catch (error) {
      // The merchant has the order but we could not store it: GET will find it again.
      inconclusive(ref, error);
      if (!(error instanceof MerchantError) && !(error instanceof MerchantProtocolMismatch)) throw error;
    }
  };

  const createFailed = async (intent: OrderIntent, error: unknown): Promise<void> => {
    const ref = intent.clientOrderRef;
    const note = noteOf(error);
    const now = nowSeconds();
    keepRequestIds(ref, error);
    // A refusal or a wait says the last attempt created nothing; an earlier one of the call may have.
    const from: ParkedFrom = error instanceof MerchantError && error.earlierAttemptUncertain ? 'unknown' : 'queued';
    if (error instanceof MerchantNotBeforeError) {
      const at = secondsAtOrAfter(error.notBeforeMs);
      if (from === 'queued') markRequeued(db, ref, note, at, now);
      else markUnknown(db, ref, note, at, now);
      logger.warn('the merchant asked to wait; the order is kept and sent from the time named', { clientOrderRef: ref, notBefore: new Date(error.notBeforeMs).toISOString(), scope: error.scope, requestId: error.requestId });
      changed(ref);
      return;
    }
    if (error instanceof MerchantAccessError) {
      parkRefused(ref, error, from);
      return;
    }
    if (error instanceof MerchantTransportError && error.neverReached) {
      markRequeued(db, ref, note, later(retryRule, bumpFailures(ref)), now);
      wentOffline();
      logger.warn('the merchant could not be reached and received nothing; the order stays queued', { clientOrderRef: ref, code: note.code });
      changed(ref);
      return;
    }
    if (!(error instanceof MerchantApiError)) {
      inconclusive(ref, error);
      if (!(error instanceof MerchantError)) logger.error('unexpected failure while sending an order', { clientOrderRef: ref, error: error instanceof Error ? error.name : 'unknown' });
      return;
    }
    reachedMerchant();
    if (error.code === MERCHANT_ERROR.PURCHASE_SCHEMA_CHANGED) {
      await refreshTemplate(intent);
      markNeedsConfirmation(db, ref, note, nowSeconds());
      logger.warn('the purchase template changed; the order waits for the buyer to confirm', { clientOrderRef: ref, requestId: error.requestId });
    } else if (error.code === MERCHANT_ERROR.IDEMPOTENCY_CONFLICT) {
      markRejected(db, ref, note, now, true);
      logger.error('IDEMPOTENCY CONFLICT: the merchant holds different content under this clientOrderRef; stopped, needs a person', {
        clientOrderRef: ref,
        requestId: error.requestId,
      });
    } else if (error.httpStatus === 429) {
      const wait = Math.max(error.retryAfterMs ?? 0, backoffMs(retryRule, bumpFailures(ref)));
      markRequeued(db, ref, note, Math.ceil((clock.nowMs() + wait) / 1000), now);
    } else if (error.httpStatus >= 500) {
      inconclusive(ref, error);
      return;
    } else {
      markRejected(db, ref, note, now, false);
      failures.delete(ref);
      logger.info('order rejected by the merchant', { clientOrderRef: ref, code: error.code, requestId: error.requestId });
    }
    changed(ref);
  };

  /** A withdrawn intent whose send outcome was not known: GET decides; it is never sent again. */
  const resolveWithdrawal = async (ref: string): Promise<WithdrawOutcome> => {
    try {
      const { data, requestId } = await client.getOrder(ref, loop.signal() ?? undefined);
      reachedMerchant();
      accept(ref, data, requestId, 'orderDetail');
      logger.info('a withdrawn order was found at the merchant; it is kept as an order', { clientOrderRef: ref, requestId });
      return 'merchantHasOrder';
    } catch (error) {
      if (error instanceof MerchantApiError && error.code === MERCHANT_ERROR.ORDER_NOT_FOUND) {
        reachedMerchant();
        failures.delete(ref);
        if (markWithdrawn(db, ref, nowSeconds(), ['withdrawing'])) {
          logger.info('order withdrawn: the merchant has none under its ref, which is retired', { clientOrderRef: ref, requestId: error.requestId });
        }
        changed(ref);
        return getIntent(db, ref)?.status === 'accepted' ? 'merchantHasOrder' : 'withdrawn';
      }
      if (error instanceof MerchantApiError) reachedMerchant();
      if (error instanceof MerchantAccessError || error instanceof MerchantNotBeforeError) {
        // Never sent again anyway: it waits, withdrawing, for access (the loop is paused meanwhile) or the time named.
        keepRequestIds(ref, error);
        const at = error instanceof MerchantNotBeforeError ? secondsAtOrAfter(error.notBeforeMs) : later(BLOCKED_RETRY, bumpFailures(ref));
        markUnknown(db, ref, noteOf(error), at, nowSeconds());
        changed(ref);
        return 'checking';
      }
      inconclusive(ref, error);
      if (!(error instanceof MerchantError) && !(error instanceof MerchantProtocolMismatch)) throw error;
      return 'checking';
    }
  };

  const resolveUnknown = async (ref: string, reads: GuardReads): Promise<void> => {
    try {
      const { data, requestId } = await client.getOrder(ref, loop.signal() ?? undefined);
      reachedMerchant();
      accept(ref, data, requestId, 'orderDetail');
    } catch (error) {
      if (error instanceof MerchantAccessError) {
        keepRequestIds(ref, error);
        parkRefused(ref, error, 'unknown');
        return;
      }
      if (error instanceof MerchantNotBeforeError) {
        keepRequestIds(ref, error);
        markUnknown(db, ref, noteOf(error), secondsAtOrAfter(error.notBeforeMs), nowSeconds());
        changed(ref);
        return;
      }
      if (error instanceof MerchantApiError && error.code === MERCHANT_ERROR.ORDER_NOT_FOUND) {
        reachedMerchant();
        keepRequestIds(ref, error);
        logger.info('order not found at the merchant; sending it again with the same ref', { clientOrderRef: ref, requestId: error.requestId });
        await send(ref, reads);
        return;
      }
      if (error instanceof MerchantApiError) reachedMerchant();
      inconclusive(ref, error);
      if (!(error instanceof MerchantError) && !(error instanceof MerchantProtocolMismatch)) throw error;
    }
  };

  const work = async (intent: OrderIntent, reads: GuardReads): Promise<void> => {
    const ref = intent.clientOrderRef;
    if (inFlight.has(ref)) return;
    inFlight.add(ref);
    try {
      if (intent.status === 'unknown') await resolveUnknown(ref, reads);
      else if (intent.status === 'withdrawing') await resolveWithdrawal(ref);
      else await send(ref, reads);
    } finally {
      inFlight.delete(ref);
    }
  };

  let lastAccountProbeMs = -Infinity;
  /** Intents wait for a suspension or an IP refusal to end that this process has not seen: ask now and then. */
  const probeParkedAccess = async (): Promise<void> => {
    if (options.probeAccount === undefined || countAccessParks(db, ACCOUNT_PARKS) === 0) return;
    if (clock.nowMs() - lastAccountProbeMs < ACCESS_RECHECK_MS) return;
    lastAccountProbeMs = clock.nowMs();
    // Its answer reaches accountAnswered() through the access gate; a failure leaves the parks as they are.
    await options.probeAccount().catch(() => undefined);
  };

  const runOnce = async (): Promise<OutboxPass> => {
    if (clock.nowMs() < pausedUntilMs) return { worked: 0, offline: true };
    await probeParkedAccess();
    const due = dueIntents(db, nowSeconds(), 500).filter((intent) => !inFlight.has(intent.clientOrderRef));
    let worked = 0;
    const reads: GuardReads = new Map();
    await runBounded(
      due,
      async (intent) => {
        worked += 1;
        await work(intent, reads);
      },
      // An outage found by one request stops the others from starting more.
      { concurrency, stopWhen: () => clock.nowMs() < pausedUntilMs || loop.signal()?.aborted === true },
    );
    return { worked, offline: clock.nowMs() < pausedUntilMs };
  };

  /** Until the next intent is due (at most 30 s), and not before an outage's pause ends. */
  const waitMs = (): number => {
    const dueAt = nextDueAt(db);
    const nowMs = clock.nowMs();
    let wait = 30_000;
    if (dueAt !== null) wait = Math.min(wait, Math.max(0, dueAt * 1000 - nowMs));
    if (pausedUntilMs > nowMs) wait = Math.max(wait, pausedUntilMs - nowMs);
    return Math.max(wait, 50);
  };
  /** While refused: what falls due is parked as a send would have been (the sender refuses it unsent). */
  const parkDueWhileRefused = (): void => {
    const refusal = options.accessRefusal?.() ?? null;
    if (refusal === null) return;
    for (const intent of dueIntents(db, nowSeconds(), 500)) {
      if (intent.status === 'withdrawing' || inFlight.has(intent.clientOrderRef)) continue;
      parkRefused(intent.clientOrderRef, new MerchantAccessError(refusal.httpStatus, refusal.code, refusal.requestId, true), intent.status === 'unknown' ? 'unknown' : 'queued');
    }
  };
  const merchantPause = options.pause;
  const pause: WorkerPause | undefined =
    merchantPause === undefined
      ? undefined
      : {
          pausedUntilMs: () => merchantPause.pausedUntilMs(),
          async whilePaused() {
            parkDueWhileRefused();
            await merchantPause.whilePaused?.();
          },
        };
  const loop = createWorkerLoop({ clock, logger, name: 'order outbox', pass: () => runOnce(), waitMs, ...(pause ? { pause } : {}) });

  const release = (statuses: readonly AccessParkStatus[], why: string): number => {
    const refs = releaseAccessParks(db, statuses, nowSeconds());
    if (refs.length === 0) return 0;
    logger.info(`orders parked by the merchant's refusal go on: ${why}`, { count: refs.length });
    for (const ref of refs) changed(ref);
    loop.poke();
    return refs.length;
  };

  return {
    /** Start-up recovery: intents left 'sending' by a crash become 'unknown'. Returns how many. */
    recover(): number {
      const count = markInterruptedSendsUnknown(db, nowSeconds());
      if (count > 0) logger.warn('order intents interrupted while sending; their outcome will be looked up', { count });
      return count;
    },
    /** One pass over the intents due now. */
    runOnce,
    /**
     * Works this one intent now if it waits to be sent or resolved and is due; every other intent
     * is left where it is (the CLI's `order create` must not release what `--queue-only` parked).
     */
    async submit(clientOrderRef: string): Promise<OutboxPass> {
      if (clock.nowMs() < pausedUntilMs) return { worked: 0, offline: true };
      const intent = getIntent(db, clientOrderRef);
      const waiting = intent !== null && (intent.status === 'queued' || intent.status === 'unknown' || intent.status === 'withdrawing');
      if (!waiting || (intent.nextAttemptAt ?? 0) > nowSeconds() || inFlight.has(clientOrderRef)) return { worked: 0, offline: false };
      await work(intent, new Map());
      return { worked: 1, offline: clock.nowMs() < pausedUntilMs };
    },
    /**
     * The buyer gives an intent up. Queued or parked: withdrawn at once. Unknown: moved to withdrawing
     * (never sent again) and looked up now. Sending: marked, and the answer in flight decides. Never a
     * second order, never a click ignored: the outcome says which case applied.
     */
    async withdraw(clientOrderRef: string): Promise<WithdrawOutcome> {
      // A status can move under us (the outbox claims, answers arrive): every step is a guarded
      // UPDATE, and a lost race just reads the new status again.
      for (let round = 0; round < 5; round++) {
        const intent = getIntent(db, clientOrderRef);
        if (intent === null) throw new IntentStateError(`no order intent ${clientOrderRef}`);
        const now = nowSeconds();
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
            changed(clientOrderRef);
            return 'checking';
          case 'unknown':
            if (!markWithdrawing(db, clientOrderRef, now)) continue;
            changed(clientOrderRef);
            return resolveWithdrawal(clientOrderRef);
          case 'withdrawing':
            return resolveWithdrawal(clientOrderRef);
          case 'needs_key':
          case 'account_suspended':
          case 'access_denied': {
            const moved = withdrawAccessParked(db, clientOrderRef, now);
            if (moved === null) continue;
            failures.delete(clientOrderRef);
            changed(clientOrderRef);
            if (moved === 'withdrawn') {
              logger.info('order withdrawn before the merchant saw it', { clientOrderRef, from: intent.status });
              return 'withdrawn';
            }
            // It may exist at the merchant: looked up now, and again once access works.
            return resolveWithdrawal(clientOrderRef);
          }
          default:
            if (!markWithdrawn(db, clientOrderRef, now)) continue;
            failures.delete(clientOrderRef);
            logger.info('order withdrawn before the merchant saw it', { clientOrderRef, from: intent.status });
            changed(clientOrderRef);
            return 'withdrawn';
        }
      }
      throw new IntentStateError(`order intent ${clientOrderRef} kept changing while it was being withdrawn; try again`);
    },
    /**
     * A key was entered and GET /account accepted it (connect): intents parked for a refused key go
     * back, and with an account that is not suspended the other parks too. Returns how many moved.
     */
    keyAccepted(accessState: string): number {
      return release(accessState === 'suspended' ? ['needs_key'] : ['needs_key', ...ACCOUNT_PARKS], 'a key was accepted');
    },
    /** GET /account answered (any worker, the app, a probe): without `suspended`, suspension and IP parks go back. */
    accountAnswered(accessState: string): number {
      if (accessState === 'suspended') return 0;
      return release(ACCOUNT_PARKS, 'the account answers again');
    },
    /** Runs passes until stop(); new intents are picked up at once after poke(). */
    start: () => loop.start(),
    /** Something new is due (an intent placed, the network back): run a pass now. */
    poke(): void {
      pausedUntilMs = 0;
      loop.poke();
    },
    stop: () => loop.stop(),
  };
}

export type OrderOutbox = ReturnType<typeof createOrderOutbox>;

/** The merchant answered for another order than the one asked about. */
class MerchantProtocolMismatch extends Error {
  override readonly name = 'MerchantProtocolMismatch';
  constructor(ref: string) {
    super(`the merchant answered with another order than ${ref}`);
  }
}
