// The ceiling on the merchant's 500 answers per order intent (interface v1 §7.5, contract §7.12), core as
// every host builds it (createCore: SQLite on disk) against the sandbox over HTTPS with its fault
// "500 on every create" (serverErrorOn), counted at the sandbox (GET /control/requests):
// - at most MAX_SERVER_FAILURES creates for the intent, looked up by its ref between them; then it waits
//   as merchant_failing with every requestId the merchant gave, nothing more is sent (not by a pass,
//   not by a restarted process: the count survives the restart), and the ledger shows no charge;
// - lifted and retried by the buyer: looked up first, sent under the same ref, charged exactly once;
// - look-ups that fail count too; a withdraw then looks it up and retires the ref;
// - what counts: 5xx answers but 503 (its own rule: Retry-After); never 429, timeouts or lost answers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOrderViews } from '../../../src/core/app/order-views';
import { createCore, type Core, type MerchantServices } from '../../../src/core/create-core';
import { RedactingLogger } from '../../../src/core/logging/redacting-logger';
import type { HttpPort } from '../../../src/core/merchant/http-port';
import { createNodeHttpsPort } from '../../../src/core/merchant/node-https-port';
import { MerchantApiError, MerchantProtocolError, MerchantTransportError } from '../../../src/core/merchant/merchant-errors';
import { DEFAULT_RETRY_POLICY, isServerFailure, MAX_SERVER_FAILURES } from '../../../src/core/merchant/retry-policy';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';
import { isOrderableCard, type ControlProduct } from '../../support/control-catalog';
import { startMerchant, type Merchant } from '../app/app-kit';

interface Seen {
  method: string;
  path: string;
  clientOrderRef: string | null;
  status: number;
  requestId: string;
}

interface Rig {
  dataDir: string;
  secrets: MemorySecretStore;
  ports: ReturnType<typeof createNodeHttpsPort>[];
  cores: Core[];
}

const rigs: Rig[] = [];
function newRig(): Rig {
  const rig: Rig = { dataDir: mkdtempSync(join(tmpdir(), 'procure-ceiling-')), secrets: new MemorySecretStore(), ports: [], cores: [] };
  rigs.push(rig);
  return rig;
}
afterEach(async () => {
  for (const rig of rigs.splice(0)) {
    for (const core of rig.cores) await core.close().catch(() => undefined);
    for (const port of rig.ports) port.close();
    rmSync(rig.dataDir, { recursive: true, force: true });
  }
});

/** A core on the rig's data folder and secret store (a second call is the process restarted). */
async function openCore(rig: Rig): Promise<Core> {
  const logger = new RedactingLogger({ sink: () => undefined, level: 'debug' });
  const http = (ca: string | null): HttpPort => {
    const port = createNodeHttpsPort(ca === null ? {} : { ca });
    rig.ports.push(port);
    return port;
  };
  const core = await createCore({ dataDir: rig.dataDir, secrets: rig.secrets, logger, http });
  rig.cores.push(core);
  return core;
}

async function cacheProduct(core: Core, services: MerchantServices, productRef: number): Promise<number> {
  const { data: detail } = await services.client.getProduct(productRef);
  core.catalog.applyProductSnapshot({ from: 'detail', detail });
  const { data: template } = await services.client.getTemplate(productRef, 0);
  core.catalog.upsertTemplate(template);
  const price = detail.variants[0]?.price;
  if (price === undefined) throw new Error('no variant');
  return price;
}

/** Makes the intent due now (the outbox's backoff between attempts is real time otherwise). */
const dueNow = (core: Core, ref: string): void => {
  core.db.prepare('UPDATE order_intents SET next_attempt_at = 0 WHERE client_order_ref = ? AND next_attempt_at IS NOT NULL').run(ref);
};

