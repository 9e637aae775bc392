// The retry matrix of interface v1 §7.5, proved against a scripted HTTPS merchant: what is retried, how many
// times, never earlier than Retry-After, and always with the very same body bytes (so the same
// clientOrderRef / clientRefundRef / clientMessageRef).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MerchantAccessError, MerchantApiError, MerchantNotBeforeError, MerchantTransportError } from '../../../src/core/merchant/merchant-errors';
import { DEFAULT_RETRY_POLICY, retryDelayMs } from '../../../src/core/merchant/retry-policy';
import { buildClient, FAST_RETRY, rejectionOf, type Kit } from './client-kit';
import { ACCOUNT_DATA, failure, makeTestCa, orderData, startScriptedServer, success, type ScriptedServer, type TestCa } from './scripted-https-server';

const SCALE = 20;
const USER_ID = '170001';
const API_KEY = 'AK_5a1b2c3d4e5f60718293a4b5c6d7e8f9';

let tls: TestCa;
let server: ScriptedServer;
let kit: Kit;

beforeAll(async () => {
  tls = await makeTestCa();
  server = await startScriptedServer(tls);
});

afterAll(async () => {
  await server.close();
  tls.remove();
});

beforeEach(() => {
  kit?.close();
  // A fresh client (and quota model) per test: one test's Retry-After must not slow the next.
  kit = buildClient({ baseUrl: server.baseUrl, userId: USER_ID, apiKey: API_KEY, ca: server.ca, scale: SCALE, timeoutMs: 300, retry: FAST_RETRY });
});

/** Client-clock gaps between consecutive attempts. */
function gaps(): number[] {
  return kit.exchanges.slice(1).map((e, i) => e.sentAt - (kit.exchanges[i]?.sentAt ?? e.sentAt));
}

