// The message outbox: sends the buyer's messages to the merchant exactly once each.
//
// A message is written with its clientMessageRef before the first send (outbox-store.ts), so every
// retry, and every send after a restart, carries the same ref, text and images; contract §9.2 makes
// the merchant return the original message for them and append nothing. For each due message:
//   queued | retrying → 'sending' (durably, before the request) → POST /aftersales/{ref}/messages.
// Outcomes:
//   message returned                 → sent; the case detail is read again so that the merchant's
//                                      copy (same clientMessageRef) takes the local row's place.
//   network, timeout, malformed, 5xx → retrying with backoff: the merchant may have stored it, and
//                                      sending it again is harmless.
//   429                              → retrying after Retry-After; 401/403 → retrying slowly (the
//                                      account, not the message, is the problem).
//   409104 (case closed), 404003, 400001, 422112, 409001 → failed, with the code and requestId; the
//                                      buyer sees why. 409001 is logged loudly: it would be a bug.
// A transport failure pauses the outbox for a while (the merchant is away), so queued messages wait,
// visible, instead of each hammering a dead address; once any request reaches the merchant again,
// the messages that waited out the outage go at once.
import type { Database } from 'better-sqlite3';
import type { SecretAwareLogger } from '../logging/logger';
import type { MerchantClient, MessageBody } from '../merchant/merchant-client';
import { MerchantApiError, MerchantError, MerchantProtocolError, MerchantTransportError } from '../merchant/merchant-errors';
import { backoffMs, type BackoffRule } from '../../shared/backoff';
import type { Clock } from '../platform/clock';
import type { CaseTracker } from './case-tracker';
import {
  claimForSending,
  dueMessages,
  getOutboxMessage,
  makeOfflineRetriesDue,
  markFailed,
  markInterruptedForRetry,
  markRetrying,
  markSent,
  nextDueAt,
  type AttemptNote,
  type OutboxMessage,
} from './outbox-store';
import { MERCHANT_ERROR } from '../../shared/merchant-error-codes';

export interface MessageOutboxOptions {
  readonly db: Database;
  readonly client: Pick<MerchantClient, 'postAftersaleMessage'>;
  readonly clock: Clock;
  readonly logger: SecretAwareLogger;
  readonly tracker: Pick<CaseTracker, 'refresh' | 'soon'>;
  /** Between attempts of one message after a merchant-side failure (5xx, malformed, 429). */
  readonly retry?: BackoffRule;
  /** While the merchant is unreachable. */
  readonly offline?: BackoffRule;
}

const DEFAULT_RETRY: BackoffRule = { baseMs: 2_000, maxMs: 5 * 60_000 };
const DEFAULT_OFFLINE: BackoffRule = { baseMs: 2_000, maxMs: 60_000 };
const BLOCKED_RETRY: BackoffRule = { baseMs: 60_000, maxMs: 30 * 60_000 };

/** The message body, built only from the stored row: every send is the same request. */
function messageBodyOf(message: OutboxMessage): MessageBody {
  return { clientMessageRef: message.clientMessageRef, text: message.text, ...(message.images.length > 0 ? { images: message.images } : {}) };
}

