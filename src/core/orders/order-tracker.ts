// Tracks accepted orders by polling GET /orders/{ref} at low frequency (poll-policy.ts) and applies
// each authenticated detail through applyOrderDetail: revision never moves back, allowedActions
// stored, refunds recorded, cards sealed into the vault, unknown states kept raw. A webhook or any
// other hint only makes an order due now (`nudge`): its content is never applied, the detail fetched
// here is (interface v1 §6.4.9). Requests go through the client's quota model, so polling many orders spreads
// out instead of meeting 429.
import type { Database } from 'better-sqlite3';
import type { Order } from '../../shared/merchant/order';
import type { SecretAwareLogger } from '../logging/logger';
import type { MerchantClient } from '../merchant/merchant-client';
import { MerchantError } from '../merchant/merchant-errors';
import type { Clock } from '../platform/clock';
import { createWorkerLoop, type WorkerPause } from '../platform/worker-loop';
import { DataKeyMissingError, type CardCipher } from '../vault/card-cipher';
import { applyOrderDetail, getStoredOrder, listRefunds, nextPollAt, ordersDueForPoll, schedulePoll, type StoredOrder } from './order-store';
import { DEFAULT_POLL_POLICY, needsPolling, pollDelayMs, type PollPolicy } from './poll-policy';
import { runBounded } from '../platform/bounded-pool';
import { createCallbackReach } from './callback-reach';

export interface OrderTrackerOptions {
  readonly db: Database;
  readonly client: MerchantClient;
  /** The client of reads nobody waits on (scheduled polls, recheck): request-priority.ts 'orderPoll'; default `client`. */
  readonly pollClient?: MerchantClient;
  readonly clock: Clock;
  readonly logger: SecretAwareLogger;
  readonly cipher: CardCipher;
  readonly policy?: PollPolicy;
  /** Whether webhooks are currently being received (polling then becomes rarer). */
  readonly webhooksLive?: () => boolean;
  /**
   * The callback URL webhooks arrive at now. Given, only an order whose messages go there is polled at
   * the rare pace live webhooks allow; one placed with another address is polled normally (callback-reach.ts).
   */
  readonly currentCallbackUrl?: () => string | null;
  /** Orders polled at the same time. */
  readonly concurrency?: number;
  readonly onChange?: (clientOrderRef: string) => void;
  /** The merchant's refusals and Retry-After holds: no polls meanwhile. */
  readonly pause?: WorkerPause;
}

/** Follows accepted orders by polling the authenticated detail until supply is over (webhooks only nudge it). */
export interface OrderTracker {
  /** Starts watching an order just accepted (the outbox calls it): first poll after the base delay. */
  track(order: Order): void;
  /** A hint that an order changed (webhook, user action): poll it soon. Its content is ignored. */
  nudge(clientOrderRef: string): void;
  /** Fetches and applies one order now (after an action, or when the user opens it). */
  refresh(clientOrderRef: string): Promise<StoredOrder | null>;
  /** As refresh, for a read nobody waits on (a webhook's re-check, catch-up): it yields the quota to the buyer. */
  recheck(clientOrderRef: string): Promise<StoredOrder | null>;
  /** Polls every order that is due; returns how many were. */
  pollDue(): Promise<number>;
  /** Polls due orders until stop(), at the pace the poll policy gives (rarely while webhooks are live). */
  start(): void;
  /** Stops polling and waits for the poll in flight. */
  stop(): Promise<void>;
}

