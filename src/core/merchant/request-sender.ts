// One place that sends a merchant request (as stripe-node's RequestSender): quota slot, credentials in
// the two headers only, the envelope checked by HTTP status and `code`, the payload validated, and
// retries per interface v1 §7.5 with the same body every time. Nothing here ever logs or throws a credential.
//
// The merchant's refusals are obeyed here, once for every caller (contract §8.2):
// - Every answer (and every missing one) moves the connection state machine through the access gate
//   (connection/connection-state.ts): the header, the banners and the background workers read it.
//   So does slowness: an answer past the slow threshold, or one still awaited then (slow-answer.ts).
// - 401 / 403 are never retried and become a MerchantAccessError; the access gate then refuses every
//   later request of this connection without sending it (GET /account excepted, interface v1 §3.3).
// - A Retry-After (429 quota, 503) is stored per quota group in SQLite; a request whose group is held
//   waits for it when the wait fits the caller's limit (maxWaitMs), and otherwise fails at once with
//   MerchantNotBeforeError naming the time, instead of sleeping through it.
// - Every attempt's requestId is kept on the error that ends the call (MerchantError.requestIds).
import type { z } from 'zod';
import { TOTAL_QUOTA } from '../../shared/merchant-quotas';
import { findRequestId } from '../../shared/merchant/envelope';
import type { Logger } from '../logging/logger';
import type { Clock } from '../platform/clock';
import { TransportError, type HttpPort, type HttpResponse } from './http-port';
import type { AccessGate } from './access-gate';
import {
  isAccessStatus,
  MerchantAccessError,
  MerchantApiError,
  MerchantError,
  MerchantNotBeforeError,
  MerchantProtocolError,
  MerchantTransportError,
} from './merchant-errors';
import type { NotBeforeScope, NotBeforeStore } from './not-before-store';
import type { CooldownKind, QuotaGroup, QuotaModel, QuotaPriority } from './quota-model';
import { retryAfterMs } from './retry-after';
import { DEFAULT_RETRY_POLICY, retryDelayMs, shouldRetry, type RetryPolicy } from './retry-policy';
import { MERCHANT_ERROR } from '../../shared/merchant-error-codes';
import { realAnswerTimer, type AnswerTimer } from '../connection/slow-answer';

export interface MerchantCredentials {
  userId: string;
  apiKey: string;
}

export interface MerchantRequest<T> {
  method: 'GET' | 'POST';
  /** Path below the base URL, e.g. `/orders/create`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: Record<string, unknown>;
  group: QuotaGroup;
  cooldown?: { kind: CooldownKind; orderRef: string };
  /** Whether sending it twice is harmless (reads, and writes that carry a client reference). */
  repeatable: boolean;
  schema: z.ZodType<T>;
  /** Client-clock ms this call may wait for a merchant's Retry-After; default the sender's. */
  maxWaitMs?: number;
  /**
   * Attempts in all when the merchant answers 500 (default the policy's). The order outbox asks for 1:
   * it counts every 500 an intent meets over its life and retries itself (orders/outbox-server-failures.ts).
   */
  attemptsOn500?: number;
  /** Background requests yield to interactive ones and leave them a reserve (quota-model.ts); set by the client (request-priority.ts). */
  priority?: QuotaPriority;
}

export interface MerchantResult<T> {
  data: T;
  requestId: string;
  /** Real ms the answer took, present only when it was slow (connection/slow-answer.ts). */
  slowMs?: number;
}

export interface RequestSenderOptions {
  baseUrl: string;
  credentials: () => Promise<MerchantCredentials>;
  http: HttpPort;
  quota: QuotaModel;
  clock: Clock;
  logger: Logger;
  timeoutMs?: number;
  retry?: RetryPolicy;
  /** Where Retry-After holds are kept across processes; without it they hold only in this quota model. */
  notBefore?: NotBeforeStore;
  /** Remembers a 401/403 of this connection; without it every request is still sent. */
  access?: AccessGate;
  /** Client-clock ms a call may wait for a Retry-After before failing with MerchantNotBeforeError. */
  maxWaitMs?: number;
  /** Times each exchange against the slow threshold; default real time and SLOW_ANSWER_MS. */
  answerTimer?: AnswerTimer;
}

/**
 * The longest Retry-After a call sleeps through by default: one quota window (interface v1 §8 counts per
 * minute, so a merchant sharing the account with another client may fairly ask for up to 60 s).
 * Anything longer ends the call at once with MerchantNotBeforeError (a `Retry-After: 86400`
 * must not make a command sit silent); a caller that must answer sooner passes a smaller maxWaitMs.
 */
export const DEFAULT_MAX_WAIT_MS = 60_000;
/** The one path still sent while access is refused: it says whether a suspension is over. */
const ACCOUNT_PATH = '/account';

