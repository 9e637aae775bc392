// Processes the webhook inbox after the receiver has answered (interface v1 §6.4.3), one event at a time,
// idempotently: an event is finished once (processed_at), and every effect it has is itself
// idempotent (product revisions never move back, orders by revision, cards by (order, seq), case
// messages by messageRef), so a crash between effect and bookkeeping repeats nothing visible.
//
// What each kind does (the body is a hint; only what the merchant confirms is recorded):
// - product.changed: a hint (interface v1 §6.4.9): applyProductChangedEvent reads the product's detail with our
//   key and applies that, never the snapshot; a revision far in the future is refused unasked, one no
//   newer than the stored detail needs no request, and a hint that arrived before this run last read
//   the product's detail is covered by that read (a burst of hints costs one request, within quota).
// - order.changed: the hook's content is never applied; tracker.refresh does the authenticated
//   GET /orders/{ref} and applies that (refunds only from it, interface v1 §6.4.9). Only for refs of this
//   app's own order intents: any other ref is ignored without a request.
// - order.credentials.ready: the same refresh; cards reach the vault only from the detail. The
//   sealed copy of the hook's cards is compared with the vault to say in the outcome whether the
//   sender's claim matched, then dropped.
// - aftersale.message.created: GET /aftersales/{ref}, stored with each message once.
// - unknown types: finished as 'ignored: unknown type'.
// A failure the merchant may answer differently later (unreachable, 5xx, quota, credentials) is
// retried with backoff, without end: an event is never lost.
import type { Database } from 'better-sqlite3';
import { parseWebhookBody } from '../../shared/merchant/webhook-events';
import type { CatalogRepository } from '../catalog/catalog-repository';
import type { SecretAwareLogger } from '../logging/logger';
import type { MerchantClient } from '../merchant/merchant-client';
import { backoffMs, type BackoffRule } from '../../shared/backoff';
import type { OrderTracker } from '../orders/order-tracker';
import type { Clock } from '../platform/clock';
import { createWorkerLoop, type WorkerPause } from '../platform/worker-loop';
import type { CardCipher } from '../vault/card-cipher';
import { createEventHandlers, type HandleResult } from './inbox-event-handlers';
import { createWebhookInbox, type InboxEntry, type WebhookInbox } from './webhook-inbox';

export const DEFAULT_INBOX_BACKOFF: BackoffRule = { baseMs: 5_000, maxMs: 15 * 60_000 };

export interface InboxProcessorOptions {
  readonly db: Database;
  readonly cipher: CardCipher;
  readonly clock: Clock;
  readonly logger: SecretAwareLogger;
  readonly catalog: CatalogRepository;
  readonly client: Pick<MerchantClient, 'getProduct' | 'getTemplate' | 'getAftersale'>;
  readonly tracker: Pick<OrderTracker, 'refresh'>;
  readonly backoff?: BackoffRule;
  /** The merchant's refusals and Retry-After holds: no passes meanwhile. */
  readonly pause?: WorkerPause;
  readonly random?: () => number;
  /** Called after an event is finished, with its outcome (UI notifications, tests). */
  readonly onProcessed?: (eventId: string, eventType: string, outcome: string) => void;
}