/** Why an attempt failed, in words the buyer can read; codes are the merchant's or ours. */
export function noteOf(error: unknown): AttemptNote {
  if (error instanceof MerchantApiError) {
    const words: Record<number, string> = {
      [MERCHANT_ERROR.CASE_ACTION_NOT_ALLOWED]: 'the case is closed: the merchant takes no more messages on it',
      [MERCHANT_ERROR.AFTERSALE_NOT_FOUND]: 'the merchant does not know this case',
      [MERCHANT_ERROR.IDEMPOTENCY_CONFLICT]: 'the merchant holds different content under this message reference',
      [MERCHANT_ERROR.INVALID_ARGUMENT]: 'the merchant refused the message as invalid',
      [MERCHANT_ERROR.IMAGE_URL_INVALID]: 'the merchant refused an image address',
    };
    const said = words[error.code] ?? (error.httpStatus >= 500 ? 'the merchant had a problem' : error.httpStatus === 429 ? 'the merchant asked to slow down' : `the merchant refused (${error.errorName})`);
    return { code: String(error.code), message: said, requestId: error.requestId };
  }
  if (error instanceof MerchantTransportError) {
    return { code: error.failure === 'timeout' ? 'TIMEOUT' : 'TRANSPORT', message: error.failure === 'timeout' ? 'the merchant did not answer in time' : 'the merchant could not be reached', requestId: error.requestId };
  }
  if (error instanceof MerchantProtocolError) return { code: 'PROTOCOL', message: 'the merchant answered with something unexpected', requestId: error.requestId };
  return { code: 'LOCAL', message: 'the app could not send it', requestId: null };
}

/** Sends queued buyer messages under their stored clientMessageRef, pausing while the merchant is unreachable. */
export interface MessageOutbox {
  /** Start-up: messages left 'sending' by a crash are sent again (same ref: safe). Returns how many. */
  recover(): number;
  /** Sends what is due now, oldest first, one message per case at a time; returns how many were tried. */
  runOnce(signal?: AbortSignal): Promise<number>;
  /** Core-clock ms of the next due message (null: none); an outage pause pushes it back. */
  nextWakeMs(): number | null;
  /** Something new to send, or the network is back: stop waiting out the outage. */
  poke(): void;
  /** Any answer from the merchant: the outage (if there was one) is over, waiting messages go now. */
  reachable(): void;
}

