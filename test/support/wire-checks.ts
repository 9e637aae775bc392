// Shared checks for the conformance suite: the envelope of interface v1 §2.3 / contract §0, small narrowing
// helpers (the suite forbids `!`), a pacer that keeps one account under the total burst of
// contract §8 (30 per second) when a test makes many calls on purpose, and a request with a
// chosen Host header (interface v1 §5: a wrong domain is 404 before authentication).
import { request } from 'node:https';
import { checkServerIdentity } from 'node:tls';
import { expect } from 'vitest';
import { callApi, type ApiResponse, type CallOptions, type Envelope } from './merchant-http';
import type { RunningSandbox } from './sandbox-process';
import { controlHeaders } from './control-auth';

export const REQUEST_ID = /^req_[0-9a-f]{24}$/;

export type Credentials = { userId: string; apiKey: string };

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Narrows away undefined/null with a message that says what was missing. */
export function must<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) throw new Error(`missing: ${what}`);
  return value;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asRecord(value: unknown, what: string): Record<string, unknown> {
  if (!isRecord(value)) throw new Error(`${what} is not an object: ${JSON.stringify(value)}`);
  return value;
}

export function asArray(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new Error(`${what} is not an array: ${JSON.stringify(value)}`);
  return value as unknown[];
}

export function header(res: ApiResponse, name: string): string | undefined {
  const value = res.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** Envelope fields every response must have (interface v1 §2.3), plus the X-Request-Id header (contract §0). */
export function expectEnvelope(res: ApiResponse): Envelope<unknown> {
  const json = res.json;
  if (json === undefined) throw new Error(`HTTP ${res.status}: body is not JSON: ${res.text.slice(0, 300)}`);
  const body = asRecord(json, 'response body');
  expect(typeof body.code, `code in ${res.text.slice(0, 300)}`).toBe('number');
  expect(Number.isInteger(body.code)).toBe(true);
  expect(typeof body.message).toBe('string');
  expect('data' in body, 'data field present').toBe(true);
  expect(body.requestId).toMatch(REQUEST_ID);
  expect(header(res, 'x-request-id')).toBe(body.requestId);
  return json;
}

/** A success: HTTP 200, code 0, data an object (contract §0). Returns data. */
export function expectOk(res: ApiResponse): Record<string, unknown> {
  const json = expectEnvelope(res);
  expect({ status: res.status, code: json.code }, res.text.slice(0, 400)).toEqual({ status: 200, code: 0 });
  return asRecord(json.data, 'data');
}

/** An error: the exact HTTP status and code, data null (interface v1 §7.1). Returns the message. */
export function expectError(res: ApiResponse, status: number, code: number): string {
  const json = expectEnvelope(res);
  expect({ status: res.status, code: json.code }, res.text.slice(0, 400)).toEqual({ status, code });
  expect(json.data).toBeNull();
  return json.message;
}

/** A list payload (interface v1 §2.3) with its types; returns the typed parts. */
export function expectListPayload(data: Record<string, unknown>): { list: Record<string, unknown>[]; total: number; page: number; pageSize: number } {
  const list = asArray(data.list, 'list').map((item, i) => asRecord(item, `list[${i}]`));
  expect(Number.isInteger(data.total)).toBe(true);
  expect(Number.isInteger(data.page)).toBe(true);
  expect(Number.isInteger(data.pageSize)).toBe(true);
  return { list, total: data.total as number, page: data.page as number, pageSize: data.pageSize as number };
}

/** Yuan amounts: a finite number with at most two decimals (interface v1 §2.1). */
export function isYuan(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && Math.abs(Math.round(value * 100) - value * 100) < 1e-6;
}

const pacers = new Map<string, number[]>();

/**
 * callApi, but never more than `perSecond` calls per rolling second for one account, so tests that
 * walk the catalog are not refused by the total burst of 30 (contract §8). The default 20 leaves room.
 */
export async function pacedCall(sandbox: RunningSandbox, auth: Credentials, method: string, path: string, options: Omit<CallOptions, 'auth'> = {}, perSecond = 20): Promise<ApiResponse> {
  const key = `${sandbox.baseUrl}|${auth.userId}`;
  const sent = pacers.get(key) ?? [];
  pacers.set(key, sent);
  for (;;) {
    const now = Date.now();
    while (sent.length > 0 && now - (sent[0] ?? 0) >= 1100) sent.shift();
    if (sent.length < perSecond) break;
    await sleep(1100 - (now - (sent[0] ?? now)) + 5);
  }
  sent.push(Date.now());
  return callApi(sandbox, method, path, { ...options, auth });
}

/** Creates a fresh isolated account through the control API (sandbox.md). */
export async function newAccount(sandbox: RunningSandbox, balance = '1000'): Promise<Credentials> {
  const res = await fetch(`${sandbox.controlUrl}/control/accounts`, {
    method: 'POST',
    headers: controlHeaders(sandbox.controlToken, 'POST'),
    body: JSON.stringify({ balance }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`control POST /control/accounts → ${res.status}: ${text}`);
  const body = asRecord(JSON.parse(text), 'new account');
  if (typeof body.userId !== 'string' || typeof body.apiKey !== 'string') throw new Error(`bad account: ${text}`);
  return { userId: body.userId, apiKey: body.apiKey };
}

/**
 * GET over real HTTPS with a chosen Host header. The certificate is still verified against the CA
 * and against the address actually dialled, so only the Host header differs from callApi.
 */
export function callWithHost(sandbox: RunningSandbox, host: string, path: string, auth: Credentials | false): Promise<ApiResponse> {
  const url = new URL(sandbox.baseUrl + path);
  const headers: Record<string, string> = { accept: 'application/json', host };
  if (auth) {
    headers['X-Service-User-Id'] = auth.userId;
    headers['X-Service-Key'] = auth.apiKey;
  }
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'GET',
        headers,
        ca: sandbox.ca,
        agent: false,
        // Node would otherwise take the SNI name from the Host header and then check the certificate
        // against that made-up name.
        servername: '',
        checkServerIdentity: (_name, cert) => checkServerIdentity(url.hostname, cert),
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          let json: Envelope<unknown> | undefined;
          try {
            json = JSON.parse(text) as Envelope<unknown>;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The smallest allowed `units` of a product's template (contract §5: unitRule.min). */
export async function templateMinUnits(sandbox: RunningSandbox, auth: Credentials, productRef: number, variantRef?: number): Promise<number> {
  const data = expectOk(await callApi(sandbox, 'GET', '/goods/tpl', { auth, query: { productRef, variantRef } }));
  const rule = asRecord(data.unitRule, 'unitRule');
  if (typeof rule.min !== 'number') throw new Error(`unitRule.min is not a number: ${JSON.stringify(rule)}`);
  return rule.min;
}
