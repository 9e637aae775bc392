// One place that sends a merchant request (as stripe-node's RequestSender): quota slot, credentials in
// the two headers only, the envelope checked by HTTP status and `code`, the payload validated, and
// retries per spec 7.5 with the same body every time. Nothing here ever logs or throws a credential.
import type { z } from 'zod';
import { findRequestId } from '../../../shared/merchant/envelope';
import type { Logger } from '../logging/logger';
import type { Clock } from '../platform/clock';
import { TransportError, type HttpPort, type HttpResponse } from './http-port';
import { MerchantApiError, MerchantError, MerchantProtocolError, MerchantTransportError } from './merchant-errors';
import type { CooldownKind, QuotaGroup, QuotaModel } from './quota-model';
import { DEFAULT_RETRY_POLICY, retryDelayMs, shouldRetry, type RetryPolicy } from './retry-policy';

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
}

export interface MerchantResult<T> {
  data: T;
  requestId: string;
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
}

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

function retryAfter(headers: Record<string, string>): number | null {
  const value = headers['retry-after']?.trim();
  return value !== undefined && /^\d+$/.test(value) ? Number(value) * 1000 : null;
}

/** Reads one HTTP answer into data or a typed error; never trusts `message`. */
export function interpretResponse<T>(response: HttpResponse, schema: z.ZodType<T>): MerchantResult<T> {
  const body = parseJson(response.body);
  const requestId = findRequestId(body) ?? response.headers['x-request-id'] ?? null;
  const code = envelopeCode(body);
  if (body === undefined || code === null) {
    const what = response.body.trimStart().startsWith('<') ? 'an HTML page' : response.body === '' ? 'an empty body' : 'not the interface envelope';
    throw new MerchantProtocolError(response.status, what, requestId);
  }
  if (code !== 0 || response.status !== 200) {
    if (code === 0) throw new MerchantProtocolError(response.status, 'success code with an error status', requestId);
    throw new MerchantApiError(response.status, code, requestId, retryAfter(response.headers));
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

export function createRequestSender(options: RequestSenderOptions): RequestSender {
  const policy = options.retry ?? DEFAULT_RETRY_POLICY;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const { logger } = options;

  const attemptOnce = async <T>(request: MerchantRequest<T>, body: string | undefined, signal?: AbortSignal): Promise<MerchantResult<T>> => {
    const lease = await options.quota.acquire(request.group, request.cooldown, signal);
    const { userId, apiKey } = await options.credentials();
    const headers: Record<string, string> = { accept: 'application/json', 'x-service-user-id': userId, 'x-service-key': apiKey };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: HttpResponse;
    try {
      response = await options.http({ method: request.method, url: buildUrl(options.baseUrl, request.path, request.query), headers, timeoutMs, ...(body !== undefined ? { body } : {}) });
    } catch (error) {
      lease.complete(null);
      if (error instanceof TransportError) throw new MerchantTransportError(error.failure, error.message, error.requestId, error.neverConnected);
      throw error;
    }
    lease.complete({ status: response.status, code: envelopeCode(parseJson(response.body)), headers: response.headers });
    return interpretResponse(response, request.schema);
  };

  return async (request, signal) => {
    // Serialised once: every retry sends exactly the same content (spec 4.2.3).
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    // "Never reached" holds for the call only if it holds for every attempt: an earlier attempt whose
    // answer was lost may have been processed even though the last one was refused.
    let everReached = false;
    for (let attempt = 1; ; attempt++) {
      const started = options.clock.nowMs();
      try {
        const result = await attemptOnce(request, body, signal);
        logger.debug('merchant request', { method: request.method, path: request.path, attempt, requestId: result.requestId, ms: Math.round(options.clock.nowMs() - started) });
        return result;
      } catch (error) {
        if (!(error instanceof MerchantError)) throw error;
        if (!(error instanceof MerchantTransportError && error.neverReached)) everReached = true;
        const failure = error instanceof MerchantTransportError && everReached ? error.maybeReached() : error;
        const retry = shouldRetry(failure, attempt, policy, request.repeatable);
        logger.info('merchant request failed', {
          method: request.method,
          path: request.path,
          attempt,
          error: failure.message,
          requestId: failure.requestId,
          willRetry: retry,
        });
        if (!retry) throw failure;
        await options.clock.sleep(retryDelayMs(failure, attempt, policy), signal);
      }
    }
  };
}
