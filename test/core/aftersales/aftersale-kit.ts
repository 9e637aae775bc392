// The app service over core as a host builds it (createCore on SQLite in a data folder, memory secret
// store, node:https with the sandbox's CA, a scaled clock, a redacting logger into memory), connected
// to an in-process sandbox merchant, for the after-sales tests. Optionally with the webhook side
// (webhook service with a loopback tunnel, so the merchant's aftersale.message.created reaches the
// receiver); without it, replies come by polling only. The HTTPS port can be switched to a closed
// port (merchant unreachable) or intercepted (e.g. a 500 after the merchant processed the request).
// The app can be restarted on the same data folder (a crash or a quit between two runs).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { CaseDetail } from '../../../src/shared/ipc/views/aftersales';
import { CHANNELS, EVENTS, isChannelName, type ChannelName, type ChannelOutput, type EventName } from '../../../src/shared/ipc/contract';
import { ipcErrorSchema, ipcResultSchema, type IpcResult } from '../../../src/shared/ipc/ipc-result';
import type { NotificationView } from '../../../src/shared/ipc/views/notifications';
import type { OrderDetail } from '../../../src/shared/ipc/views/orders';
import { createAppService, type AppService } from '../../../src/core/app/app-service';
import { createCore, type Core } from '../../../src/core/create-core';
import { createWebhookService, type WebhookService } from '../../../src/core/webhooks/webhook-service';
import { createLoopbackTunnel } from '../../../src/core/webhooks/tunnels/loopback-tunnel';
import { RedactingLogger } from '../../../src/core/logging/redacting-logger';
import type { HttpPort, HttpRequest, HttpResponse } from '../../../src/core/merchant/http-port';
import { createNodeHttpsPort } from '../../../src/core/merchant/node-https-port';
import { createScaledClock } from '../../../src/core/platform/clock';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';
import { goodCard, must, type Catalog, fen } from '../../support/orders-harness';
import { startMerchant, waitFor, type Merchant } from '../app/app-kit';

export { startMerchant, waitFor, type Merchant };

export interface SentRequest {
  readonly method: string;
  readonly path: string;
  readonly body: string | undefined;
  /** Core-clock ms when it was handed to the transport. */
  readonly at: number;
}

export interface AftersaleKitOptions {
  readonly scale: number;
  /** Attach the webhook side (loopback tunnel); default false: polling only. */
  readonly webhooks?: boolean;
  /** Real ms per merchant request. */
  readonly requestTimeoutMs?: number;
  /** Connect to the merchant at once (default true). */
  readonly connect?: boolean;
}

export interface AftersaleKit {
  readonly merchant: Merchant;
  /** Connects the app to the kit's merchant account. */
  connect(): Promise<void>;
  readonly account: { userId: string; apiKey: string };
  readonly dataDir: string;
  core: Core;
  app: AppService;
  readonly logLines: string[];
  readonly events: { event: EventName; payload: unknown }[];
  readonly answers: { channel: string; result: IpcResult<unknown> }[];
  /** Every request handed to the transport (path below /openapi/v1). */
  readonly requests: SentRequest[];
  /** While true, every request goes to a closed port (connection refused). */
  offline: boolean;
  /** Runs instead of the transport; `forward` sends to the merchant. */
  intercept: ((request: HttpRequest, forward: HttpPort) => Promise<HttpResponse>) | null;
  call(channel: string, input?: unknown): Promise<IpcResult<unknown>>;
  ok<C extends ChannelName>(channel: C, input?: unknown): Promise<ChannelOutput<C>>;
  notifications(): NotificationView[];
  /** The running webhook service (webhooks), when attached. */
  webhooks(): WebhookService | null;
  /**
   * Stops the app as a quit would and starts it again on the same data folder; `meanwhile` runs on
   * the stopped app's database before it is closed (to leave it as a crash would have).
   */
  restart(meanwhile?: (core: Core) => void): Promise<void>;
  /** Sets the sandbox's fault switches (docs/sandbox.md). */
  faults(faults: { dropRate?: number; errorRate?: number; errorStatus?: 500 | 503; latencyMs?: number }): Promise<void>;
  /** A card order placed through the app and moved by the merchant to completed (aftersale allowed). */
  completedCardOrder(catalog: Catalog): Promise<string>;
  /** Waits until the case detail satisfies `predicate`. */
  caseWhen(ref: string, what: string, predicate: (d: CaseDetail) => boolean, timeoutMs?: number): Promise<CaseDetail>;
  close(): Promise<void>;
}