export type RequestSender = <T>(request: MerchantRequest<T>, signal?: AbortSignal) => Promise<MerchantResult<T>>;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function envelopeCode(body: unknown): number | null {
  if (typeof body !== 'object' || body === null || !('code' in body)) return null;
  return typeof body.code === 'number' && Number.isInteger(body.code) ? body.code : null;
}

/** Reads one HTTP answer into data or a typed error; never trusts `message`. `nowMs` dates a Retry-After. */
export function interpretResponse<T>(response: HttpResponse, schema: z.ZodType<T>, nowMs: number = Date.now()): MerchantResult<T> {
  const body = parseJson(response.body);
  const requestId = findRequestId(body) ?? response.headers['x-request-id'] ?? null;
  const code = envelopeCode(body);
  if (body === undefined || code === null) {
    const what = response.body.trimStart().startsWith('<') ? 'an HTML page' : response.body === '' ? 'an empty body' : 'not the interface envelope';
    throw new MerchantProtocolError(response.status, what, requestId);
  }
  if (code !== 0 || response.status !== 200) {
    if (code === 0) throw new MerchantProtocolError(response.status, 'success code with an error status', requestId);
    if (isAccessStatus(response.status)) throw new MerchantAccessError(response.status, code, requestId);
    throw new MerchantApiError(response.status, code, requestId, retryAfterMs(response.headers, nowMs));
  }
  if (requestId === null) throw new MerchantProtocolError(response.status, 'no requestId', null);
  const data = schema.safeParse((body as { data?: unknown }).data);
  if (!data.success) {
    const issue = data.error.issues[0];
    throw new MerchantProtocolError(response.status, `unexpected data at ${issue ? issue.path.join('.') || '(root)' : '?'}: ${issue?.message ?? 'invalid'}`, requestId);
  }
  return { data: data.data, requestId };
}

function buildUrl(baseUrl: string, path: string, query: MerchantRequest<unknown>['query']): string {
  const url = new URL(baseUrl.replace(/\/+$/, '') + path);
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
  return url.toString();
}

/** What a Retry-After of the latest attempt held back, and until when (client-clock ms). */
interface Held {
  scope: NotBeforeScope | null;
  untilMs: number;
}

