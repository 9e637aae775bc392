// The webhook service wired exactly as the app wires it: createCore (SQLite on disk in a temporary data
// folder, memory secret store, card cipher, node:https port with the sandbox's CA, quota model) on a
// fresh sandbox account, then services.attachWebhooks with a loopback tunnel. The core's clock is
// aligned with the sandbox's scaled clock (subscription expiry is compared with it), every merchant
// exchange is recorded, and every log line is kept.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore, type Core, type MerchantServices } from '../../../src/core/create-core';
import { createWebhookService, type WebhookParts, type WebhookService, type WebhookServiceOptions } from '../../../src/core/webhooks/webhook-service';
import { createLoopbackTunnel } from '../../../src/core/webhooks/tunnels/loopback-tunnel';
import type { Tunnel } from '../../../src/core/webhooks/tunnels/tunnel';
import type { WebhookListener } from '../../../src/core/webhooks/webhook-listener';
import { TunnelState } from '../../../src/core/webhooks/tunnels/tunnel-state';
import type { Logger } from '../../../src/core/logging/logger';
import { RedactingLogger } from '../../../src/core/logging/redacting-logger';
import { createNodeHttpsPort } from '../../../src/core/merchant/node-https-port';
import { createScaledClock, type Clock } from '../../../src/core/platform/clock';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';
import { callApi, control } from '../../support/merchant-http';
import type { RunningSandbox } from '../../support/sandbox-process';
import { recordingPort, type Exchange } from '../merchant/client-kit';

export interface Account {
  userId: string;
  apiKey: string;
}

export type ServiceOverrides = Partial<Omit<WebhookServiceOptions, keyof WebhookParts | 'tunnel'>> & {
  tunnel?: (clock: Clock) => Tunnel;
};

export interface EventsKit {
  readonly sandbox: RunningSandbox;
  readonly account: Account;
  readonly dataDir: string;
  readonly clock: Clock;
  readonly core: Core;
  readonly services: MerchantServices;
  readonly events: WebhookService;
  readonly exchanges: Exchange[];
  readonly logLines: string[];
  /** Processed inbox events, in order. */
  readonly processed: { eventId: string; eventType: string; outcome: string }[];
  close(): Promise<void>;
}

/**
 * A clock that reads the sandbox's time: sandbox seconds learnt from a subscription of a throwaway
 * account (expiry = now + ttl), then running `scale` times faster like the sandbox's.
 */
export async function sandboxClock(sandbox: RunningSandbox, scale: number, ttlSeconds: number): Promise<Clock> {
  const throwaway = await control<Account>(sandbox, 'POST', '/control/accounts', {});
  const before = Date.now();
  const res = await callApi<{ list: { subscriptionExpiresAt: number }[] }>(sandbox, 'POST', '/goods/subscriptions', {
    auth: throwaway,
    body: { productRefs: [await firstProductRef(sandbox)], subscriptionState: 'subscribed' },
  });
  const after = Date.now();
  const expiresAt = res.json?.data.list[0]?.subscriptionExpiresAt;
  if (expiresAt === undefined) throw new Error(`calibration subscription failed: ${res.text}`);
  // Sandbox ms at the middle of the exchange (the answer's second, plus half a second on average).
  const sandboxMs = (expiresAt - ttlSeconds) * 1000 + 500;
  const realMid = (before + after) / 2;
  return createScaledClock(scale, () => Date.now() + (sandboxMs - realMid));
}

export async function firstProductRef(sandbox: RunningSandbox): Promise<number> {
  const products = await control<{ productRef: number }[]>(sandbox, 'GET', '/control/products?limit=1');
  const first = products[0];
  if (first === undefined) throw new Error('empty sandbox catalog');
  return first.productRef;
}

