// The order outbox under the merchant's refusals, core as every host builds it (createCore:
// SQLite on disk, the access gate, stored Retry-After holds) over real HTTPS:
// - a key revoked while an order is sent: parked needs_key, never sent again with that key (not by a
//   later pass, not after a restart), sent once after a new key is accepted; the sandbox's ledger
//   shows one charge;
// - an account suspended while an order is sent: parked account_suspended; GET /account still
//   answering `suspended` keeps it; once lifted, a restarted process finds out by itself and sends it;
// - 500 on every create: one create per call (the outbox counts each, contract §7.12), looked up by its
//   ref between them; at the third the intent waits for the buyer with every requestId, also in the
//   order's detail view;
// - Retry-After 86400 on the create: queued with its next attempt at that time, nothing sent before;
// - withdraw of a parked intent: withdrawn at once, nothing ever sent.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOrderViews } from '../../../src/core/app/order-views';
import { createCore, type Core, type MerchantServices } from '../../../src/core/create-core';
import { RedactingLogger } from '../../../src/core/logging/redacting-logger';
import type { HttpPort } from '../../../src/core/merchant/http-port';
import { createNodeHttpsPort } from '../../../src/core/merchant/node-https-port';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';
import { isOrderableCard, type ControlProduct } from '../../support/control-catalog';
import { startHostileMerchant, type HostileMerchant } from '../../support/hostile-merchant';
import { startMerchant, type Merchant } from '../app/app-kit';

interface Ledger {
  entries: { kind: string; clientOrderRef: string; amount: string }[];
}

interface Rig {
  dataDir: string;
  secrets: MemorySecretStore;
  logLines: string[];
  /** Every request handed to the transport, by any core opened on this rig. */
  requests: { method: string; path: string }[];
  /** Runs (and is awaited) as a request is handed to the transport, before it is sent. */
  beforeSend: ((method: string, path: string) => Promise<void>) | null;
  ports: ReturnType<typeof createNodeHttpsPort>[];
  cores: Core[];
}

function newRig(): Rig {
  return { dataDir: mkdtempSync(join(tmpdir(), 'procure-access-')), secrets: new MemorySecretStore(), logLines: [], requests: [], beforeSend: null, ports: [], cores: [] };
}

/** A core on the rig's data folder and secret store (a second call is the process restarted). */
async function openCore(rig: Rig): Promise<Core> {
  const logger = new RedactingLogger({ sink: (line) => rig.logLines.push(line), level: 'debug' });
  const http = (ca: string | null): HttpPort => {
    const port = createNodeHttpsPort(ca === null ? {} : { ca });
    rig.ports.push(port);
    return async (request) => {
      const path = new URL(request.url).pathname.replace(/^\/openapi\/v1/, '');
      await rig.beforeSend?.(request.method, path);
      rig.requests.push({ method: request.method, path });
      return port(request);
    };
  };
  const core = await createCore({ dataDir: rig.dataDir, secrets: rig.secrets, logger, http });
  rig.cores.push(core);
  return core;
}

async function closeRig(rig: Rig): Promise<void> {
  for (const core of rig.cores) await core.close().catch(() => undefined);
  for (const port of rig.ports) port.close();
  rmSync(rig.dataDir, { recursive: true, force: true });
}

/** The product and its template cached, as a sync would; returns the unit price (fen). */
async function cacheProduct(core: Core, services: MerchantServices, productRef: number): Promise<number> {
  const { data: detail } = await services.client.getProduct(productRef);
  core.catalog.applyProductSnapshot({ from: 'detail', detail });
  const { data: template } = await services.client.getTemplate(productRef, 0);
  core.catalog.upsertTemplate(template);
  const price = detail.variants[0]?.price;
  if (price === undefined) throw new Error('no variant');
  return price;
}

/** Polls until `probe` gives a value (bounded: the test fails after 10 s rather than hanging). */
async function waitFor<T>(probe: () => T | null | undefined): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = probe();
    if (value !== null && value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('gave up waiting');
}

const creates = (rig: Rig): number => rig.requests.filter((r) => r.method === 'POST' && r.path === '/orders/create').length;

let rigs: Rig[] = [];
afterEach(async () => {
  for (const rig of rigs) await closeRig(rig);
  rigs = [];
});
const rig = (): Rig => {
  const made = newRig();
  rigs.push(made);
  return made;
};