export interface InboxProcessor {
  /** Processes every event due now; resolves with how many were tried. */
  processPending(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
  /** A new event is in the inbox: process soon. */
  poke(): void;
}

const BATCH = 50;
const IDLE_WAIT_MS = 30_000;

export function createInboxProcessor(options: InboxProcessorOptions): InboxProcessor {
  const { db, cipher, clock, logger, catalog, client, tracker } = options;
  const inbox: WebhookInbox = createWebhookInbox(db, cipher);
  const rule = options.backoff ?? DEFAULT_INBOX_BACKOFF;
  const random = options.random ?? Math.random;
  const nowSeconds = (): number => Math.floor(clock.nowMs() / 1000);
  let running: Promise<number> | null = null;
  let again = false;

  const handle = createEventHandlers({ db, cipher, catalog, client, tracker, inbox, nowSeconds });

  /** Handles one event; a final outcome is returned for the batch's one commit, a failure is scheduled again now. */
  const processOne = async (entry: InboxEntry): Promise<{ eventId: string; outcome: string } | null> => {
    // The credentials body is stored without card_list (sealed apart); the schema wants one.
    const body = entry.eventType === 'order.credentials.ready' ? { ...entry.body, card_list: [] } : entry.body;
    const parsed = parseWebhookBody(body);
    let result: HandleResult;
    if (parsed.kind === 'unknownType') {
      result = { final: true, outcome: 'ignored: unknown type' };
    } else if (parsed.kind === 'invalid') {
      result = { final: true, outcome: 'ignored: stored body no longer valid' };
    } else {
      try {
        result = await handle(entry, parsed.event);
      } catch (error) {
        const message = error instanceof Error ? logger.redact(error.message) : 'unknown error';
        result = { final: false, outcome: `failed: ${message}` };
      }
    }
    if (result.final) return { eventId: entry.eventId, outcome: result.outcome };
    const delay = backoffMs(rule, entry.attempts + 1, random);
    const at = Math.ceil((clock.nowMs() + delay) / 1000);
    inbox.retryLater(entry.eventId, result.outcome, at);
    logger.warn('webhook processing failed; will retry', { eventId: entry.eventId, eventType: entry.eventType, outcome: result.outcome, retryAt: at });
    return null;
  };

  /**
   * One batch: its attempts counted in one commit, its final outcomes stored in one more. Every commit
   * waits for the disk (synchronous=FULL) on the thread that also answers webhooks, so two per batch
   * instead of two per event keep the receiver's acknowledgements quick under a flood. An event whose
   * outcome was not yet committed when the process died is handled again: every handler re-checks with
   * the merchant and stores facts idempotently.
   */
  const processBatch = async (due: readonly InboxEntry[]): Promise<void> => {
    inbox.beginAttempts(due.map((entry) => entry.eventId));
    const finals: { eventId: string; outcome: string }[] = [];
    try {
      for (const entry of due) {
        const final = await processOne(entry);
        if (final !== null) finals.push(final);
      }
    } finally {
      const finished = new Set(inbox.finishMany(finals, nowSeconds()));
      for (const entry of due) {
        const final = finals.find((f) => f.eventId === entry.eventId);
        if (final === undefined || !finished.has(entry.eventId)) continue;
        logger.info('webhook processed', { eventId: entry.eventId, eventType: entry.eventType, outcome: final.outcome });
        options.onProcessed?.(entry.eventId, entry.eventType, final.outcome);
      }
    }
  };

  const pass = async (): Promise<number> => {
    let total = 0;
    for (;;) {
      if (loop.signal()?.aborted === true) return total;
      const due = inbox.due(nowSeconds(), BATCH);
      await processBatch(due);
      total += due.length;
      if (due.length < BATCH) return total;
    }
  };

  const processPending = async (): Promise<number> => {
    if (running !== null) {
      // One pass at a time; a poke during a pass makes it run once more.
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      do {
        again = false;
        total += await pass();
      } while (again);
      return total;
    })();
    try {
      return await running;
    } finally {
      running = null;
    }
  };

  const loop = createWorkerLoop({
    clock,
    logger,
    name: 'inbox',
    ...(options.pause ? { pause: options.pause } : {}),
    pass: () => processPending(),
    waitMs: () => {
      const next = inbox.nextDueAt();
      return next === null ? IDLE_WAIT_MS : Math.min(IDLE_WAIT_MS, Math.max(250, next * 1000 - clock.nowMs()));
    },
  });

  return {
    processPending,
    start: () => loop.start(),
    async stop() {
      await loop.stop();
      await running;
    },
    poke() {
      if (running !== null) again = true;
      loop.poke();
    },
  };
}