const CLOSED = 'https://127.0.0.1:1';

export function pathOf(url: string): string {
  return new URL(url).pathname.replace(/^\/openapi\/v1/, '');
}

export async function createAftersaleKit(merchant: Merchant, options: AftersaleKitOptions): Promise<AftersaleKit> {
  const account = await merchant.newAccount('100000');
  const dataDir = mkdtempSync(join(tmpdir(), 'procure-aftersale-'));
  const logLines: string[] = [];
  const events: AftersaleKit['events'] = [];
  const answers: AftersaleKit['answers'] = [];
  const requests: SentRequest[] = [];
  const ports: ReturnType<typeof createNodeHttpsPort>[] = [];
  const base = new URL(merchant.sandbox.baseUrl);
  const clock = createScaledClock(options.scale);
  const secrets = new MemorySecretStore();
  let webhookService: WebhookService | null = null;

  const kit = {} as AftersaleKit;
  const http = (ca: string | null): HttpPort => {
    const port = createNodeHttpsPort(ca === null ? {} : { ca });
    ports.push(port);
    return (request) => {
      requests.push({ method: request.method, path: pathOf(request.url), body: request.body, at: clock.nowMs() });
      const routed = kit.offline ? { ...request, url: request.url.replace(base.origin, CLOSED) } : request;
      const hook = kit.intercept;
      return hook === null ? port(routed) : hook(routed, port);
    };
  };

  const build = async (): Promise<void> => {
    const logger = new RedactingLogger({ sink: (line) => logLines.push(line), level: 'debug' });
    const core = await createCore({
      dataDir,
      secrets,
      logger,
      clock,
      http,
      ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
      ...(options.webhooks === true
        ? {
            webhooks: (parts) => {
              webhookService = createWebhookService({ ...parts, tunnel: createLoopbackTunnel({ logger: parts.logger }) });
              return webhookService;
            },
          }
        : {}),
    });
    const app = createAppService(core, { startDemoMerchant: () => Promise.reject(new Error('no demo merchant in these tests')) }, { logger, secrets, changeScanIntervalMs: 100 });
    app.onEvent((event, payload) => events.push({ event, payload }));
    kit.core = core;
    kit.app = app;
    await app.start();
  };

  Object.assign(kit, {
    merchant,
    account,
    dataDir,
    logLines,
    events,
    answers,
    requests,
    offline: false,
    intercept: null,
    async call(channel: string, input?: unknown) {
      const result = await kit.app.handle(channel, input);
      answers.push({ channel, result });
      return result;
    },
    async ok<C extends ChannelName>(channel: C, input?: unknown): Promise<ChannelOutput<C>> {
      const result = await kit.call(channel, input);
      if (!result.ok) throw new Error(`${channel} answered ${JSON.stringify(result.error)}`);
      return result.value as ChannelOutput<C>;
    },
    async connect() {
      await kit.ok('connection.connect', { baseUrl: merchant.sandbox.baseUrl, userId: account.userId, apiKey: account.apiKey, caCertPem: merchant.caCertPem });
    },
    notifications: () => events.filter((e) => e.event === 'app.notification').map((e) => e.payload as NotificationView),
    webhooks: () => webhookService,
    async restart(meanwhile?: (core: Core) => void) {
      await kit.app.stop();
      meanwhile?.(kit.core);
      await kit.core.close();
      webhookService = null;
      await build();
    },
    async faults(faults: Record<string, unknown>) {
      await merchant.control('POST', '/control/faults', faults);
    },
    async completedCardOrder(catalog: Catalog) {
      const pick = catalog.claim((p, v) => goodCard(p, v), 'card that is supplied');
      const variantRef = pick.product.variants.length > 1 ? pick.variant.variantRef : 0;
      const placed = await kit.ok('orders.place', { productRef: pick.product.productRef, variantRef, units: 1, unitPriceFen: fen(pick.variant.price) });
      const ref = placed.clientOrderRef;
      await waitFor('the order to be accepted', async () => ((await kit.ok('orders.get', { clientOrderRef: ref })).intentStatus === 'accepted' ? true : null));
      await merchant.advance(ref, 'processing');
      await merchant.advance(ref, 'completed');
      await waitFor('the order to be completed with aftersale allowed', async () => {
        const detail: OrderDetail = await kit.ok('orders.get', { clientOrderRef: ref });
        return detail.state === 'completed' && detail.allowedActions.includes('aftersale') ? true : null;
      });
      return ref;
    },
    async caseWhen(ref: string, what: string, predicate: (d: CaseDetail) => boolean, timeoutMs = 20_000) {
      return waitFor(
        what,
        async () => {
          const detail = await kit.ok('aftersales.get', { platformCaseRef: ref });
          return predicate(detail) ? detail : null;
        },
        timeoutMs,
      );
    },
    async close() {
      await kit.app.stop();
      await kit.core.close();
      for (const port of ports) port.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  });
  await build();
  if (options.connect !== false) await kit.connect();
  return kit;
}

/** The merchant's view of a case, over the interface itself (as the account). */
export interface MerchantCaseView {
  readonly platformCaseRef: string;
  readonly state: string;
  readonly description: string;
  readonly messages: { messageRef: string; clientMessageRef: string | null; sender: string; text: string; images: string[] }[];
}

export function merchantCase(kit: AftersaleKit, ref: string): Promise<MerchantCaseView> {
  return merchantApi<MerchantCaseView>(kit, 'GET', `/aftersales/${ref}`);
}

/** Calls the OpenAPI as the kit's account, trusting the sandbox CA; answers `data` or throws with the code. */
export async function merchantApi<T>(kit: AftersaleKit, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const port = createNodeHttpsPort({ ca: kit.merchant.caCertPem });
  try {
    const response = await port({
      method,
      url: `${kit.merchant.sandbox.baseUrl}${path}`,
      headers: {
        accept: 'application/json',
        'x-service-user-id': kit.account.userId,
        'x-service-key': kit.account.apiKey,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      timeoutMs: 10_000,
    });
    const envelope = JSON.parse(response.body) as { code: number; data: T };
    if (envelope.code !== 0) throw new MerchantCallError(envelope.code);
    return envelope.data;
  } finally {
    port.close();
  }
}

export class MerchantCallError extends Error {
  constructor(readonly code: number) {
    super(`merchant answered ${code}`);
  }
}

/** The merchant replies on a case (control API), as its staff would. */
export async function merchantReplies(kit: AftersaleKit, ref: string, text: string, state?: 'resolved' | 'closed'): Promise<{ messageRef: string }> {
  return kit.merchant.control('POST', `/control/aftersales/${ref}/reply`, { text, ...(state === undefined ? {} : { state }) });
}

export function expectRefused(result: IpcResult<unknown>, code: string): Extract<IpcResult<unknown>, { ok: false }>['error'] {
  expect(result.ok, JSON.stringify(result)).toBe(false);
  if (result.ok) throw new Error('unreachable');
  expect(result.error.code, JSON.stringify(result.error)).toBe(code);
  return result.error;
}

/** Every answer was a valid IpcResult of its channel, every event fit its schema, and no key reached a log line or answer. */
export function expectCleanRun(kit: AftersaleKit): void {
  for (const { channel, result } of kit.answers) {
    const schema = isChannelName(channel) ? ipcResultSchema(CHANNELS[channel].output) : ipcResultSchema(ipcErrorSchema.shape.code);
    expect(schema.safeParse(result).success, `${channel}: ${JSON.stringify(result).slice(0, 300)}`).toBe(true);
  }
  for (const { event, payload } of kit.events) expect(EVENTS[event].safeParse(payload).success, event).toBe(true);
  const everything = [...kit.answers.map((a) => JSON.stringify(a.result)), ...kit.logLines].join('\n');
  expect(everything.includes(kit.account.apiKey)).toBe(false);
}

export const isCreateCase = (r: SentRequest): boolean => r.method === 'POST' && r.path === '/aftersales';
export const isPostMessage = (r: SentRequest): boolean => r.method === 'POST' && /^\/aftersales\/[^/]+\/messages$/.test(r.path);
export const isGetCase = (r: SentRequest): boolean => r.method === 'GET' && /^\/aftersales\/[^/]+$/.test(r.path);

export { must };
