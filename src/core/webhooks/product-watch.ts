// The products the user watches, kept subscribed (interface v1 §3.2, contract §6) to the live callback URL so
// that their product.changed messages reach the receiver.
//
// Why it looks like this:
// - POST /goods/subscriptions takes at most 100 distinct products per call and is all or nothing, so
//   due rows go in batches of up to 100, every batch with `callbackUrl` = the live URL (without it
//   the merchant would bind them to the account's default address, which may not be ours). The
//   client's quota model paces the calls (30 per minute), so a large watch list spreads out rather
//   than meeting 429.
// - A subscription lasts a TTL (7 days; the sandbox's --subscription-ttl) from its latest renewal;
//   it is renewed when less than a day or 20% of what the merchant granted remains, whichever is
//   sooner, so short TTLs (tests) renew in time and long ones do not renew needlessly.
// - One unknown product makes a whole call fail (404001): the batch is split in halves until the
//   product is found, which is marked and retried much later; the others are subscribed.
// - A refused URL (422114: the merchant accepts only public HTTPS) stops the pass: every call with
//   that URL would fail the same way. Other failures back off per row; an unreachable merchant ends
//   the pass, the next one retries.
// - Nothing is subscribed while there is no live URL: the rows stay due and go out once there is one.
import { classifySubscriptionState } from '../../shared/merchant/known-values';
import type { SubscriptionResult } from '../../shared/merchant/subscription';
import type { Database } from 'better-sqlite3';
import type { Logger } from '../logging/logger';
import type { MerchantClient } from '../merchant/merchant-client';
import { MerchantApiError, MerchantError } from '../merchant/merchant-errors';
import type { Clock } from '../platform/clock';
import { createProductWatchStore, type ProductWatchStore, type SubscribedRow, type WatchCounts, type WatchedProduct } from './product-watch-store';
import { backoffCeilingMs, type BackoffRule } from '../../shared/backoff';

export const MAX_SUBSCRIPTION_BATCH = 100;
const DAY_SECONDS = 86_400;
const NOT_VISIBLE = 404_001;
const CALLBACK_URL_INVALID = 422_114;
/** A product the merchant does not show is asked about again after this long. */
const NOT_VISIBLE_RETRY_SECONDS = 6 * 3600;

/**
 * When to renew a subscription that expires at `expiresAt` (merchant seconds), seen at `now`: once
 * less than min(1 day, 20% of the time granted) remains. An answer already in the past (the clocks
 * disagree) is tried again in 5 minutes: never a busy loop.
 */
const SUBSCRIBE_RETRY: BackoffRule = { baseMs: 30_000, maxMs: 3_600_000 };

export function renewAtFor(now: number, expiresAt: number | null): number {
  if (expiresAt === null) return now + 300;
  const remaining = expiresAt - now;
  if (remaining <= 1) return now + 300;
  return expiresAt - Math.min(DAY_SECONDS, Math.floor(remaining * 0.2));
}

/** Seconds before a failed subscription call is tried again: 30 s doubling, at most an hour (the backoff's ceiling). */
export function retryDelaySeconds(attempts: number, retryAfterMs: number | null): number {
  const backoff = backoffCeilingMs(SUBSCRIBE_RETRY, attempts + 1) / 1000;
  return Math.max(backoff, retryAfterMs === null ? 0 : Math.ceil(retryAfterMs / 1000));
}

export interface SubscribePass {
  readonly calls: number;
  readonly subscribed: number;
  readonly failed: number;
  readonly notVisible: readonly number[];
  /** The merchant refused the callback URL (422114); nothing was subscribed with it. */
  readonly urlRefused: boolean;
  /** The merchant could not be reached (or refused us for now); the rest waits for the next pass. */
  readonly interrupted: boolean;
}

export interface ProductWatchOptions {
  readonly db: Database;
  readonly client: Pick<MerchantClient, 'changeSubscriptions'>;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Products per call, at most 100 (tests use fewer). */
  readonly batchSize?: number;
}

type BatchOutcome = 'done' | 'urlRefused' | 'interrupted';