describe('the ceiling on 500 answers against the sandbox (ledger, request log)', () => {
  let merchant: Merchant;
  let product: ControlProduct;
  beforeAll(async () => {
    merchant = await startMerchant();
    const found = (await merchant.products()).find(isOrderableCard);
    if (found === undefined) throw new Error('no orderable card product');
    product = found;
  });
  afterAll(async () => {
    await merchant?.control('POST', '/control/faults', { serverErrorOn: [] }).catch(() => undefined);
    await merchant?.stop();
  });

  const faults = (serverErrorOn: string[]): Promise<unknown> => merchant.control('POST', '/control/faults', { serverErrorOn });
  const seen = (ref: string): Promise<Seen[]> => merchant.control<Seen[]>('GET', `/control/requests?clientOrderRef=${ref}`);
  const charges = async (userId: string, ref: string): Promise<number> =>
    (await merchant.control<{ entries: { kind: string; clientOrderRef: string }[] }>('GET', `/control/ledger/${userId}`)).entries.filter((e) => e.kind === 'charge' && e.clientOrderRef === ref).length;
  const balance = async (userId: string): Promise<string> => (await merchant.control<{ balance: string }>('GET', `/control/ledger/${userId}`)).balance;

  it(`at most ${MAX_SERVER_FAILURES} creates, then waiting for the buyer across a restart; retried: looked up first and charged once`, async () => {
    const rig = newRig();
    const account = await merchant.newAccount();
    const core = await openCore(rig);
    await core.connect({ baseUrl: merchant.sandbox.baseUrl, userId: account.userId, apiKey: account.apiKey, caCertPem: merchant.caCertPem });
    const services = await core.merchant();
    const price = await cacheProduct(core, services, product.productRef);
    const ref = services.intents.placeOrder({ productRef: product.productRef, units: 1, unitPriceFen: price }).clientOrderRef;
    const balanceBefore = await balance(account.userId);
    await faults(['orderCreate']);

    // Two rounds in this process: one create each (the sender no longer retries a 500 by itself).
    await services.outbox.submit(ref);
    expect(services.intents.getIntent(ref)).toMatchObject({ status: 'unknown', serverFailures: 1 });
    dueNow(core, ref);
    await services.outbox.submit(ref);
    expect(services.intents.getIntent(ref)).toMatchObject({ status: 'unknown', serverFailures: 2 });

    // The process restarts: the count is read back, not started again.
    await core.close();
    const restarted = await openCore(rig);
    const again = await restarted.merchant();
    expect(again.intents.getIntent(ref)?.serverFailures).toBe(2);
    dueNow(restarted, ref);
    await again.outbox.submit(ref);
    const waiting = again.intents.getIntent(ref);
    expect(waiting).toMatchObject({ status: 'merchant_failing', serverFailures: MAX_SERVER_FAILURES, nextAttemptAt: null, lastErrorCode: '500001' });

    // Nothing more is sent: not by submit, not by passes, whatever the time.
    await again.outbox.submit(ref);
    await again.outbox.runOnce();
    await again.outbox.runOnce();
    const log = await seen(ref);
    const creates = log.filter((r) => r.method === 'POST' && r.path === '/orders/create');
    expect(creates.map((r) => r.status)).toEqual(Array.from({ length: MAX_SERVER_FAILURES }, () => 500));
    // Looked up by its ref between creates (404002: the 500s created nothing).
    expect(log.map((r) => `${r.method} ${r.status}`)).toEqual(['POST 500', 'GET 404', 'POST 500', 'GET 404', 'POST 500']);
    // Every requestId the merchant gave is kept on the intent and shown in its detail.
    expect(waiting?.requestIds).toEqual(log.map((r) => r.requestId));
    const detail = createOrderViews(restarted.db, restarted.vault).detail(ref);
    expect(detail).toMatchObject({ intentStatus: 'merchant_failing', serverFailures: MAX_SERVER_FAILURES });
    expect(detail?.requestIds).toEqual(waiting?.requestIds);
    expect(await charges(account.userId, ref)).toBe(0);
    expect(await balance(account.userId)).toBe(balanceBefore);

    // Lifted; the buyer retries: the count starts again, GET first, then the same ref; one charge.
    await faults([]);
    again.outbox.retryFailing(ref);
    expect(again.intents.getIntent(ref)).toMatchObject({ status: 'unknown', serverFailures: 0 });
    await again.outbox.submit(ref);
    expect(again.intents.getIntent(ref)?.status).toBe('accepted');
    const after = (await seen(ref)).slice(log.length);
    expect(after.map((r) => `${r.method} ${r.path === '/orders/create' ? 'create' : 'lookup'} ${r.status}`)).toEqual(['GET lookup 404', 'POST create 200']);
    expect(await charges(account.userId, ref)).toBe(1);
    // A second retry is refused: it is not waiting for one.
    expect(() => again.outbox.retryFailing(ref)).toThrow(/not waiting/);
  });

  it('failing look-ups count too; a withdraw then looks it up and retires the ref, nothing charged', async () => {
    const rig = newRig();
    const account = await merchant.newAccount();
    const core = await openCore(rig);
    await core.connect({ baseUrl: merchant.sandbox.baseUrl, userId: account.userId, apiKey: account.apiKey, caCertPem: merchant.caCertPem });
    const services = await core.merchant();
    const price = await cacheProduct(core, services, product.productRef);
    const ref = services.intents.placeOrder({ productRef: product.productRef, units: 1, unitPriceFen: price }).clientOrderRef;
    await faults(['orderCreate', 'orderLookup']);
    for (let round = 0; round < MAX_SERVER_FAILURES + 2; round++) {
      dueNow(core, ref);
      await services.outbox.submit(ref);
    }
    expect(services.intents.getIntent(ref)).toMatchObject({ status: 'merchant_failing', serverFailures: MAX_SERVER_FAILURES });
    const log = await seen(ref);
    expect(log.map((r) => `${r.method} ${r.status}`)).toEqual(['POST 500', ...Array.from({ length: MAX_SERVER_FAILURES - 1 }, () => 'GET 500')]);

    await faults([]);
    expect(await services.outbox.withdraw(ref)).toBe('withdrawn');
    expect((await seen(ref)).slice(log.length).map((r) => `${r.method} ${r.status}`)).toEqual(['GET 404']);
    expect(await charges(account.userId, ref)).toBe(0);
  });
});