export async function createEventsKit(
  sandbox: RunningSandbox,
  options: { scale: number; ttlSeconds: number; service?: ServiceOverrides; listener?: WebhookListener },
): Promise<EventsKit> {
  const account = await control<Account>(sandbox, 'POST', '/control/accounts', { balance: '100000' });
  const clock = await sandboxClock(sandbox, options.scale, options.ttlSeconds);
  const dataDir = mkdtempSync(join(tmpdir(), 'procure-events-'));
  const logLines: string[] = [];
  const logger = new RedactingLogger({ sink: (line) => logLines.push(line), level: 'debug' });
  const exchanges: Exchange[] = [];
  const closers: (() => void)[] = [];
  const core = await createCore({
    dataDir,
    secrets: new MemorySecretStore(),
    logger,
    clock,
    http: (ca) => {
      const https = createNodeHttpsPort(ca === null ? {} : { ca });
      closers.push(() => https.close());
      const recording = recordingPort(https, clock);
      // One list across connections (connect builds a port, then the services build theirs).
      return async (request) => {
        const response = recording.port(request);
        exchanges.push(...recording.exchanges.splice(0));
        return response;
      };
    },
  });
  await core.connect({ baseUrl: sandbox.baseUrl, userId: account.userId, apiKey: account.apiKey, caCertPem: sandbox.ca });
  const services = await core.merchant();
  const processed: EventsKit['processed'] = [];
  const { tunnel, ...overrides } = options.service ?? {};
  const events = services.attachWebhooks((parts) =>
    createWebhookService({
      ...parts,
      ...(options.listener === undefined ? {} : { listener: options.listener }),
      tunnel: tunnel ? tunnel(clock) : createLoopbackTunnel({ logger: parts.logger }),
      onProcessed: (eventId, eventType, outcome) => processed.push({ eventId, eventType, outcome }),
      ...overrides,
    }),
  );
  return {
    sandbox,
    account,
    dataDir,
    clock,
    core,
    services,
    events,
    exchanges,
    logLines,
    processed,
    async close() {
      await core.close();
      for (const close of closers) close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Subscription calls the client made: their product lists and callback URLs. */
export function subscriptionCalls(exchanges: readonly Exchange[]): { productRefs: number[]; subscriptionState: string; callbackUrl?: string; status: number | null }[] {
  return exchanges
    .filter((e) => e.method === 'POST' && new URL(e.url).pathname.endsWith('/goods/subscriptions'))
    .map((e) => ({ ...(JSON.parse(e.body ?? '{}') as { productRefs: number[]; subscriptionState: string; callbackUrl?: string }), status: e.status }));
}

export interface Delivery {
  eventId: string;
  eventType: string;
  url: string;
  attempt: number;
  ok: boolean;
  status: number | null;
}

export async function deliveriesTo(sandbox: RunningSandbox, url: string): Promise<Delivery[]> {
  return (await control<Delivery[]>(sandbox, 'GET', '/control/deliveries')).filter((d) => d.url === url);
}

/** Products the account has subscribed now, as the merchant says (GET /goods/catalog?subscriptionState=subscribed). */
export async function subscribedOnMerchant(sandbox: RunningSandbox, account: Account): Promise<number[]> {
  const refs: number[] = [];
  for (let page = 1; ; page++) {
    const res = await callApi<{ list: { productRef: number }[]; total: number }>(sandbox, 'GET', '/goods/catalog', {
      auth: account,
      query: { subscriptionState: 'subscribed', page, pageSize: 100 },
    });
    const list = res.json?.data.list ?? [];
    refs.push(...list.map((p) => p.productRef));
    if (list.length < 100) return refs;
  }
}

/** Real-time wait until `predicate` holds, or throws naming `what`. */
export async function waitFor(predicate: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000, everyMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await predicate()) return;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Caches the product and its template (as a sync would), places a 1-unit order and sends it. */
export async function placeOrder(kit: EventsKit, productRef: number, orderCallbackUrl: string | null): Promise<string> {
  const { client, intents, outbox } = kit.services;
  const { data: detail } = await client.getProduct(productRef);
  kit.core.catalog.applyProductSnapshot({ from: 'detail', detail });
  const { data: template } = await client.getTemplate(productRef, 0);
  kit.core.catalog.upsertTemplate(template);
  const intent = intents.placeOrder({ productRef, variantRef: 0, units: 1, ...(orderCallbackUrl === null ? {} : { orderCallbackUrl }) });
  await outbox.runOnce();
  const status = intents.getIntent(intent.clientOrderRef)?.status;
  if (status !== 'accepted') throw new Error(`order ${intent.clientOrderRef} was not accepted: ${String(status)}`);
  return intent.clientOrderRef;
}

export function storedOrderState(kit: EventsKit, ref: string): string | null {
  return kit.core.db.prepare<[string], string>('SELECT state FROM orders WHERE client_order_ref = ?').pluck().get(ref) ?? null;
}

/**
 * A tunnel a test can take down and bring back (as a provider reconnecting would), over the
 * loopback address; `url` may be moved to another public base (a new tunnel URL).
 */
export interface SwitchableTunnel extends Tunnel {
  down(): void;
  up(publicUrl?: string): void;
}

export function switchableTunnel(logger: Logger): SwitchableTunnel {
  const state = new TunnelState('loopback', logger);
  let base: string | null = null;
  return {
    kind: 'loopback',
    start(localPort) {
      base = `http://127.0.0.1:${localPort}`;
      state.update({ up: true, publicUrl: base, lastError: null });
      return Promise.resolve(base);
    },
    stop() {
      state.update({ up: false, publicUrl: null });
      return Promise.resolve();
    },
    status: () => state.snapshot(),
    onChange: (listener) => state.subscribe(listener),
    down() {
      state.update({ up: false, publicUrl: null, lastError: 'connection lost (test)' });
    },
    up(publicUrl) {
      base = publicUrl ?? base;
      state.update({ up: true, publicUrl: base, lastError: null, restarts: state.snapshot().restarts + 1 });
    },
  };
}
