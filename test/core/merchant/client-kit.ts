// Builds the merchant client exactly as core does (node:https port, quota model, request sender) with
// a recording wrapper around the HttpPort, so that tests can count what went over the wire and what
// came back (statuses, 429s, attempt times on the client's clock).
import { expect } from 'vitest';
import type { HttpPort, HttpRequest } from '../../../src/core/merchant/http-port';
import { createMerchantClient, type MerchantClient } from '../../../src/core/merchant/merchant-client';
import { createNodeHttpsPort } from '../../../src/core/merchant/node-https-port';
import { createQuotaModel } from '../../../src/core/merchant/quota-model';
import { createRequestSender, type RequestSender } from '../../../src/core/merchant/request-sender';
import type { RetryPolicy } from '../../../src/core/merchant/retry-policy';
import type { Logger } from '../../../src/core/logging/logger';
import { createScaledClock, type Clock } from '../../../src/core/platform/clock';

export interface Exchange {
  method: HttpRequest['method'];
  url: string;
  body: string | undefined;
  /** Client-clock ms when the request was handed to the transport. */
  sentAt: number;
  /** HTTP status, or null when the transport failed. */
  status: number | null;
  /** Response headers, empty when the transport failed. */
  headers: Record<string, string>;
  /** Client-clock ms when the answer (or the failure) came. */
  doneAt: number | null;
  failure: string | null;
}

export const silentLogger: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

export function recordingPort(inner: HttpPort, clock: Clock): { port: HttpPort; exchanges: Exchange[] } {
  const exchanges: Exchange[] = [];
  const port: HttpPort = async (request) => {
    const exchange: Exchange = { method: request.method, url: request.url, body: request.body, sentAt: clock.nowMs(), status: null, headers: {}, doneAt: null, failure: null };
    exchanges.push(exchange);
    try {
      const response = await inner(request);
      exchange.status = response.status;
      exchange.headers = response.headers;
      exchange.doneAt = clock.nowMs();
      return response;
    } catch (error) {
      exchange.failure = error instanceof Error ? error.name : 'unknown';
      exchange.doneAt = clock.nowMs();
      throw error;
    }
  };
  return { port, exchanges };
}

export interface KitOptions {
  baseUrl: string;
  userId: string;
  apiKey: string;
  /** The CA to trust; none = system roots only. */
  ca?: string;
  /** The client's clock runs this many times faster (match the sandbox's --time-scale). */
  scale?: number;
  timeoutMs?: number;
  retry?: RetryPolicy;
  logger?: Logger;
}

export interface Kit {
  client: MerchantClient;
  send: RequestSender;
  clock: Clock;
  exchanges: Exchange[];
  close(): void;
}

export function buildClient(options: KitOptions): Kit {
  const clock = createScaledClock(options.scale ?? 1);
  const https = createNodeHttpsPort(options.ca === undefined ? {} : { ca: options.ca });
  const { port, exchanges } = recordingPort(https, clock);
  const credentials = { userId: options.userId, apiKey: options.apiKey };
  const send = createRequestSender({
    baseUrl: options.baseUrl,
    credentials: () => Promise.resolve(credentials),
    http: port,
    quota: createQuotaModel(clock),
    clock,
    logger: options.logger ?? silentLogger,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.retry === undefined ? {} : { retry: options.retry }),
  });
  return { client: createMerchantClient(send), send, clock, exchanges, close: () => https.close() };
}

/** A retry policy whose backoff is short enough for tests; the attempt caps stay those of a real run. */
export const FAST_RETRY: RetryPolicy = { maxAttempts: 4, maxAttemptsOn500: 3, baseDelayMs: 20, maxDelayMs: 100 };

/** The rejection of a promise that must fail; fails the test when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, it succeeded');
}

/** The error must not show any of the secrets in its message, its text or its own fields. */
export function expectNoSecrets(error: unknown, secrets: readonly string[]): void {
  expect(error).toBeInstanceOf(Error);
  if (!(error instanceof Error)) return;
  const views = [error.message, String(error), JSON.stringify(error), JSON.stringify(Object.entries(error)), error.stack ?? ''];
  for (const secret of secrets) for (const view of views) expect(view).not.toContain(secret);
}

export function countStatus(exchanges: readonly Exchange[], status: number): number {
  return exchanges.filter((e) => e.status === status).length;
}
