// The control API (docs/sandbox.md): plain HTTP JSON on loopback, for tests and the demo to set up
// scenarios, move orders, inject faults and read what the merchant did (ledger, webhook sends). Every
// request passes control-access.ts first (loopback Host, the control token, JSON POSTs).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CaseState } from '../domain/aftersale-desk';
import { messageToWire } from '../domain/aftersale-desk';
import type { Merchant } from '../domain/merchant';
import { IllegalMove, type AdvanceTarget } from '../domain/order-lifecycle';
import { orderToWire } from '../domain/order-records';
import type { CredentialLog } from '../http/credential-log';
import { SERVER_ERROR_TARGETS, type FaultSettings, type ServerErrorTarget } from '../http/fault-settings';
import type { RequestLog } from '../http/request-log';
import { isTlsFaultMode, TLS_FAULT_MODES } from '../tls/tls-faults';
import type { ListenerControl } from './listener-control';
import { readBody } from '../http/request-body';
import type { WebhookDispatcher } from '../webhooks/webhook-dispatcher';
import { createAccount, ledger, rotateKey, updateAccount } from './account-controls';
import { checkControlAccess } from './control-access';
import { ControlError, type ControlBody } from './control-error';
import { changeProduct, listProducts } from './product-controls';
import { dropOrder, receivedOrder, placeOrderElsewhere, tamperOrder } from './order-controls';

export interface ControlDeps {
  merchant: Merchant;
  faults: FaultSettings;
  /** Refusing connections and serving a bad certificate: faults of the listener itself. */
  listener?: ListenerControl;
  dispatcher: WebhookDispatcher;
  /** The credentials the OpenAPI saw (hashed keys). */
  credentials?: CredentialLog;
  /** What the OpenAPI answered, request by request. */
  requests?: RequestLog;
  /** The bearer token every request must carry. */
  token: string;
  /** The port it listens on, known once listening: the Host check needs it. */
  port: () => number;
}

interface ControlRequest {
  deps: ControlDeps;
  params: string[];
  body: ControlBody;
  query: URLSearchParams;
}

type ControlHandler = (request: ControlRequest) => unknown;

const ADVANCE_TARGETS: readonly string[] = ['processing', 'verifying', 'completed', 'failed', 'cancelled', 'refund.succeeded', 'refund.rejected'];

function at(params: string[], index: number): string {
  const value = params[index];
  if (value === undefined) throw new ControlError(500, 'route parameter missing');
  return value;
}

function advanceOrder({ deps, params, body }: ControlRequest): unknown {
  const order = deps.merchant.orders.findAnywhere(at(params, 0));
  if (!order) throw new ControlError(404, 'no such order');
  const to = body['to'];
  if (typeof to !== 'string' || !ADVANCE_TARGETS.includes(to)) throw new ControlError(400, `to must be one of ${ADVANCE_TARGETS.join(', ')}`);
  try {
    deps.merchant.lifecycle.advance(order, to as AdvanceTarget);
  } catch (error) {
    if (error instanceof IllegalMove) throw new ControlError(409, error.message);
    throw error;
  }
  return orderToWire(order, true);
}

function replyToCase({ deps, params, body }: ControlRequest): unknown {
  const found = deps.merchant.aftersales.findAnywhere(at(params, 0));
  if (!found) throw new ControlError(404, 'no such case');
  const { text, images, state } = body;
  if (typeof text !== 'string' || text === '') throw new ControlError(400, 'text is required');
  if (images !== undefined && !(Array.isArray(images) && images.every((i) => typeof i === 'string'))) throw new ControlError(400, 'images must be strings');
  if (state !== undefined && state !== 'resolved' && state !== 'closed') throw new ControlError(400, 'state takes resolved or closed');
  return messageToWire(deps.merchant.aftersales.reply(found, text, (images) ?? [], (state as CaseState | undefined) ?? null));
}

/** The listener's faults of a POST /control/faults body (refuseConnections, tls), checked before anything changes. */
function listenerFaults(deps: ControlDeps, body: ControlBody): () => Promise<void> {
  const refuse = body['refuseConnections'];
  if (refuse !== undefined && typeof refuse !== 'boolean') throw new ControlError(400, 'refuseConnections is a boolean');
  const tls = body['tls'];
  if (tls !== undefined && !isTlsFaultMode(tls)) throw new ControlError(400, `tls is one of ${TLS_FAULT_MODES.join(', ')}`);
  const listener = deps.listener;
  if ((refuse !== undefined || tls !== undefined) && listener === undefined) throw new ControlError(409, 'this sandbox cannot change its listener');
  return async () => {
    if (listener === undefined) return;
    if (isTlsFaultMode(tls)) {
      try {
        await listener.serveCertificate(tls);
      } catch (error) {
        throw new ControlError(409, error instanceof Error ? error.message : 'cannot change the certificate');
      }
    }
    if (typeof refuse === 'boolean') await listener.refuseConnections(refuse);
  };
}

const isServerErrorTarget = (value: unknown): value is ServerErrorTarget => SERVER_ERROR_TARGETS.some((t) => t === value);

async function setFaults(request: ControlRequest): Promise<unknown> {
  const { deps, body } = request;
  const applyListener = listenerFaults(deps, body);
  const settings = setRequestFaults(request);
  await applyListener();
  return { ...settings, ...(deps.listener?.state() ?? {}) };
}

