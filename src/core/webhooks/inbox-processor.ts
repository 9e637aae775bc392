// Processes the webhook inbox after the receiver has answered (spec 6.4.3), one event at a time,
// idempotently: an event is finished once (processed_at), and every effect it has is itself
// idempotent (product revisions never move back, orders by revision, cards by (order, seq), case
// messages by messageRef), so a crash between effect and bookkeeping repeats nothing visible.
//
// What each kind does (the body is a hint; only what the merchant confirms is recorded):
// - product.changed: a hint (spec 6.4.9): applyProductChangedEvent reads the product's detail with our
//   key and applies that, never the snapshot; a revision far in the future is refused unasked, one no
//   newer than the stored detail needs no request, and a hint that arrived before this run last read
//   the product's detail is covered by that read (a burst of hints costs one request, within quota).
// - order.changed: the hook's content is never applied; tracker.refresh does the authenticated
//   GET /orders/{ref} and applies that (refunds only from it, spec 6.4.9). Only for refs of this
//   app's own order intents: any other ref is ignored without a request.
// - order.credentials.ready: the same refresh; cards reach the vault only from the detail. The
//   sealed copy of the hook's cards is compared with the vault to say in the outcome whether the
//   sender's claim matched, then dropped.
// - aftersale.message.created: GET /aftersales/{ref}, stored with each message once.
// - unknown types: finished as 'ignored: unknown type'.
// A failure the merchant may answer differently later (unreachable, 5xx, quota, credentials) is
// retried with backoff, without end: an event is never lost.
import type { Database } from 'better-sqlite3';
import { parseWebhookBody, type WebhookEvent } from '../../shared/merchant/webhook-events';
import type { CatalogRepository } from '../catalog/catalog-repository';
import { applyProductChangedEvent } from '../catalog/product-changes';
import type { SecretAwareLogger } from '../logging/logger';
import type { MerchantClient } from '../merchant/merchant-client';
import { MerchantApiError } from '../merchant/merchant-errors';
import { backoffMs, type BackoffRule } from '../../shared/backoff';
import type { OrderTracker } from '../orders/order-tracker';
import type { Clock } from '../platform/clock';
import { createWorkerLoop, type WorkerPause } from '../platform/worker-loop';
import type { CardCipher } from '../vault/card-cipher';
import { applyAftersaleCase } from './aftersale-case-store';
import { createWebhookInbox, type InboxEntry, type SealedCard, type WebhookInbox } from './webhook-inbox';
import { MERCHANT_ERROR } from '../../shared/merchant-error-codes';

const NOT_OURS = 'ignored: no order of this app has this clientOrderRef';

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

type Result = { final: true; outcome: string } | { final: false; outcome: string };

const BATCH = 50;
const IDLE_WAIT_MS = 30_000;