export function createRequestSender(options: RequestSenderOptions): RequestSender {
  const policy = options.retry ?? DEFAULT_RETRY_POLICY;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const defaultMaxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  const { logger, clock, notBefore, access } = options;
  const answerTimer = options.answerTimer ?? realAnswerTimer();

  /** Which scope a Retry-After holds back (contract §8.1), or null when it is not a group's hold. */
  const holdScope = (group: QuotaGroup, error: MerchantApiError, limitHeader: string | undefined): NotBeforeScope | null => {
    if (error.retryAfterMs === null) return null;
    if (error.httpStatus === 503) return group;
    // A per-order cooldown (429110/1/2) holds one order, which the quota model keeps in memory.
    if (error.httpStatus !== 429 || error.code !== MERCHANT_ERROR.RATE_LIMITED) return null;
    return Number(limitHeader) === TOTAL_QUOTA.perMinute ? 'total' : group;
  };

  /** Waits for a stored hold on the group when it fits in the call's limit; throws when it does not. */
  const awaitHold = async (group: QuotaGroup, maxWaitMs: number, signal?: AbortSignal): Promise<void> => {
    if (!notBefore) return;
    const now = clock.nowMs();
    const hold = notBefore.holdOn(group, now);
    if (hold === null) return;
    if (hold.untilMs - now > maxWaitMs) throw new MerchantNotBeforeError(hold.scope, hold.untilMs, null);
    await clock.sleep(hold.untilMs - now, signal);
  };

  /** Every answer the sender sees moves the one connection state machine (through the access gate). */
  const observeFailure = (error: unknown, slowMs: number | null): void => {
    if (error instanceof MerchantApiError) {
      const retryAtMs = error.retryAfterMs === null ? null : clock.nowMs() + error.retryAfterMs;
      access?.observed({ kind: 'answered', httpStatus: error.httpStatus, code: error.code, requestId: error.requestId, retryAtMs, slowMs });
    } else if (error instanceof MerchantProtocolError) {
      access?.observed({ kind: 'malformed', httpStatus: error.httpStatus, requestId: error.requestId });
    }
  };

  /** `held` receives the scope and time a Retry-After of this attempt put on hold. */
  const attemptOnce = async <T>(request: MerchantRequest<T>, body: string | undefined, held: Held, signal?: AbortSignal): Promise<MerchantResult<T>> => {
    const refusal = request.path === ACCOUNT_PATH ? null : (access?.refusal() ?? null);
    if (refusal !== null) throw new MerchantAccessError(refusal.httpStatus, refusal.code, refusal.requestId, true);
    const lease = await options.quota.acquire(request.group, request.cooldown, signal, request.priority ?? 'interactive');
    const { userId, apiKey } = await options.credentials();
    const headers: Record<string, string> = { accept: 'application/json', 'x-service-user-id': userId, 'x-service-key': apiKey };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: HttpResponse;
    // Still unanswered past the threshold: the header says so now, not when (or whether) it comes.
    const stopwatch = answerTimer.start((elapsedMs) => access?.observed({ kind: 'pending', elapsedMs }));
    try {
      response = await options.http({ method: request.method, url: buildUrl(options.baseUrl, request.path, request.query), headers, timeoutMs, ...(body !== undefined ? { body } : {}) });
    } catch (error) {
      stopwatch.stop();
      lease.complete(null);
      if (error instanceof TransportError) {
        access?.observed({ kind: 'transport', reason: error.reason, connected: !error.neverConnected, requestId: error.requestId });
        throw new MerchantTransportError(error.failure, error.message, error.requestId, error.neverConnected, error.reason);
      }
      throw error;
    }
    stopwatch.stop();
    const elapsedMs = stopwatch.elapsedMs();
    const slowMs = elapsedMs > answerTimer.thresholdMs ? elapsedMs : null;
    lease.complete({ status: response.status, code: envelopeCode(parseJson(response.body)), headers: response.headers });
    try {
      const result = interpretResponse(response, request.schema, clock.nowMs());
      access?.observed({ kind: 'answered', httpStatus: response.status, code: 0, requestId: result.requestId, retryAtMs: null, slowMs });
      return slowMs === null ? result : { ...result, slowMs };
    } catch (error) {
      observeFailure(error, slowMs);
      if (error instanceof MerchantApiError) {
        const scope = holdScope(request.group, error, response.headers['x-ratelimit-limit']);
        if (error.retryAfterMs !== null && (error.httpStatus === 429 || error.httpStatus === 503)) {
          const now = clock.nowMs();
          held.untilMs = now + error.retryAfterMs;
          held.scope = scope ?? request.group;
          if (scope !== null) notBefore?.hold(scope, held.untilMs, error.requestId, now);
        }
      }
      throw error;
    }
  };

  return async (request, signal) => {
    // Serialised once: every retry sends exactly the same content (interface v1 §4.2.3).
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    // Each wait the merchant imposes is compared with this; our own quota waits are not (they are ours).
    const maxWaitMs = request.maxWaitMs ?? defaultMaxWaitMs;
    const requestIds: string[] = [];
    const held: Held = { scope: null, untilMs: 0 };
    // Set once an attempt that will be retried ended without a known outcome (see earlierAttemptUncertain).
    let uncertain = false;
    const ending = (error: MerchantError): MerchantError => {
      error.requestIds = [...requestIds];
      error.earlierAttemptUncertain = uncertain;
      return error;
    };
    // "Never reached" holds for the call only if it holds for every attempt: an earlier attempt whose
    // answer was lost may have been processed even though the last one was refused.
    let everReached = false;
    for (let attempt = 1; ; attempt++) {
      const started = clock.nowMs();
      try {
        held.scope = null;
        await awaitHold(request.group, maxWaitMs, signal);
        const result = await attemptOnce(request, body, held, signal);
        logger.debug('merchant request', { method: request.method, path: request.path, attempt, requestId: result.requestId, ms: Math.round(options.clock.nowMs() - started) });
        return result;
      } catch (error) {
        if (!(error instanceof MerchantError)) throw error;
        const caught = error;
        // Refused here without sending (a refused key, a stored hold) tells nothing about reaching it.
        const sentNothing = (caught instanceof MerchantTransportError && caught.neverReached) || (caught instanceof MerchantAccessError && caught.notSent) || (caught instanceof MerchantNotBeforeError && caught.requestId === null);
        if (!sentNothing) everReached = true;
        const failure = caught instanceof MerchantTransportError && everReached ? caught.maybeReached() : caught;
        if (failure.requestId !== null && !(failure instanceof MerchantAccessError && failure.notSent)) requestIds.push(failure.requestId);
        // A wait the caller cannot afford ends the call now, naming when it may be sent again.
        if (failure instanceof MerchantApiError && held.scope !== null && failure.retryAfterMs !== null && failure.retryAfterMs > maxWaitMs) {
          throw ending(new MerchantNotBeforeError(held.scope, held.untilMs, failure.requestId));
        }
        const callPolicy = request.attemptsOn500 === undefined ? policy : { ...policy, maxAttemptsOn500: request.attemptsOn500 };
        const retry = shouldRetry(failure, attempt, callPolicy, request.repeatable);
        logger.info('merchant request failed', {
          method: request.method,
          path: request.path,
          attempt,
          error: failure.message,
          requestId: failure.requestId,
          willRetry: retry,
        });
        if (!retry) throw ending(failure);
        if ((failure instanceof MerchantTransportError && !failure.neverReached) || failure instanceof MerchantProtocolError || (failure instanceof MerchantApiError && failure.httpStatus >= 500)) uncertain = true;
        await clock.sleep(retryDelayMs(failure, attempt, policy), signal);
      }
    }
  };
}