function setRequestFaults({ deps, body }: ControlRequest): FaultSettings {
  const { faults } = deps;
  const rate = (name: string): number | undefined => {
    const value = body[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || value < 0 || value > 1) throw new ControlError(400, `${name} must be between 0 and 1`);
    return value;
  };
  const latency = body['latencyMs'];
  if (latency !== undefined && !(typeof latency === 'number' && latency >= 0)) throw new ControlError(400, 'latencyMs must be >= 0');
  const status = body['errorStatus'];
  if (status !== undefined && status !== 500 && status !== 503 && status !== 429) throw new ControlError(400, 'errorStatus is 500, 503 or 429');
  const down = body['rateLimiterDown'];
  if (down !== undefined && typeof down !== 'boolean') throw new ControlError(400, 'rateLimiterDown is a boolean');
  const dropPaths = body['dropPaths'];
  if (dropPaths !== undefined && !(Array.isArray(dropPaths) && dropPaths.every((p) => typeof p === 'string' && p.startsWith('/')))) {
    throw new ControlError(400, 'dropPaths is a list of endpoint paths such as /orders/create');
  }
  const serverErrorOn = body['serverErrorOn'];
  if (serverErrorOn !== undefined && !(Array.isArray(serverErrorOn) && serverErrorOn.every((t) => isServerErrorTarget(t)))) {
    throw new ControlError(400, `serverErrorOn is a list of ${SERVER_ERROR_TARGETS.join(', ')}`);
  }
  const errorRate = rate('errorRate');
  const dropRate = rate('dropRate');
  if (typeof latency === 'number') faults.latencyMs = latency;
  if (status === 500 || status === 503 || status === 429) faults.errorStatus = status;
  if (typeof down === 'boolean') faults.rateLimiterDown = down;
  if (errorRate !== undefined) faults.errorRate = errorRate;
  if (dropRate !== undefined) faults.dropRate = dropRate;
  if (Array.isArray(dropPaths)) faults.dropPaths = dropPaths.filter((p): p is string => typeof p === 'string');
  if (Array.isArray(serverErrorOn)) faults.serverErrorOn = serverErrorOn.filter(isServerErrorTarget);
  return { ...faults, serverErrorOn: [...faults.serverErrorOn] };
}

const ROUTES: { method: string; pattern: RegExp; handle: ControlHandler }[] = [
  { method: 'POST', pattern: /^\/control\/accounts$/, handle: ({ deps, body }) => createAccount(deps.merchant, body) },
  { method: 'POST', pattern: /^\/control\/accounts\/([^/]+)\/orders$/, handle: ({ deps, params, body }) => placeOrderElsewhere(deps.merchant, at(params, 0), body) },
  { method: 'POST', pattern: /^\/control\/accounts\/([^/]+)\/rotate-key$/, handle: ({ deps, params }) => rotateKey(deps.merchant, at(params, 0)) },
  { method: 'POST', pattern: /^\/control\/accounts\/([^/]+)$/, handle: ({ deps, params, body }) => updateAccount(deps.merchant, at(params, 0), body) },
  { method: 'GET', pattern: /^\/control\/products$/, handle: ({ deps, query }) => listProducts(deps.merchant, query) },
  { method: 'POST', pattern: /^\/control\/products\/(\d+)$/, handle: ({ deps, params, body }) => changeProduct(deps.merchant, Number(at(params, 0)), body) },
  { method: 'POST', pattern: /^\/control\/orders\/([^/]+)\/advance$/, handle: advanceOrder },
  { method: 'POST', pattern: /^\/control\/orders\/([^/]+)\/tamper$/, handle: ({ deps, params, body }) => tamperOrder(deps.merchant, at(params, 0), body) },
  { method: 'POST', pattern: /^\/control\/orders\/([^/]+)\/drop$/, handle: ({ deps, params }) => dropOrder(deps.merchant, at(params, 0)) },
  { method: 'GET', pattern: /^\/control\/orders\/([^/]+)\/received$/, handle: ({ deps, params }) => receivedOrder(deps.merchant, at(params, 0)) },
  { method: 'POST', pattern: /^\/control\/aftersales\/([^/]+)\/reply$/, handle: replyToCase },
  { method: 'POST', pattern: /^\/control\/faults$/, handle: setFaults },
  { method: 'GET', pattern: /^\/control\/ledger\/([^/]+)$/, handle: ({ deps, params }) => ledger(deps.merchant, at(params, 0)) },
  { method: 'GET', pattern: /^\/control\/deliveries$/, handle: ({ deps }) => deps.dispatcher.deliveries() },
  { method: 'GET', pattern: /^\/control\/credentials$/, handle: ({ deps }) => deps.credentials?.list() ?? [] },
  { method: 'GET', pattern: /^\/control\/requests$/, handle: ({ deps, query }) => deps.requests?.list({ path: query.get('path'), clientOrderRef: query.get('clientOrderRef') }) ?? [] },
];

function send(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
}

async function readControlBody(req: IncomingMessage): Promise<ControlBody> {
  const raw = await readBody(req);
  if (raw === 'tooLarge') throw new ControlError(413, 'body too large');
  if (raw.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ControlError(400, 'body is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ControlError(400, 'body must be a JSON object');
  return parsed as ControlBody;
}

export function createControlHandler(deps: ControlDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://control.invalid');
    const route = ROUTES.find((r) => r.method === req.method && r.pattern.test(url.pathname));
    const run = async (): Promise<unknown> => {
      checkControlAccess(req, deps.port(), deps.token);
      if (!route) throw new ControlError(404, 'no such control endpoint');
      const params = (route.pattern.exec(url.pathname) ?? []).slice(1).map((p) => decodeURIComponent(p));
      return route.handle({ deps, params, body: await readControlBody(req), query: url.searchParams });
    };
    run().then(
      (value) => send(res, 200, value ?? {}),
      (error: unknown) => {
        // A refused body is not read: drain it so that the client gets the answer, not a reset.
        req.resume();
        if (error instanceof ControlError) send(res, error.status, { error: error.message });
        else send(res, 500, { error: error instanceof Error ? error.message : String(error) });
      },
    );
  };
}
