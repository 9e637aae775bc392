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
//   409101 PURCHASE_SCHEMA_CHANGED → template fetched again (once, by the template source), needs_confirmation: the buyer decides, the
//                                    outbox never resubmits other content by itself.
//   409001 IDEMPOTENCY_CONFLICT   → rejected and flagged loudly (a bug or a foreign ref): never a new ref.
//   429 (rate limiter refused)    → queued again: the limiter runs before the order rules, so nothing
//                                    was created.
//   a wait beyond the call's limit → (MerchantNotBeforeError: a long Retry-After, or a hold stored by any
//                                    process) queued again with next_attempt_at = the time named; the
//                                    loop sleeps through it (its pause covers orderCreate and orderRead).
//   401/403 (access refused)      → parked, never retried (interface v1 §7.5): needs_key (401001),
//                                    account_suspended (403005), access_denied (403002 or another 403).
//                                    Kept with the status it returns to (queued, or unknown when an
//                                    earlier attempt of the call may have created it); back by itself
//                                    once a key is accepted (keyAccepted, from connect) or GET /account
//                                    answers without `suspended` (accountAnswered). The same park when the
//                                    guard's product read or GET /orders/{ref} is refused.
//   5xx, transport, malformed     → unknown: the merchant may have created it; GET decides. A 500-class
//                                    answer (not 503) ends the call and counts against the intent: at
//                                    MAX_SERVER_FAILURES (creates and look-ups together, kept across
//                                    restarts) it waits as merchant_failing until the buyer retries
//                                    (retryFailing: looked up first) or withdraws (outbox-server-failures.ts).
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
// needs_template (placed offline without a trusted template, contract §7.10): each pass first fetches
// the templates of those due (outbox-templates.ts); one that fits becomes queued and goes out in the
// same pass, one that does not waits for the buyer as needs_confirmation. Never sent without one.
// At start-up `recover()` turns every 'sending' row (a request may have left before a crash) into
// 'unknown'. A transport failure pauses the whole outbox for a while (the merchant is away), so
// offline intents wait, visible, instead of each hammering a dead address.
import type { Order } from '../../shared/merchant/order';
import { ACCESS_RECHECK_MS } from '../merchant/access-gate';
import { MerchantAccessError } from '../merchant/merchant-errors';
import { createWorkerLoop, type WorkerPause } from '../platform/worker-loop';
import type { BackoffRule } from '../../shared/backoff';
import { countAccessParks, dueIntents, getIntent, markInterruptedSendsUnknown, nextDueAt, releaseAccessParks, type AccessParkStatus, type OrderIntent } from './order-intent-store';
import { parkRefused } from './outbox-answers';
import { isPausedOffline, nowSeconds, type GuardReads, type OutboxContext } from './outbox-context';
import { resolveUnknown, resolveWithdrawal, type WithdrawOutcome } from './outbox-lookups';
import { sendIntent } from './outbox-send';
import { fillTemplateWaits } from './outbox-templates';
import { withdrawIntent } from './outbox-withdraw';
import { IntentStateError } from './order-errors';
import { retryServerFailing } from './server-failure-store';
import { runBounded } from '../platform/bounded-pool';

export type { WithdrawOutcome } from './outbox-lookups';