describe('what counts against the ceiling', () => {
  it('every 5xx answer but 503, envelope or gateway page; never 429, 503, a timeout or a lost answer', () => {
    expect(isServerFailure(new MerchantApiError(500, 500001, 'req_a', null))).toBe(true);
    expect(isServerFailure(new MerchantProtocolError(502, 'an HTML page', null))).toBe(true);
    expect(isServerFailure(new MerchantProtocolError(504, 'an HTML page', null))).toBe(true);
    expect(isServerFailure(new MerchantApiError(503, 503001, 'req_b', 1000))).toBe(false);
    expect(isServerFailure(new MerchantProtocolError(503, 'an HTML page', null))).toBe(false);
    expect(isServerFailure(new MerchantApiError(429, 429001, 'req_c', 1000))).toBe(false);
    expect(isServerFailure(new MerchantApiError(422, 422103, 'req_d', null))).toBe(false);
    expect(isServerFailure(new MerchantTransportError('timeout', 'no answer in time'))).toBe(false);
    expect(isServerFailure(new MerchantTransportError('connection', 'reset', null, false))).toBe(false);
    expect(isServerFailure(new Error('disk full'))).toBe(false);
    // One constant, within the bound, and the sender's own cap on 500s is that constant.
    expect(MAX_SERVER_FAILURES).toBeGreaterThanOrEqual(1);
    expect(MAX_SERVER_FAILURES).toBeLessThanOrEqual(5);
    expect(DEFAULT_RETRY_POLICY.maxAttemptsOn500).toBe(MAX_SERVER_FAILURES);
  });
});