describe('access refusals against the sandbox (ledger)', () => {
  let merchant: Merchant;
  let product: ControlProduct;
  beforeAll(async () => {
    merchant = await startMerchant();
    const found = (await merchant.products()).find(isOrderableCard);
    if (found === undefined) throw new Error('no orderable card product');
    product = found;
  });
  afterAll(async () => {
    await merchant?.stop();
  });

  const ledger = (userId: string): Promise<Ledger> => merchant.control<Ledger>('GET', `/control/ledger/${userId}`);
  const connect = async (core: Core, account: { userId: string; apiKey: string }): Promise<void> => {
    await core.connect({ baseUrl: merchant.sandbox.baseUrl, userId: account.userId, apiKey: account.apiKey, caCertPem: merchant.caCertPem });
  };

  it('a key revoked as the order is sent: needs_key, never sent again with it, sent once after a new key is accepted', async () => {
    const r = rig();
    const account = await merchant.newAccount();
    const core = await openCore(r);
    await connect(core, account);
    const services = await core.merchant();
    const price = await cacheProduct(core, services, product.productRef);
    const intent = services.intents.placeOrder({ productRef: product.productRef, units: 1, unitPriceFen: price });
    const ref = intent.clientOrderRef;

    let newKey = '';
    r.beforeSend = async (method, path) => {
      if (method !== 'POST' || path !== '/orders/create') return;
      r.beforeSend = null;
      newKey = (await merchant.control<{ apiKey: string }>('POST', `/control/accounts/${account.userId}/rotate-key`)).apiKey;
    };
    await services.outbox.submit(ref);
    const parked = services.intents.getIntent(ref);
    expect(parked?.status).toBe('needs_key');
    expect(parked?.parkedFrom).toBe('queued');
    expect(parked?.lastErrorCode).toBe('401001');
    expect(creates(r)).toBe(1);

    // Neither a pass, nor a direct submit, nor a restarted process sends it with the refused key.
    const before = r.requests.length;
    await services.outbox.runOnce();
    await services.outbox.submit(ref);
    await core.close();
    const restarted = await openCore(r);
    const again = await restarted.merchant();
    await again.outbox.runOnce();
    expect(r.requests.length).toBe(before);
    expect(again.intents.getIntent(ref)?.status).toBe('needs_key');
    expect((await ledger(account.userId)).entries.filter((e) => e.kind === 'charge')).toEqual([]);

    // The buyer enters the new key: accepted by GET /account, the intent goes back and is sent once.
    await connect(restarted, { userId: account.userId, apiKey: newKey });
    const services2 = await restarted.merchant();
    expect(services2.intents.getIntent(ref)?.status).toBe('queued');
    await services2.outbox.submit(ref);
    expect(services2.intents.getIntent(ref)?.status).toBe('accepted');
    await services2.outbox.runOnce();
    expect(creates(r)).toBe(2);
    const charges = (await ledger(account.userId)).entries.filter((e) => e.kind === 'charge');
    expect(charges.map((e) => e.clientOrderRef)).toEqual([ref]);
    expect(r.logLines.join('\n')).not.toContain(account.apiKey);
    expect(r.logLines.join('\n')).not.toContain(newKey);
  });

  it('an account suspended as the order is sent: account_suspended while suspended, sent by a restarted process once lifted', async () => {
    const r = rig();
    const account = await merchant.newAccount();
    const core = await openCore(r);
    await connect(core, account);
    const services = await core.merchant();
    const price = await cacheProduct(core, services, product.productRef);
    const ref = services.intents.placeOrder({ productRef: product.productRef, units: 1, unitPriceFen: price }).clientOrderRef;

    r.beforeSend = async (method, path) => {
      if (method !== 'POST' || path !== '/orders/create') return;
      r.beforeSend = null;
      await merchant.control('POST', `/control/accounts/${account.userId}`, { suspended: true });
    };
    await services.outbox.submit(ref);
    expect(services.intents.getIntent(ref)).toMatchObject({ status: 'account_suspended', lastErrorCode: '403005', parkedFrom: 'queued' });
    expect(services.accessRefusal()?.refusal).toBe('suspended');

    // Still suspended: GET /account says so, the intent stays parked, nothing else is sent.
    const before = r.requests.length;
    await services.client.getAccount();
    await services.outbox.runOnce();
    expect(r.requests.slice(before).every((req) => req.path === '/account')).toBe(true);
    expect(services.intents.getIntent(ref)?.status).toBe('account_suspended');

    // Lifted while this process is gone: the next one asks GET /account itself and sends the order.
    await core.close();
    await merchant.control('POST', `/control/accounts/${account.userId}`, { suspended: false });
    const restarted = await openCore(r);
    const again = await restarted.merchant();
    await again.outbox.runOnce();
    expect(again.intents.getIntent(ref)?.status).toBe('accepted');
    expect(creates(r)).toBe(2);
    const charges = (await ledger(account.userId)).entries.filter((e) => e.kind === 'charge');
    expect(charges.map((e) => e.clientOrderRef)).toEqual([ref]);
  });

  it('while the key is refused, the running outbox parks a new order at once without a request', async () => {
    const r = rig();
    const account = await merchant.newAccount();
    const core = await openCore(r);
    await connect(core, account);
    const services = await core.merchant();
    const price = await cacheProduct(core, services, product.productRef);
    await merchant.control('POST', `/control/accounts/${account.userId}/rotate-key`);
    const first = services.intents.placeOrder({ productRef: product.productRef, units: 1, unitPriceFen: price }).clientOrderRef;
    await services.outbox.submit(first);
    expect(services.intents.getIntent(first)?.status).toBe('needs_key');
    expect(services.accessRefusal()?.refusal).toBe('keyInvalid');

    const before = r.requests.length;
    services.startWorkers();
    const second = services.intents.placeOrder({ productRef: product.productRef, units: 1, unitPriceFen: price }).clientOrderRef;
    services.outbox.poke();
    const parked = await waitFor(() => {
      const intent = services.intents.getIntent(second);
      return intent?.status === 'queued' ? null : intent;
    });
    expect(parked).toMatchObject({ status: 'needs_key', lastErrorCode: '401001', parkedFrom: 'queued' });
    expect(r.requests.length).toBe(before);
    await services.stopWorkers();
  });

  it('withdraws a parked intent at once; nothing is ever sent for it', async () => {
    const r = rig();
    const account = await merchant.newAccount();
    const core = await openCore(r);
    await connect(core, account);
    const services = await core.merchant();
    const price = await cacheProduct(core, services, product.productRef);
    const ref = services.intents.placeOrder({ productRef: product.productRef, units: 1, unitPriceFen: price }).clientOrderRef;
    const newKey = (await merchant.control<{ apiKey: string }>('POST', `/control/accounts/${account.userId}/rotate-key`)).apiKey;
    await services.outbox.submit(ref);
    // The guard's product read was refused: parked before any create.
    expect(services.intents.getIntent(ref)?.status).toBe('needs_key');
    expect(creates(r)).toBe(0);
    expect(await services.outbox.withdraw(ref)).toBe('withdrawn');
    await connect(core, { userId: account.userId, apiKey: newKey });
    const services2 = await core.merchant();
    await services2.outbox.runOnce();
    expect(services2.intents.getIntent(ref)?.status).toBe('withdrawn');
    expect(creates(r)).toBe(0);
    expect((await ledger(account.userId)).entries).toEqual([]);
  });
});

