// The merchant's HTTPS interface: the order of checks of contract §0.1 (host, credentials, IP,
// suspension, limits, then the endpoint), every answer in the envelope, faults where switched on.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Account } from '../domain/account-store';
import type { Merchant } from '../domain/merchant';
import { matchRoute } from '../endpoints/routes';
import type { RateHeaders, RateLimiter } from '../limits/rate-limiter';
import { ApiError, errorNameForCode } from './api-error';
import { newRequestId, writeApiError, writeSuccess } from './envelope';
import type { CredentialLog } from './credential-log';
import { chance, serverErrorTargetOf, type FaultSettings } from './fault-settings';
import { orderRefOf, type RequestLog } from './request-log';
import { isIpAllowed } from './ip-allow-list';
import { parseJsonObject, readBody } from './request-body';

export const BASE_PATH = '/openapi/v1';

/** Names that look like credentials: never accepted outside the two headers (interface v1 §5.2). */
const CREDENTIAL_NAMES = new Set(['userid', 'apikey', 'key', 'servicekey', 'x-service-user-id', 'x-service-key']);

export interface OpenApiDeps {
  merchant: Merchant;
  limiter: RateLimiter;
  faults: FaultSettings;
  /** The merchant's main OpenAPI domain; any other Host is 404 before authentication. */
  domain: string;
  log: (line: string) => void;
  /** Every user ID and key (hashed) the headers carried: GET /control/credentials. */
  credentials?: CredentialLog;
  /** Every answered request (GET /control/requests). */
  requests?: RequestLog;
}

function hostName(header: string | undefined): string {
  if (!header) return '';
  const host = header.trim().toLowerCase();
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']'));
  const colon = host.lastIndexOf(':');
  return colon > -1 && host.indexOf(':') === colon ? host.slice(0, colon) : host;
}

function rateHeaders(headers: RateHeaders | null): Record<string, string> {
  if (!headers) return {};
  return { 'x-ratelimit-limit': String(headers.limit), 'x-ratelimit-remaining': String(headers.remaining), 'x-ratelimit-reset': String(headers.resetAt) };
}

function carriesCredentials(query: URLSearchParams, raw: Buffer | 'tooLarge'): boolean {
  for (const name of query.keys()) if (CREDENTIAL_NAMES.has(name.toLowerCase())) return true;
  if (raw === 'tooLarge' || raw.length === 0) return false;
  try {
    const parsed: unknown = JSON.parse(raw.toString('utf8'));
    return typeof parsed === 'object' && parsed !== null && Object.keys(parsed).some((k) => CREDENTIAL_NAMES.has(k.toLowerCase()));
  } catch {
    return false;
  }
}

function authenticate(deps: OpenApiDeps, req: IncomingMessage): Account {
  const userId = req.headers['x-service-user-id'];
  const apiKey = req.headers['x-service-key'];
  const account = typeof userId === 'string' && typeof apiKey === 'string' ? deps.merchant.ctx.accounts.authenticate(userId, apiKey) : null;
  if (typeof userId === 'string' && typeof apiKey === 'string') deps.credentials?.record(userId, apiKey, account !== null);
  // One message for every failure: never which part was wrong (interface v1 §5).
  if (!account) throw new ApiError('INVALID_CREDENTIAL', 'invalid credentials');
  return account;
}

export function createOpenApiHandler(deps: OpenApiDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const { faults } = deps;
  return (req, res) => {
    const requestId = newRequestId();
    let limits: RateHeaders | null = null;
    let droppable = faults.dropPaths.length === 0;
    // Filled once the request is known to be the interface's; what GET /control/requests lists.
    let seen: { method: string; path: string; clientOrderRef: string | null } | null = null;
    const logged = (status: number): void => {
      if (seen !== null) deps.requests?.record({ ...seen, status, requestId, atMs: Date.now() });
    };
    const answer = async (): Promise<void> => {
      if (chance(faults.errorRate)) {
        const name = faults.errorStatus === 503 ? 'TEMPORARILY_UNAVAILABLE' : faults.errorStatus === 429 ? 'RATE_LIMITED' : 'INTERNAL_ERROR';
        throw new ApiError(name, 'injected fault', faults.errorStatus === 500 ? {} : { 'retry-after': '1' });
      }
      if (faults.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, faults.latencyMs));
      const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
      if (hostName(req.headers.host) !== deps.domain) throw new ApiError('RESOURCE_NOT_VISIBLE', 'OpenAPI is not enabled on this domain');
      if (!url.pathname.startsWith(`${BASE_PATH}/`)) throw new ApiError('RESOURCE_NOT_VISIBLE', 'no such endpoint');
      const raw = await readBody(req);
      if (carriesCredentials(url.searchParams, raw)) throw new ApiError('INVALID_CREDENTIAL', 'invalid credentials');
      const account = authenticate(deps, req);
      if (account.ipAllowList !== null && !isIpAllowed(account.ipAllowList, req.socket.remoteAddress ?? '')) {
        throw new ApiError('SOURCE_IP_DENIED', 'the source address is not on the allow-list');
      }
      const path = url.pathname.slice(BASE_PATH.length);
      seen = { method: req.method ?? 'GET', path, clientOrderRef: orderRefOf(path, raw) };
      droppable = faults.dropPaths.length === 0 || faults.dropPaths.includes(path);
      const matched = matchRoute(req.method ?? 'GET', path);
      if (!matched) throw new ApiError('RESOURCE_NOT_VISIBLE', 'no such endpoint');
      const { route, params } = matched;
      if (account.suspended && !route.allowWhenSuspended) throw new ApiError('CREDENTIAL_SUSPENDED', 'the member account is suspended');
      if (faults.rateLimiterDown) throw new ApiError('TEMPORARILY_UNAVAILABLE', 'rate limiting is unavailable', { 'retry-after': '1' });
      const orderRef = params[0];
      const decision = deps.limiter.check({
        accountKey: String(account.accountRef),
        group: route.group,
        ...(route.cooldown && orderRef !== undefined ? { cooldown: { kind: route.cooldown, orderRef } } : {}),
      });
      limits = decision.headers;
      if (!decision.allowed) {
        throw new ApiError(errorNameForCode(decision.code), 'too many requests', { 'retry-after': String(decision.retryAfterSeconds) });
      }
      const target = serverErrorTargetOf(route.method, path);
      if (target !== null && faults.serverErrorOn.includes(target)) throw new ApiError('INTERNAL_ERROR', `injected fault: serverErrorOn ${target}`);
      const body = route.method === 'POST' ? parseJsonObject(raw) : {};
      const data = route.handle({ merchant: deps.merchant, account, query: url.searchParams, body, params });
      if (droppable && chance(faults.dropRate)) {
        req.socket.destroy();
        return;
      }
      writeSuccess(res, requestId, data, rateHeaders(limits));
      logged(200);
    };
    answer().catch((error: unknown) => {
      if (res.headersSent || req.socket.destroyed) return;
      if (droppable && chance(faults.dropRate)) {
        req.socket.destroy();
        return;
      }
      if (error instanceof ApiError) {
        writeApiError(res, requestId, error, rateHeaders(limits));
        logged(error.status);
        return;
      }
      deps.log(`${requestId} internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      writeApiError(res, requestId, new ApiError('INTERNAL_ERROR', 'processing failure'));
      logged(500);
    });
  };
}