/** Watched products and their webhook subscriptions (batches, renewal, unsubscribe). */
export interface ProductWatch {
  /** Starts watching; new products are subscribed on the next pass. Returns the refs that are new. */
  watch(productRefs: readonly number[]): number[];
  /**
   * Stops watching and cancels the subscriptions (best effort: one that cannot be cancelled now
   * simply expires; its messages only keep the cache fresher meanwhile). Returns the refs removed.
   */
  unwatch(productRefs: readonly number[], signal?: AbortSignal): Promise<number[]>;
  /** Every watched product with its subscription state. */
  list(): WatchedProduct[];
  /** The refs of the watched products. */
  refs(): number[];
  /** One watched product, or null when it is not watched. */
  get(productRef: number): WatchedProduct | null;
  /** Everything is to be subscribed again (new URL; or the receiver was down and deliveries failed). */
  resubscribeAll(): void;
  /**
   * Subscribes every due product with `callbackUrl`, in batches of at most 100, until none is due,
   * the merchant cannot be reached, the URL is refused, or `keepGoing` says the URL is no longer
   * the live one. One pass at a time.
   */
  subscribeDue(callbackUrl: string, signal?: AbortSignal, keepGoing?: () => boolean): Promise<SubscribePass>;
  /** Seconds (our clock) of the next due row; 0 = due now; null when nothing is watched. */
  nextDueAt(): number | null;
  /** How many are watched, subscribed with this URL, due and failing (the health view). */
  counts(callbackUrl: string | null): WatchCounts;
}