export function createMessageOutbox(options: MessageOutboxOptions): MessageOutbox {
  const { db, client, clock, logger, tracker } = options;
  const retryRule = options.retry ?? DEFAULT_RETRY;
  const offlineRule = options.offline ?? DEFAULT_OFFLINE;
  /** Consecutive failed attempts per message, for its backoff. */
  const failures = new Map<string, number>();
  let offlineFailures = 0;
  let pausedUntilMs = 0;

  const nowSeconds = (): number => Math.floor(clock.nowMs() / 1000);
  const afterMs = (ms: number): number => Math.ceil((clock.nowMs() + ms) / 1000);
  const bump = (ref: string): number => {
    const n = (failures.get(ref) ?? 0) + 1;
    failures.set(ref, n);
    return n;
  };

  const wentOffline = (): void => {
    offlineFailures += 1;
    pausedUntilMs = clock.nowMs() + backoffMs(offlineRule, offlineFailures);
  };

  /** Any answer from the merchant: the outage (if there was one) is over. */
  const reachable = (): void => {
    const wasOffline = offlineFailures > 0 || pausedUntilMs > clock.nowMs();
    offlineFailures = 0;
    pausedUntilMs = 0;
    if (wasOffline && makeOfflineRetriesDue(db, nowSeconds()) > 0) logger.info('merchant reachable again; waiting messages go now');
  };

  const failed = async (message: OutboxMessage, error: unknown): Promise<void> => {
    const ref = message.clientMessageRef;
    const note = noteOf(error);
    const now = nowSeconds();
    if (error instanceof MerchantTransportError) {
      markRetrying(db, ref, note, afterMs(backoffMs(offlineRule, bump(ref))), now);
      wentOffline();
      logger.warn('message not delivered; it will be sent again with the same ref', { clientMessageRef: ref, code: note.code });
      return;
    }
    if (!(error instanceof MerchantApiError)) {
      markRetrying(db, ref, note, afterMs(backoffMs(retryRule, bump(ref))), now);
      if (!(error instanceof MerchantError)) logger.error('unexpected failure while sending a message', { clientMessageRef: ref, error: error instanceof Error ? error.name : 'unknown' });
      return;
    }
    reachable();
    if (error.httpStatus === 429) {
      const wait = Math.max(error.retryAfterMs ?? 0, backoffMs(retryRule, bump(ref)));
      markRetrying(db, ref, note, afterMs(wait), now);
    } else if (error.httpStatus === 401 || error.httpStatus === 403) {
      markRetrying(db, ref, note, afterMs(backoffMs(BLOCKED_RETRY, bump(ref))), now);
      logger.warn('the merchant refused the account; the message stays queued', { clientMessageRef: ref, code: error.code, requestId: error.requestId });
    } else if (error.httpStatus >= 500) {
      markRetrying(db, ref, note, afterMs(backoffMs(retryRule, bump(ref))), now);
    } else {
      markFailed(db, ref, note, now);
      failures.delete(ref);
      if (error.code === MERCHANT_ERROR.IDEMPOTENCY_CONFLICT) {
        logger.error('IDEMPOTENCY CONFLICT: the merchant holds different content under this clientMessageRef; stopped, needs a person', {
          clientMessageRef: ref,
          requestId: error.requestId,
        });
      } else {
        logger.info('message refused by the merchant', { clientMessageRef: ref, platformCaseRef: message.platformCaseRef, code: error.code, requestId: error.requestId });
      }
      // A closed or unknown case: show its state as the merchant has it now.
      if (error.code === MERCHANT_ERROR.CASE_ACTION_NOT_ALLOWED) await tracker.refresh(message.platformCaseRef).catch(() => undefined);
    }
  };

  const send = async (ref: string, signal?: AbortSignal): Promise<void> => {
    if (!claimForSending(db, ref, nowSeconds())) return;
    const message = getOutboxMessage(db, ref);
    if (message === null) return;
    let accepted: Awaited<ReturnType<MerchantClient['postAftersaleMessage']>>;
    try {
      accepted = await client.postAftersaleMessage(message.platformCaseRef, messageBodyOf(message), signal);
    } catch (error) {
      await failed(message, error);
      return;
    }
    reachable();
    failures.delete(ref);
    markSent(db, ref, { messageRef: accepted.data.messageRef, createdAt: accepted.data.createdAt, requestId: accepted.requestId }, nowSeconds());
    logger.info('message sent', { clientMessageRef: ref, platformCaseRef: message.platformCaseRef, messageRef: accepted.data.messageRef, requestId: accepted.requestId });
    tracker.soon(message.platformCaseRef);
    try {
      // The merchant's list, with this message in its place: the local row then yields to it.
      await tracker.refresh(message.platformCaseRef, signal);
    } catch (error) {
      logger.info('case refresh after a message failed; the next poll brings it', { platformCaseRef: message.platformCaseRef, error: error instanceof Error ? logger.redact(error.message) : 'unknown' });
    }
  };

  return {
    /** Start-up: messages left 'sending' by a crash are sent again (same ref: safe). Returns how many. */
    recover(): number {
      const count = markInterruptedForRetry(db, nowSeconds());
      if (count > 0) logger.warn('messages interrupted while sending; they are sent again with the same ref', { count });
      return count;
    },
    /** Sends what is due now, oldest first, one message per case at a time; returns how many were tried. */
    async runOnce(signal?: AbortSignal): Promise<number> {
      let worked = 0;
      for (;;) {
        if (clock.nowMs() < pausedUntilMs || signal?.aborted === true) return worked;
        // One at a time, re-read after each: a send can make the next message of its case due.
        const [next] = dueMessages(db, nowSeconds(), 1);
        if (next === undefined) return worked;
        worked += 1;
        await send(next.clientMessageRef, signal);
      }
    },
    /** Core-clock ms of the next due message (null: none); an outage pause pushes it back. */
    nextWakeMs(): number | null {
      const dueAt = nextDueAt(db);
      if (dueAt === null) return null;
      return Math.max(dueAt * 1000, pausedUntilMs);
    },
    /** Something new to send, or the network is back: stop waiting out the outage. */
    poke(): void {
      pausedUntilMs = 0;
    },
    reachable,
  };
}