export function createOrderTracker(options: OrderTrackerOptions): OrderTracker {
  const { db, client, clock, logger, cipher } = options;
  const policy = options.policy ?? DEFAULT_POLL_POLICY;
  const webhooksLive = options.webhooksLive ?? (() => false);
  const reach = createCallbackReach(db);
  const currentUrl = options.currentCallbackUrl;
  /** Webhooks are live and this order's messages come to them. */
  const hearsFrom = (ref: string): boolean => webhooksLive() && (currentUrl === undefined || reach.reaches(ref, currentUrl()));
  const concurrency = options.concurrency ?? 4;
  const inFlight = new Set<string>();

  const nowSeconds = (): number => Math.floor(clock.nowMs() / 1000);
  const at = (delayMs: number): number => Math.ceil((clock.nowMs() + delayMs) / 1000);

  /** Decides the next poll from what is stored now. */
  const reschedule = (ref: string, changed: boolean, polled: boolean): void => {
    const order = getStoredOrder(db, ref);
    if (order === null) return;
    const refundStates = listRefunds(db, ref).map((r) => r.state);
    const unchanged = changed ? 0 : order.unchangedPolls + (polled ? 1 : 0);
    const next = needsPolling(order.state, refundStates) ? at(pollDelayMs(policy, hearsFrom(ref), unchanged)) : null;
    schedulePoll(db, ref, next, unchanged, polled ? nowSeconds() : null);
  };

  /** Fetches the authenticated detail and applies it. Throws the client's typed errors. */
  const pollClient = options.pollClient ?? client;
  const refresh = async (ref: string, signal?: AbortSignal, via: MerchantClient = client): Promise<StoredOrder | null> => {
    const { data } = await via.getOrder(ref, signal);
    const result = applyOrderDetail({ db, cipher, logger, now: nowSeconds() }, data, 'orderDetail');
    reschedule(ref, result.changed, true);
    if (result.changed) {
      logger.info('order changed', { clientOrderRef: ref, state: data.state, revision: data.revision, cardsStored: result.cardsStored });
      options.onChange?.(ref);
    }
    return getStoredOrder(db, ref);
  };

  const pollOne = async (order: StoredOrder): Promise<void> => {
    if (inFlight.has(order.clientOrderRef)) return;
    inFlight.add(order.clientOrderRef);
    try {
      await refresh(order.clientOrderRef, loop.signal() ?? undefined, pollClient);
    } catch (error) {
      if (error instanceof DataKeyMissingError) {
        // Its cards cannot be sealed while the vault key is missing: nothing was stored, the merchant
        // keeps them. Back off like an unchanged poll instead of asking again every pass.
        reschedule(order.clientOrderRef, false, true);
        logger.warn('order poll not stored: the vault key is missing', { clientOrderRef: order.clientOrderRef });
        return;
      }
      if (!(error instanceof MerchantError)) throw error;
      // Not a change: back off as if nothing was seen, try again later.
      reschedule(order.clientOrderRef, false, true);
      logger.info('order poll failed', { clientOrderRef: order.clientOrderRef, error: error.message, requestId: error.requestId });
    } finally {
      inFlight.delete(order.clientOrderRef);
    }
  };

  const pollDue = async (): Promise<number> => {
    const due = ordersDueForPoll(db, nowSeconds(), 500).filter((o) => !inFlight.has(o.clientOrderRef));
    await runBounded(due, pollOne, { concurrency, stopWhen: () => loop.signal()?.aborted === true });
    return due.length;
  };

  // Until the next poll is due: at least a second, at most a minute.
  const loop = createWorkerLoop({
    clock,
    logger,
    name: 'order tracker',
    ...(options.pause ? { pause: options.pause } : {}),
    pass: () => pollDue(),
    waitMs: () => {
      const dueAt = nextPollAt(db);
      return dueAt === null ? 60_000 : Math.min(60_000, Math.max(1000, dueAt * 1000 - clock.nowMs()));
    },
  });

  return {
    /** Starts watching an order just accepted (the outbox calls it): first poll after the base delay. */
    track(order: Order): void {
      reschedule(order.clientOrderRef, true, false);
      // The loop may be asleep for up to a minute with nothing due; its next wake-up must be this
      // order's first poll (15 s), or a new order's outcome shows a minute late.
      loop.poke();
    },
    /** A hint that an order changed (webhook, user action): poll it soon. Its content is ignored. */
    nudge(clientOrderRef: string): void {
      schedulePoll(db, clientOrderRef, nowSeconds(), 0, null);
      loop.poke();
    },
    /**
     * Fetches and applies one order now (after an action, or when the user opens it). The loop is poked
     * after: it may be asleep for up to a minute, and the poll this answer scheduled (a refund now
     * pending: 15 s) must not wait for that, or a refund the merchant credits shows a minute late.
     */
    refresh: async (clientOrderRef: string): Promise<StoredOrder | null> => {
      const stored = await refresh(clientOrderRef);
      loop.poke();
      return stored;
    },
    recheck: (clientOrderRef: string): Promise<StoredOrder | null> => refresh(clientOrderRef, undefined, pollClient),
    /** Polls every order that is due; returns how many were. */
    pollDue,
    start: () => loop.start(),
    stop: () => loop.stop(),
  };
}