export function createInboxProcessor(options: InboxProcessorOptions): InboxProcessor {
  const { db, cipher, clock, logger, catalog, client, tracker } = options;
  const inbox: WebhookInbox = createWebhookInbox(db, cipher);
  const rule = options.backoff ?? DEFAULT_INBOX_BACKOFF;
  const random = options.random ?? Math.random;
  const nowSeconds = (): number => Math.floor(clock.nowMs() / 1000);
  let running: Promise<number> | null = null;
  /** productRef → clock seconds when a hint's detail read was sent (older hints are covered by it). */
  const detailReadAt = new Map<number, number>();
  let again = false;

  /** Does the sender's copy of the cards match what the merchant's detail put in the vault? */
  const cardsMatch = (ref: string, claimed: readonly SealedCard[]): boolean => {
    const stored = db
      .prepare<[string], { seq: number; card_no_sealed: Buffer; card_password_sealed: Buffer }>(
        'SELECT seq, card_no_sealed, card_password_sealed FROM cards WHERE client_order_ref = ? ORDER BY seq',
      )
      .all(ref);
    if (stored.length !== claimed.length) return false;
    const same = (sealed: Buffer, claim: Buffer, record: { clientOrderRef: string; seq: number; field: 'card_no' | 'card_password' }): boolean => {
      try {
        return cipher.unseal(sealed, record) === cipher.unseal(claim, record);
      } catch {
        // A claim sealed under a key this run no longer holds cannot be compared: not a match.
        return false;
      }
    };
    return stored.every((row, index) => {
      const claim = claimed[index];
      if (claim === undefined || row.seq !== index) return false;
      const no = { clientOrderRef: ref, seq: index, field: 'card_no' as const };
      const pw = { clientOrderRef: ref, seq: index, field: 'card_password' as const };
      return same(row.card_no_sealed, claim.cardNo, no) && same(row.card_password_sealed, claim.cardPassword, pw);
    });
  };

  // Orders are stored only under an intent this app wrote (0002); a hook about any other ref is not
  // ours to act on, and is not worth a merchant request either.
  const isOurOrder = (ref: string): boolean =>
    db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM order_intents WHERE client_order_ref = ?').get(ref)?.n === 1;

  const countCards = (ref: string): number =>
    db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM cards WHERE client_order_ref = ?').get(ref)?.n ?? 0;

  const handle = async (entry: InboxEntry, event: WebhookEvent): Promise<Result> => {
    switch (event.eventType) {
      case 'product.changed': {
        const readAt = detailReadAt.get(event.productRef);
        // Seconds are coarse: only a read sent a whole second after the hint arrived surely saw it.
        if (readAt !== undefined && readAt > entry.receivedAt) {
          return { final: true, outcome: `checked: product ${event.productRef} detail read after this hint arrived; the hint's snapshot is not stored` };
        }
        const sentAt = nowSeconds();
        try {
          const result = await applyProductChangedEvent({ repository: catalog, client, nowSeconds }, event);
          if (result.kind === 'refused') return { final: true, outcome: `refused: product ${result.productRef} hint ${result.reason}; nothing asked or stored` };
          if (result.kind === 'stale') return { final: true, outcome: `ignored: stale snapshot of product ${result.productRef} revision ${result.revision} (stored ${result.storedRevision})` };
          detailReadAt.set(event.productRef, sentAt);
          if (detailReadAt.size > 1000) detailReadAt.clear();
          return { final: true, outcome: `applied: product ${result.productRef} revision ${result.revision} (detail fetched)` };
        } catch (error) {
          if (error instanceof MerchantApiError && error.code === MERCHANT_ERROR.RESOURCE_NOT_VISIBLE) return { final: true, outcome: 'ignored: product not visible to this account' };
          throw error;
        }
      }
      case 'order.changed': {
        if (!isOurOrder(event.clientOrderRef)) return { final: true, outcome: NOT_OURS };
        try {
          const order = await tracker.refresh(event.clientOrderRef);
          return { final: true, outcome: `refreshed: order ${event.clientOrderRef} state ${order?.state ?? 'unknown'} revision ${order?.revision ?? '?'} (from GET /orders)` };
        } catch (error) {
          if (error instanceof MerchantApiError && error.code === MERCHANT_ERROR.ORDER_NOT_FOUND) return { final: true, outcome: 'unconfirmed: the merchant does not know this order; nothing recorded' };
          throw error;
        }
      }
      case 'order.credentials.ready': {
        const ref = event.clientOrderRef;
        if (!isOurOrder(ref)) return { final: true, outcome: `${NOT_OURS}; no cards recorded` };
        const before = countCards(ref);
        try {
          await tracker.refresh(ref);
        } catch (error) {
          if (error instanceof MerchantApiError && error.code === MERCHANT_ERROR.ORDER_NOT_FOUND) return { final: true, outcome: 'unconfirmed: the merchant does not know this order; no cards recorded' };
          throw error;
        }
        const after = countCards(ref);
        if (after === 0) return { final: true, outcome: 'unconfirmed: the merchant detail has no card_list; no cards recorded' };
        const claimed = inbox.sealedCards(entry.eventId);
        const match = cardsMatch(ref, claimed);
        return {
          final: true,
          outcome: match
            ? `confirmed: ${after} cards from GET /orders (${after - before} new)`
            : `mismatch: the hook's cards differ from the merchant detail; only the detail's ${after} cards are kept (${after - before} new)`,
        };
      }
      case 'aftersale.message.created': {
        try {
          const { data } = await client.getAftersale(event.platformCaseRef);
          const result = applyAftersaleCase(db, data, nowSeconds());
          const confirmed = data.messages.some((m) => m.messageRef === event.message.messageRef);
          return {
            final: true,
            outcome: `${confirmed ? 'stored' : 'unconfirmed: message not in the case detail;'} case ${data.platformCaseRef} state ${data.state}, ${result.messagesAdded} new messages (from GET /aftersales)`,
          };
        } catch (error) {
          if (error instanceof MerchantApiError && error.code === MERCHANT_ERROR.AFTERSALE_NOT_FOUND) return { final: true, outcome: 'unconfirmed: the merchant does not know this case; nothing recorded' };
          throw error;
        }
      }
    }
  };

  const processOne = async (entry: InboxEntry): Promise<void> => {
    inbox.beginAttempt(entry.eventId);
    // The credentials body is stored without card_list (sealed apart); the schema wants one.
    const body = entry.eventType === 'order.credentials.ready' ? { ...entry.body, card_list: [] } : entry.body;
    const parsed = parseWebhookBody(body);
    let result: Result;
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
    if (result.final) {
      if (inbox.finish(entry.eventId, result.outcome, nowSeconds())) {
        logger.info('webhook processed', { eventId: entry.eventId, eventType: entry.eventType, outcome: result.outcome });
        options.onProcessed?.(entry.eventId, entry.eventType, result.outcome);
      }
      return;
    }
    const delay = backoffMs(rule, entry.attempts + 1, random);
    const at = Math.ceil((clock.nowMs() + delay) / 1000);
    inbox.retryLater(entry.eventId, result.outcome, at);
    logger.warn('webhook processing failed; will retry', { eventId: entry.eventId, eventType: entry.eventType, outcome: result.outcome, retryAt: at });
  };

  const pass = async (): Promise<number> => {
    let total = 0;
    for (;;) {
      if (loop.signal()?.aborted === true) return total;
      const due = inbox.due(nowSeconds(), BATCH);
      for (const entry of due) {
        await processOne(entry);
        total++;
      }
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