describe('retries per interface v1 §7.5', () => {
  it('retries a 503 and waits at least its Retry-After (in the client clock)', async () => {
    server.script([failure(503, 503001, { 'retry-after': '2' }), success(ACCOUNT_DATA)]);
    const result = await kit.client.getAccount();
    expect(result.data.balance).toBe(10050);
    expect(server.requests).toHaveLength(2);
    expect(gaps()[0]).toBeGreaterThanOrEqual(2000);
  });

  it('retries a 429 no earlier than Retry-After', async () => {
    server.script([failure(429, 429001, { 'retry-after': '3' }), success(ACCOUNT_DATA)]);
    await kit.client.getAccount();
    expect(server.requests).toHaveLength(2);
    expect(gaps()[0]).toBeGreaterThanOrEqual(3000);
  });

  it('retries a per-order cooldown 429 of a cancel after its Retry-After', async () => {
    server.script([failure(429, 429111, { 'retry-after': '5' }), success(orderData('ord-cd-1', { state: 'cancelled', allowedActions: [] }))]);
    const result = await kit.client.cancelOrder('ord-cd-1', 'changed my mind');
    expect(result.data.state).toBe('cancelled');
    expect(server.requests).toHaveLength(2);
    expect(gaps()[0]).toBeGreaterThanOrEqual(5000);
  });

  it('retries 503 without Retry-After with growing, jittered, capped waits', async () => {
    server.script([failure(503, 503001), failure(503, 503001), success(ACCOUNT_DATA)]);
    await kit.client.getAccount();
    expect(server.requests).toHaveLength(3);
    // The wait cap doubles per attempt; with the least jitter (random 0) each wait is half its cap.
    const least = [1, 2, 3, 4, 5, 6, 7, 8].map((attempt) => retryDelayMs(new MerchantApiError(503, 503001, null, null), attempt, DEFAULT_RETRY_POLICY, () => 0));
    expect(least).toEqual([250, 500, 1000, 2000, 4000, 8000, 15000, 15000]);
    const most = retryDelayMs(new MerchantApiError(503, 503001, null, null), 3, DEFAULT_RETRY_POLICY, () => 0.999999);
    expect(most).toBeLessThanOrEqual(2000);
    // Retry-After is a floor, whatever the jitter says.
    expect(retryDelayMs(new MerchantApiError(429, 429001, null, 7000), 1, DEFAULT_RETRY_POLICY, () => 0)).toBe(7000);
  });

  it('retries a 500 a limited number of times, then fails with 500001 and its requestId', async () => {
    const last = failure(500, 500001, {}, 'req_00000000000000000000abcd');
    server.script([failure(500, 500001), failure(500, 500001), last, success(ACCOUNT_DATA)]);
    const error = await rejectionOf(kit.client.getAccount());
    expect(error).toBeInstanceOf(MerchantApiError);
    if (!(error instanceof MerchantApiError)) return;
    expect(error.code).toBe(500001);
    expect(error.requestId).toBe('req_00000000000000000000abcd');
    expect(server.requests).toHaveLength(FAST_RETRY.maxAttemptsOn500);
  });

  it.each([
    [400, 400001],
    [401, 401001],
    [403, 403005],
    [404, 404002],
    [409, 409001],
    [422, 422103],
  ])('never retries HTTP %i (code %i): exactly one request', async (status, code) => {
    server.script([failure(status, code), success(orderData('ord-nr-1'))]);
    const error = await rejectionOf(kit.client.createOrder({ clientOrderRef: 'ord-nr-1', productRef: 1001, units: 1 }));
    expect(error).toBeInstanceOf(MerchantApiError);
    if (!(error instanceof MerchantApiError)) return;
    expect(error.httpStatus).toBe(status);
    expect(error.code).toBe(code);
    expect(error.requestId).toMatch(/^req_[0-9a-f]{24}$/);
    expect(server.requests).toHaveLength(1);
  });

  it('times out a hung request and retries it when it is repeatable', async () => {
    server.script([{ behaviour: 'hang' }]);
    const error = await rejectionOf(kit.client.getOrder('ord-hang-1'));
    expect(error).toBeInstanceOf(MerchantTransportError);
    if (!(error instanceof MerchantTransportError)) return;
    expect(error.failure).toBe('timeout');
    expect(server.requests).toHaveLength(FAST_RETRY.maxAttempts);
  });

  it('a timeout then an answer: the retry succeeds', async () => {
    server.script([{ behaviour: 'hang' }, success(orderData('ord-hang-2'))]);
    const result = await kit.client.getOrder('ord-hang-2');
    expect(result.data.clientOrderRef).toBe('ord-hang-2');
    expect(server.requests).toHaveLength(2);
  });

  it('never sends a verification code twice after a timeout (its outcome is unknown)', async () => {
    server.script([{ behaviour: 'hang' }, success(orderData('ord-otp-1', { state: 'processing' }))]);
    const error = await rejectionOf(kit.client.submitVerificationCode('ord-otp-1', '482913'));
    expect(error).toBeInstanceOf(MerchantTransportError);
    if (!(error instanceof MerchantTransportError)) return;
    expect(error.failure).toBe('timeout');
    expect(server.requests).toHaveLength(1);
  });

  it('createOrder: every retry sends the identical body bytes with the same clientOrderRef', async () => {
    server.script([
      failure(503, 503001, { 'retry-after': '1' }),
      { behaviour: 'hang' },
      failure(429, 429001, { 'retry-after': '1' }),
      success(orderData('ord-same-1')),
    ]);
    const result = await kit.client.createOrder({
      clientOrderRef: 'ord-same-1',
      productRef: 1003,
      units: 2,
      purchaseSchemaRevision: 4,
      purchaseEntries: [{ mobile: '13800138000' }],
    });
    expect(result.data.clientOrderRef).toBe('ord-same-1');
    expect(server.requests).toHaveLength(4);
    const bodies = new Set(server.requests.map((r) => r.body));
    expect(bodies.size).toBe(1);
    const sent = JSON.parse(server.requests[0]?.body ?? '{}') as Record<string, unknown>;
    expect(sent).toEqual({ clientOrderRef: 'ord-same-1', productRef: 1003, units: 2, purchaseSchemaRevision: 4, purchaseEntries: [{ mobile: '13800138000' }] });
    for (const request of server.requests) expect(request.path).toBe('/openapi/v1/orders/create');
  });

  it('requestRefund and postAftersaleMessage retry with the same client reference and body', async () => {
    server.script([failure(503, 503001, { 'retry-after': '1' }), success(orderData('ord-rf-1', { refunds: [] }))]);
    await kit.client.requestRefund('ord-rf-1', { clientRefundRef: 'rf-1', amountFen: 1250, reason: 'card invalid' });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]?.body).toBe(server.requests[1]?.body);
    expect(JSON.parse(server.requests[0]?.body ?? '{}')).toEqual({ clientRefundRef: 'rf-1', reason: 'card invalid', amount: 12.5 });

    server.script([
      { behaviour: 'hang' },
      success({ messageRef: 'm-1', clientMessageRef: 'msg-1', sender: 'buyer', text: 'hello', images: [], createdAt: 1_700_000_000 }),
    ]);
    const message = await kit.client.postAftersaleMessage('case-1', { clientMessageRef: 'msg-1', text: 'hello' });
    expect(message.data.clientMessageRef).toBe('msg-1');
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]?.body).toBe(server.requests[1]?.body);
  });

  it('sends the credentials in the two headers only, never in the URL or the body', async () => {
    server.script([success(orderData('ord-h-1'))]);
    await kit.client.createOrder({ clientOrderRef: 'ord-h-1', productRef: 1001, units: 1 });
    const [request] = server.requests;
    expect(request?.headers['x-service-user-id']).toBe(USER_ID);
    expect(request?.headers['x-service-key']).toBe(API_KEY);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.path).not.toContain(API_KEY);
    expect(request?.body).not.toContain(API_KEY);
  });
});