describe('500 and Retry-After on the create (hostile merchant)', () => {
  let merchant: HostileMerchant;
  beforeAll(async () => {
    merchant = await startHostileMerchant({ products: 5 });
  });
  afterAll(async () => {
    await merchant?.close();
  });

  const ready = async (r: Rig): Promise<{ core: Core; services: MerchantServices; ref: string }> => {
    merchant.mode({ kind: 'normal' });
    const core = await openCore(r);
    await core.connect({ baseUrl: merchant.baseUrl, userId: merchant.userId, apiKey: merchant.apiKey, caCertPem: merchant.ca });
    const services = await core.merchant();
    const price = await cacheProduct(core, services, 1001);
    const ref = services.intents.placeOrder({ productRef: 1001, units: 1, unitPriceFen: price }).clientOrderRef;
    return { core, services, ref };
  };

  it('500 on every create: one per call, looked up between; at the third it waits for the buyer with every requestId kept and shown', async () => {
    const r = rig();
    const { core, services, ref } = await ready(r);
    merchant.mode({ kind: 'fail500', paths: ['/orders/create'] });
    await services.outbox.submit(ref);
    expect(creates(r)).toBe(1);
    expect(services.intents.getIntent(ref)).toMatchObject({ status: 'unknown', serverFailures: 1 });
    for (let round = 0; round < 4; round++) {
      core.db.prepare('UPDATE order_intents SET next_attempt_at = 0 WHERE client_order_ref = ? AND next_attempt_at IS NOT NULL').run(ref);
      await services.outbox.submit(ref);
    }
    expect(creates(r)).toBe(3);
    const intent = services.intents.getIntent(ref);
    expect(intent).toMatchObject({ status: 'merchant_failing', serverFailures: 3 });
    // Three creates and the two look-ups between them (404002), each with its requestId.
    expect(intent?.requestIds).toHaveLength(5);
    for (const id of intent?.requestIds ?? []) expect(id).toMatch(/^req_[0-9a-f]{24}$/);
    expect(new Set(intent?.requestIds).size).toBe(5);
    const detail = createOrderViews(core.db, core.vault).detail(ref);
    expect(detail?.requestIds).toEqual(intent?.requestIds);
    expect(merchant.charges.filter((c) => c.clientOrderRef === ref)).toEqual([]);

    // The buyer retries once the merchant is well: GET /orders/{ref} (404002), then sent again; the found order's requestIds join the list.
    merchant.mode({ kind: 'normal' });
    services.outbox.retryFailing(ref);
    await services.outbox.submit(ref);
    const accepted = services.intents.getIntent(ref);
    expect(accepted?.status).toBe('accepted');
    expect(accepted?.requestIds.slice(0, 5)).toEqual(intent?.requestIds);
    expect(accepted?.requestIds.length).toBeGreaterThan(5);
    expect(merchant.charges.filter((c) => c.clientOrderRef === ref)).toHaveLength(1);
  });

  it('a key refused after a 500: parked needs_key from unknown, looked up first once a key is accepted, charged once', async () => {
    const r = rig();
    const { core, services, ref } = await ready(r);
    merchant.mode({ kind: 'fail500', paths: ['/orders/create'] });
    await services.outbox.submit(ref);
    // The look-up after the 500 meets a revoked key.
    let newKey = '';
    r.beforeSend = (method, path) => {
      if (method === 'GET' && path === `/orders/${ref}`) newKey = merchant.rotateKey();
      return Promise.resolve();
    };
    core.db.prepare('UPDATE order_intents SET next_attempt_at = 0 WHERE client_order_ref = ?').run(ref);
    await services.outbox.submit(ref);
    r.beforeSend = null;
    expect(creates(r)).toBe(1);
    const parked = services.intents.getIntent(ref);
    expect(parked).toMatchObject({ status: 'needs_key', parkedFrom: 'unknown', lastErrorCode: '401001' });
    expect(parked?.requestIds).toHaveLength(2);

    merchant.mode({ kind: 'normal' });
    await core.connect({ baseUrl: merchant.baseUrl, userId: merchant.userId, apiKey: newKey, caCertPem: merchant.ca });
    const again = await core.merchant();
    expect(again.intents.getIntent(ref)?.status).toBe('unknown');
    const before = r.requests.length;
    await again.outbox.submit(ref);
    // GET /orders/{ref} first (404002: the 500s created nothing), then the same create.
    expect(r.requests.slice(before).map((req) => `${req.method} ${req.path}`)).toEqual([`GET /orders/${ref}`, 'GET /goods/1001', 'POST /orders/create']);
    expect(again.intents.getIntent(ref)?.status).toBe('accepted');
    expect(merchant.charges.filter((c) => c.clientOrderRef === ref)).toHaveLength(1);
  });

  it('Retry-After 86400 on the create: stays queued with its next attempt at that time; nothing is sent before', async () => {
    const r = rig();
    const { core, services, ref } = await ready(r);
    merchant.mode({ kind: 'retryAfter', value: '86400', paths: ['/orders/create'] });
    const startedMs = Date.now();
    await services.outbox.submit(ref);
    expect(creates(r)).toBe(1);
    const intent = services.intents.getIntent(ref);
    expect(intent?.status).toBe('queued');
    expect(intent?.lastErrorCode).toBe('NOT_BEFORE');
    const nextAtMs = (intent?.nextAttemptAt ?? 0) * 1000;
    expect(nextAtMs).toBeGreaterThanOrEqual(startedMs + 86_400_000);
    expect(nextAtMs).toBeLessThanOrEqual(Date.now() + 86_400_000 + 1000);
    // The loop's pause covers the create group until then (the hold is stored for every process).
    expect(services.pauseFor(['orderCreate', 'orderRead']).pausedUntilMs()).toBeGreaterThanOrEqual(startedMs + 86_400_000);

    merchant.mode({ kind: 'normal' });
    const before = r.requests.length;
    await services.outbox.runOnce();
    await services.outbox.submit(ref);
    expect(r.requests.length).toBe(before);
    expect(services.intents.getIntent(ref)?.status).toBe('queued');
    expect(merchant.charges.filter((c) => c.clientOrderRef === ref)).toEqual([]);
    await core.close();
  });
});