export function createProductWatch(options: ProductWatchOptions): ProductWatch {
  const { client, clock, logger } = options;
  const store: ProductWatchStore = createProductWatchStore(options.db);
  const batchSize = Math.min(MAX_SUBSCRIPTION_BATCH, Math.max(1, options.batchSize ?? MAX_SUBSCRIPTION_BATCH));
  const nowSeconds = (): number => Math.floor(clock.nowMs() / 1000);
  let running: Promise<SubscribePass> | null = null;

  const checkRefs = (productRefs: readonly number[]): number[] => {
    for (const ref of productRefs) if (!Number.isSafeInteger(ref) || ref <= 0) throw new RangeError(`not a product reference: ${ref}`);
    return [...new Set(productRefs)];
  };

  const pass = async (callbackUrl: string, signal?: AbortSignal, keepGoing: () => boolean = () => true): Promise<SubscribePass> => {
    const tally = { calls: 0, subscribed: 0, failed: 0, notVisible: [] as number[] };

    const record = (refs: readonly number[], list: readonly SubscriptionResult[]): void => {
      const now = nowSeconds();
      const byRef = new Map(list.map((item) => [item.productRef, item]));
      const rows: SubscribedRow[] = [];
      const missing: number[] = [];
      for (const productRef of refs) {
        const item = byRef.get(productRef);
        if (item === undefined) {
          missing.push(productRef);
          continue;
        }
        const state = classifySubscriptionState(item.subscriptionState);
        const subscribed = state.kind === 'known' && state.value === 'subscribed';
        // Anything but `subscribed` (an unknown value included) is not taken for success: try again.
        rows.push({
          productRef,
          subscriptionState: item.subscriptionState,
          subscriptionExpiresAt: item.subscriptionExpiresAt,
          renewAt: subscribed ? renewAtFor(now, item.subscriptionExpiresAt) : now + retryDelaySeconds(0, null),
        });
        if (subscribed) tally.subscribed++;
        else tally.failed++;
      }
      store.recordSubscribed(rows, callbackUrl, now);
      if (missing.length > 0) {
        store.recordFailed(missing, 'missing from the merchant answer', now + retryDelaySeconds(0, null));
        tally.failed += missing.length;
      }
    };

    const fail = (rows: readonly WatchedProduct[], error: string, retryAfterMs: number | null): void => {
      const attempts = Math.max(...rows.map((r) => r.attempts));
      store.recordFailed(
        rows.map((r) => r.productRef),
        error,
        nowSeconds() + retryDelaySeconds(attempts, retryAfterMs),
      );
      tally.failed += rows.length;
    };

    const subscribeBatch = async (rows: readonly WatchedProduct[]): Promise<BatchOutcome> => {
      const refs = rows.map((r) => r.productRef);
      tally.calls++;
      try {
        const { data } = await client.changeSubscriptions({ productRefs: refs, subscriptionState: 'subscribed', callbackUrl }, signal);
        record(refs, data.list);
        return 'done';
      } catch (error) {
        if (!(error instanceof MerchantError)) throw error;
        if (error instanceof MerchantApiError && error.code === NOT_VISIBLE) {
          if (rows.length === 1) {
            store.recordFailed(refs, 'not visible (404001)', nowSeconds() + NOT_VISIBLE_RETRY_SECONDS);
            tally.failed++;
            tally.notVisible.push(...refs);
            return 'done';
          }
          // All or nothing: find the product the merchant does not know, subscribe the rest.
          const half = Math.ceil(rows.length / 2);
          const first = await subscribeBatch(rows.slice(0, half));
          if (first !== 'done') return first;
          return subscribeBatch(rows.slice(half));
        }
        if (error instanceof MerchantApiError && error.code === CALLBACK_URL_INVALID) {
          fail(rows, 'callback URL refused (422114)', null);
          return 'urlRefused';
        }
        fail(rows, error.message, error instanceof MerchantApiError ? error.retryAfterMs : null);
        logger.warn('subscription call failed', { products: refs.length, error: error.message, requestId: error.requestId });
        // A business error about this batch only (e.g. 400001) does not stop the others.
        return error instanceof MerchantApiError && error.httpStatus === 400 ? 'done' : 'interrupted';
      }
    };

    let outcome: BatchOutcome = 'done';
    while (outcome === 'done' && signal?.aborted !== true && keepGoing()) {
      const due = store.due(nowSeconds(), batchSize);
      if (due.length === 0) break;
      outcome = await subscribeBatch(due);
    }
    if (tally.calls > 0) {
      logger.info('subscriptions renewed', { calls: tally.calls, subscribed: tally.subscribed, failed: tally.failed, outcome });
    }
    return { ...tally, urlRefused: outcome === 'urlRefused', interrupted: outcome === 'interrupted' };
  };

  return {
    /** Starts watching; new products are subscribed on the next pass. Returns the refs that are new. */
    watch(productRefs: readonly number[]): number[] {
      return store.add(checkRefs(productRefs), nowSeconds());
    },
    /**
     * Stops watching and cancels the subscriptions (best effort: one that cannot be cancelled now
     * simply expires; its messages only keep the cache fresher meanwhile). Returns the refs removed.
     */
    async unwatch(productRefs: readonly number[], signal?: AbortSignal): Promise<number[]> {
      const removed = store.remove(checkRefs(productRefs));
      const cancel = async (refs: readonly number[]): Promise<void> => {
        try {
          await client.changeSubscriptions({ productRefs: [...refs], subscriptionState: 'unsubscribed' }, signal);
        } catch (error) {
          if (!(error instanceof MerchantError)) throw error;
          if (error instanceof MerchantApiError && error.code === NOT_VISIBLE && refs.length > 1) {
            const half = Math.ceil(refs.length / 2);
            await cancel(refs.slice(0, half));
            await cancel(refs.slice(half));
            return;
          }
          logger.info('unsubscribe failed; the subscription will expire by itself', { products: refs.length, error: error.message });
        }
      };
      for (let i = 0; i < removed.length; i += batchSize) await cancel(removed.slice(i, i + batchSize));
      return removed;
    },
    list: (): WatchedProduct[] => store.list(),
    refs: (): number[] => store.refs(),
    get: (productRef: number): WatchedProduct | null => store.get(productRef),
    /** Everything is to be subscribed again (new URL; or the receiver was down and deliveries failed). */
    resubscribeAll: (): void => store.markAllDue(),
    /**
     * Subscribes every due product with `callbackUrl`, in batches of at most 100, until none is due,
     * the merchant cannot be reached, the URL is refused, or `keepGoing` says the URL is no longer
     * the live one. One pass at a time.
     */
    subscribeDue(callbackUrl: string, signal?: AbortSignal, keepGoing?: () => boolean): Promise<SubscribePass> {
      const previous = running ?? Promise.resolve(null);
      const next = previous.then(
        () => pass(callbackUrl, signal, keepGoing),
        () => pass(callbackUrl, signal, keepGoing),
      );
      running = next;
      return next.finally(() => {
        if (running === next) running = null;
      });
    },
    /** Seconds (our clock) of the next due row; 0 = due now; null when nothing is watched. */
    nextDueAt: (): number | null => store.nextDueAt(),
    counts: (callbackUrl: string | null): WatchCounts => store.counts(callbackUrl, nowSeconds(), nowSeconds()),
  };
}