describe('a refusal or a wait after an attempt with an unknown outcome', () => {
  // A refund (repeatable under its clientRefundRef): the sender retries its 500s itself, whereas a
  // create ends at its first 500 and the outbox counts it (contract §7.12, below).
  it('a 401 after a 500 says an earlier attempt may have been processed, with both requestIds', async () => {
    server.script([failure(500, 500001), failure(401, 401001)]);
    const error = await rejectionOf(kit.client.requestRefund('ord-unc-1', { clientRefundRef: 'rf-unc-1', reason: 'test' }));
    expect(error).toBeInstanceOf(MerchantAccessError);
    expect(server.requests).toHaveLength(2);
    expect((error as MerchantAccessError).earlierAttemptUncertain).toBe(true);
    expect((error as MerchantAccessError).requestIds).toHaveLength(2);
  });

  it('a 401 on the first attempt says nothing was processed', async () => {
    server.script([failure(401, 401001)]);
    const error = await rejectionOf(kit.client.createOrder({ clientOrderRef: 'ord-unc-2', productRef: 1001, units: 1 }));
    expect(error).toBeInstanceOf(MerchantAccessError);
    expect(server.requests).toHaveLength(1);
    expect((error as MerchantAccessError).earlierAttemptUncertain).toBe(false);
  });

  it('a Retry-After beyond the limit after a 500 is a wait that an earlier attempt may have been processed', async () => {
    server.script([failure(500, 500001), failure(429, 429001, { 'retry-after': '86400' })]);
    const error = await rejectionOf(kit.client.requestRefund('ord-unc-3', { clientRefundRef: 'rf-unc-3', reason: 'test' }));
    expect(error).toBeInstanceOf(MerchantNotBeforeError);
    expect(server.requests).toHaveLength(2);
    expect((error as MerchantNotBeforeError).earlierAttemptUncertain).toBe(true);
  });

  it('a create, and an order look-up asked so, end at their first 500: the outbox counts it against the intent', async () => {
    server.script([failure(500, 500001), failure(500, 500001)]);
    const created = await rejectionOf(kit.client.createOrder({ clientOrderRef: 'ord-unc-4', productRef: 1001, units: 1 }));
    expect(created).toBeInstanceOf(MerchantApiError);
    expect(server.requests).toHaveLength(1);
    const looked = await rejectionOf(kit.client.getOrder('ord-unc-4', undefined, { attemptsOn500: 1 }));
    expect(looked).toBeInstanceOf(MerchantApiError);
    expect(server.requests).toHaveLength(2);
  });
});