/** The outbox's ports are its context's (outbox-context.ts): database, client, clock, logger, cipher, catalog. */
export interface OrderOutboxOptions extends Pick<OutboxContext, 'db' | 'client' | 'clock' | 'logger' | 'cipher' | 'catalog' | 'templates'> {
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

/** Parks released when GET /account answers without `suspended` (a denied address gets no answer at all). */
const ACCOUNT_PARKS: readonly AccessParkStatus[] = ['account_suspended', 'access_denied'];

/** Sends order intents under their stored clientOrderRef, resolves unknown outcomes, and parks what needs the buyer. */
export interface OrderOutbox {
  /** Start-up recovery: intents left 'sending' by a crash become 'unknown'. Returns how many. */
  recover(): number;
  /** One pass over the intents due now. */
  runOnce(): Promise<OutboxPass>;
  /**
   * Works this one intent now if it waits to be sent or resolved and is due; every other intent
   * is left where it is (the CLI's `order create` must not release what `--queue-only` parked).
   */
  submit(clientOrderRef: string): Promise<OutboxPass>;
  /**
   * The buyer gives an intent up. Queued or parked: withdrawn at once. Unknown: moved to withdrawing
   * (never sent again) and looked up now. Sending: marked, and the answer in flight decides. Never a
   * second order, never a click ignored: the outcome says which case applied.
   */
  withdraw(clientOrderRef: string): Promise<WithdrawOutcome>;
  /**
   * The buyer's retry of an intent the merchant failed too often (merchant_failing, contract §7.12):
   * its count starts again and it is due now, looked up by its ref first (404002: sent under the same
   * ref). Throws IntentStateError when it is not waiting for that.
   */
  retryFailing(clientOrderRef: string): void;
  /**
   * A key was entered and GET /account accepted it (connect): intents parked for a refused key go
   * back, and with an account that is not suspended the other parks too. Returns how many moved.
   */
  keyAccepted(accessState: string): number;
  /** GET /account answered (any worker, the app, a probe): without `suspended`, suspension and IP parks go back. */
  accountAnswered(accessState: string): number;
  /** Runs passes until stop(); new intents are picked up at once after poke(). */
  start(): void;
  /** Something new is due (an intent placed, the network back): run a pass now. */
  poke(): void;
  /** Stops the passes and waits for the one in flight. */
  stop(): Promise<void>;
}

export function createOrderOutbox(options: OrderOutboxOptions): OrderOutbox {
  const { db, clock, logger } = options;
  const concurrency = options.concurrency ?? 4;
  /** Intents a worker has in hand: never two workers on one intent. */
  const inFlight = new Set<string>();
  const ctx: OutboxContext = {
    db,
    client: options.client,
    clock,
    logger,
    cipher: options.cipher,
    catalog: options.catalog,
    templates: options.templates,
    retryRule: options.retry ?? DEFAULT_RETRY,
    offlineRule: options.offline ?? DEFAULT_OFFLINE,
    failures: new Map(),
    offline: { failures: 0, pausedUntilMs: 0 },
    signal: () => loop.signal() ?? undefined,
    ...(options.liveCallbackUrl ? { liveCallbackUrl: options.liveCallbackUrl } : {}),
    ...(options.onAccepted ? { onAccepted: options.onAccepted } : {}),
    ...(options.onChange ? { onChange: options.onChange } : {}),
  };

  const work = async (intent: OrderIntent, reads: GuardReads): Promise<void> => {
    const ref = intent.clientOrderRef;
    if (inFlight.has(ref)) return;
    inFlight.add(ref);
    try {
      if (intent.status === 'unknown') await resolveUnknown(ctx, ref, reads);
      else if (intent.status === 'withdrawing') await resolveWithdrawal(ctx, ref);
      else await sendIntent(ctx, ref, reads);
    } finally {
      inFlight.delete(ref);
    }
  };

  const probeParkedAccess = accountProbe(ctx, options.probeAccount);

  const runOnce = async (): Promise<OutboxPass> => {
    if (isPausedOffline(ctx)) return { worked: 0, offline: true };
    await probeParkedAccess();
    // Intents placed offline without a template first: those that fit it become queued and go out below.
    let worked = await fillTemplateWaits(ctx);
    if (isPausedOffline(ctx)) return { worked, offline: true };
    const due = dueIntents(db, nowSeconds(ctx), 500).filter((intent) => !inFlight.has(intent.clientOrderRef));
    const reads: GuardReads = new Map();
    await runBounded(
      due,
      async (intent) => {
        worked += 1;
        await work(intent, reads);
      },
      // An outage found by one request stops the others from starting more.
      { concurrency, stopWhen: () => isPausedOffline(ctx) || loop.signal()?.aborted === true },
    );
    return { worked, offline: isPausedOffline(ctx) };
  };

  /** While refused: what falls due is parked as a send would have been (the sender refuses it unsent). */
  const parkDueWhileRefused = (): void => {
    const refusal = options.accessRefusal?.() ?? null;
    if (refusal === null) return;
    for (const intent of dueIntents(db, nowSeconds(ctx), 500)) {
      if (intent.status === 'withdrawing' || inFlight.has(intent.clientOrderRef)) continue;
      parkRefused(ctx, intent.clientOrderRef, new MerchantAccessError(refusal.httpStatus, refusal.code, refusal.requestId, true), intent.status === 'unknown' ? 'unknown' : 'queued');
    }
  };
  const pause = outboxPause(options.pause, parkDueWhileRefused);
  const loop = createWorkerLoop({ clock, logger, name: 'order outbox', pass: () => runOnce(), waitMs: () => outboxWaitMs(ctx), ...(pause ? { pause } : {}) });

  const release = (statuses: readonly AccessParkStatus[], why: string): number => {
    const refs = releaseAccessParks(db, statuses, nowSeconds(ctx));
    if (refs.length === 0) return 0;
    logger.info(`orders parked by the merchant's refusal go on: ${why}`, { count: refs.length });
    for (const ref of refs) options.onChange?.(ref);
    loop.poke();
    return refs.length;
  };

  return {
    recover(): number {
      const count = markInterruptedSendsUnknown(db, nowSeconds(ctx));
      if (count > 0) logger.warn('order intents interrupted while sending; their outcome will be looked up', { count });
      return count;
    },
    runOnce,
    async submit(clientOrderRef: string): Promise<OutboxPass> {
      if (isPausedOffline(ctx)) return { worked: 0, offline: true };
      const intent = getIntent(db, clientOrderRef);
      const waiting = intent !== null && (intent.status === 'queued' || intent.status === 'unknown' || intent.status === 'withdrawing');
      if (!waiting || (intent.nextAttemptAt ?? 0) > nowSeconds(ctx) || inFlight.has(clientOrderRef)) return { worked: 0, offline: false };
      await work(intent, new Map());
      return { worked: 1, offline: isPausedOffline(ctx) };
    },
    withdraw: (clientOrderRef: string): Promise<WithdrawOutcome> => withdrawIntent(ctx, clientOrderRef),
    retryFailing(clientOrderRef: string): void {
      if (!retryServerFailing(db, clientOrderRef, nowSeconds(ctx))) {
        throw new IntentStateError(`order intent ${clientOrderRef} is not waiting for a retry after the merchant's failures`);
      }
      ctx.failures.delete(clientOrderRef);
      logger.info('the buyer retries an order the merchant failed; it is looked up by its ref first', { clientOrderRef });
      options.onChange?.(clientOrderRef);
      loop.poke();
    },
    keyAccepted(accessState: string): number {
      return release(accessState === 'suspended' ? ['needs_key'] : ['needs_key', ...ACCOUNT_PARKS], 'a key was accepted');
    },
    accountAnswered(accessState: string): number {
      if (accessState === 'suspended') return 0;
      return release(ACCOUNT_PARKS, 'the account answers again');
    },
    start: () => loop.start(),
    poke(): void {
      ctx.offline.pausedUntilMs = 0;
      loop.poke();
    },
    stop: () => loop.stop(),
  };
}

/** Until the next intent is due (at most 30 s), and not before an outage's pause ends. */
function outboxWaitMs(ctx: OutboxContext): number {
  const dueAt = nextDueAt(ctx.db);
  const nowMs = ctx.clock.nowMs();
  let wait = 30_000;
  if (dueAt !== null) wait = Math.min(wait, Math.max(0, dueAt * 1000 - nowMs));
  if (ctx.offline.pausedUntilMs > nowMs) wait = Math.max(wait, ctx.offline.pausedUntilMs - nowMs);
  return Math.max(wait, 50);
}

/** The merchant's pause of the loop, parking what falls due meanwhile; none without the merchant's. */
function outboxPause(merchantPause: WorkerPause | undefined, parkDueWhileRefused: () => void): WorkerPause | undefined {
  if (merchantPause === undefined) return undefined;
  return {
    pausedUntilMs: () => merchantPause.pausedUntilMs(),
    async whilePaused() {
      parkDueWhileRefused();
      await merchantPause.whilePaused?.();
    },
  };
}

/** Intents wait for a suspension or an IP refusal to end that this process has not seen: ask now and then. */
function accountProbe(ctx: OutboxContext, probeAccount: (() => Promise<unknown>) | undefined): () => Promise<void> {
  let lastAccountProbeMs = -Infinity;
  return async () => {
    if (probeAccount === undefined || countAccessParks(ctx.db, ACCOUNT_PARKS) === 0) return;
    if (ctx.clock.nowMs() - lastAccountProbeMs < ACCESS_RECHECK_MS) return;
    lastAccountProbeMs = ctx.clock.nowMs();
    // Its answer reaches accountAnswered() through the access gate; a failure leaves the parks as they are.
    await probeAccount().catch(() => undefined);
  };
}
