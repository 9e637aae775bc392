// Bad input: every malformed merchant answer ends as a typed error that carries the
// requestId when there is one; never a crash, never wrongly typed data. And the other side of
// tolerance: unknown fields and unknown enum values are accepted and kept raw, never read as success.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MerchantProtocolError, MerchantTransportError } from '../../../src/core/merchant/merchant-errors';
import { classifyOrderState, isTerminalSuccess } from '../../../src/shared/merchant/known-values';
import { buildClient, FAST_RETRY, rejectionOf, type Kit } from './client-kit';
import { ACCOUNT_DATA, makeTestCa, orderData, PRODUCT_DATA, startScriptedServer, success, type ScriptedServer, type TestCa } from './scripted-https-server';

const API_KEY = 'AK_00112233445566778899aabbccddeeff';
const RID = 'req_0123456789abcdef01234567';

let tls: TestCa;
let server: ScriptedServer;
let kit: Kit;

beforeAll(async () => {
  tls = await makeTestCa();
  server = await startScriptedServer(tls);
});

afterAll(async () => {
  kit?.close();
  await server.close();
  tls.remove();
});

beforeEach(() => {
  kit?.close();
  kit = buildClient({ baseUrl: server.baseUrl, userId: '170001', apiKey: API_KEY, ca: server.ca, scale: 20, timeoutMs: 300, retry: FAST_RETRY });
});

async function protocolError(call: () => Promise<unknown>): Promise<MerchantProtocolError> {
  const error = await rejectionOf(call());
  expect(error).toBeInstanceOf(MerchantProtocolError);
  if (!(error instanceof MerchantProtocolError)) throw new Error('unreachable');
  expect(error.message).not.toContain(API_KEY);
  return error;
}

async function transportError(call: () => Promise<unknown>): Promise<MerchantTransportError> {
  const error = await rejectionOf(call());
  expect(error).toBeInstanceOf(MerchantTransportError);
  if (!(error instanceof MerchantTransportError)) throw new Error('unreachable');
  expect(error.message).not.toContain(API_KEY);
  return error;
}

const html = '<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>';

describe('malformed answers become typed errors', () => {
  it('an HTML error page with status 200', async () => {
    server.script([{ status: 200, headers: { 'content-type': 'text/html', 'x-request-id': RID }, body: html }]);
    const error = await protocolError(() => kit.client.getAccount());
    expect(error.httpStatus).toBe(200);
    expect(error.message).toContain('HTML');
    expect(error.requestId).toBe(RID);
    expect(server.requests).toHaveLength(1);
  });

  it("a gateway's HTML page on 502 is retried a limited number of times, then a protocol error", async () => {
    server.script([{ status: 502, headers: { 'content-type': 'text/html' }, body: html }]);
    const error = await protocolError(() => kit.client.getAccount());
    expect(error.httpStatus).toBe(502);
    expect(error.requestId).toBeNull();
    expect(server.requests).toHaveLength(FAST_RETRY.maxAttemptsOn500);
  });

  it('a truncated body (Content-Length larger than what was sent, then close)', async () => {
    server.script([{ ...success(ACCOUNT_DATA, RID), behaviour: 'truncate' }]);
    const error = await transportError(() => kit.client.getAccount());
    expect(error.failure).toBe('connection');
    // The headers had arrived, so the request can still be named.
    expect(error.requestId).toBe(RID);
    expect(error.message).toContain(RID);
  });

  it('a truncated body that is then answered in full on the retry', async () => {
    server.script([{ ...success(ACCOUNT_DATA), behaviour: 'truncate' }, success(ACCOUNT_DATA)]);
    const result = await kit.client.getAccount();
    expect(result.data.userId).toBe('170001');
    expect(server.requests).toHaveLength(2);
  });

  it('wrong types in data: a price as a string', async () => {
    const variants = PRODUCT_DATA.variants.map((v) => ({ ...v, price: '18.50' }));
    server.script([success({ ...PRODUCT_DATA, variants }, RID)]);
    const error = await protocolError(() => kit.client.getProduct(1001));
    expect(error.requestId).toBe(RID);
    expect(error.message).toContain('variants.0.price');
  });

  it('money with a third decimal is refused, never rounded', async () => {
    server.script([success({ ...ACCOUNT_DATA, balance: 10.005 }, RID)]);
    const error = await protocolError(() => kit.client.getAccount());
    expect(error.requestId).toBe(RID);
    expect(error.message).toContain('balance');
  });

  it('missing required fields', async () => {
    const withoutBalance: Record<string, unknown> = { ...ACCOUNT_DATA };
    delete withoutBalance.balance;
    server.script([success(withoutBalance, RID)]);
    const error = await protocolError(() => kit.client.getAccount());
    expect(error.requestId).toBe(RID);
    expect(error.message).toContain('balance');

    const withoutState = orderData('ord-bad-1');
    delete withoutState.state;
    server.script([success(withoutState, RID)]);
    expect((await protocolError(() => kit.client.getOrder('ord-bad-1'))).message).toContain('state');
  });

  it('a success envelope without data, or with null data', async () => {
    server.script([{ status: 200, headers: { 'x-request-id': RID }, body: { code: 0, message: 'ok', requestId: RID } }]);
    expect((await protocolError(() => kit.client.getAccount())).requestId).toBe(RID);
    server.script([{ status: 200, body: { code: 0, message: 'ok', data: null, requestId: RID } }]);
    expect((await protocolError(() => kit.client.getAccount())).requestId).toBe(RID);
  });

  it('a JSON array instead of the envelope (the requestId taken from the header)', async () => {
    server.script([{ status: 200, headers: { 'x-request-id': RID }, body: [ACCOUNT_DATA] }]);
    const error = await protocolError(() => kit.client.getAccount());
    expect(error.message).toContain('not the interface envelope');
    expect(error.requestId).toBe(RID);
  });

  it('a JSON scalar, a string code, and JSON that does not parse', async () => {
    server.script([{ status: 200, body: '42' }]);
    await protocolError(() => kit.client.getAccount());
    server.script([{ status: 200, body: { code: '0', message: 'ok', data: ACCOUNT_DATA, requestId: RID } }]);
    expect((await protocolError(() => kit.client.getAccount())).requestId).toBe(RID);
    server.script([{ status: 200, headers: { 'x-request-id': RID }, body: '{"code":0,"data":{"accountRef":' }]);
    expect((await protocolError(() => kit.client.getAccount())).requestId).toBe(RID);
  });

  it('an empty body', async () => {
    server.script([{ status: 200, body: '' }]);
    const error = await protocolError(() => kit.client.getAccount());
    expect(error.message).toContain('empty body');
    expect(error.requestId).toBeNull();
  });

  it('a success code with an error status is not taken for success', async () => {
    server.script([{ status: 500, body: { code: 0, message: 'ok', data: ACCOUNT_DATA, requestId: RID } }]);
    const error = await protocolError(() => kit.client.getAccount());
    expect(error.requestId).toBe(RID);
  });

  it('a success without any requestId is refused', async () => {
    server.script([{ status: 200, body: { code: 0, message: 'ok', data: ACCOUNT_DATA } }]);
    await protocolError(() => kit.client.getAccount());
  });

  it('a hung connection ends as a timeout', async () => {
    server.script([{ behaviour: 'hang' }]);
    const error = await transportError(() => kit.client.getAccount());
    expect(error.failure).toBe('timeout');
    expect(server.requests).toHaveLength(FAST_RETRY.maxAttempts);
  });
});

describe('tolerance: unknown is kept raw', () => {
  it('accepts unknown extra fields and keeps them', async () => {
    server.script([success({ ...ACCOUNT_DATA, loyaltyTier: 'gold', limits: { daily: 5 } })]);
    const result = await kit.client.getAccount();
    expect(result.data).toMatchObject({ loyaltyTier: 'gold', limits: { daily: 5 } });
  });

  it('keeps an unknown order state ("shipped") raw and never takes it for success', async () => {
    server.script([success(orderData('ord-ship-1', { state: 'shipped', allowedActions: ['cancel', 'track'], trackingNo: 'SF123' }), RID)]);
    const result = await kit.client.getOrder('ord-ship-1');
    expect(result.requestId).toBe(RID);
    expect(result.data.state).toBe('shipped');
    expect(result.data.allowedActions).toEqual(['cancel', 'track']);
    expect(result.data).toMatchObject({ trackingNo: 'SF123' });
    expect(classifyOrderState(result.data.state)).toEqual({ kind: 'unknown', raw: 'shipped' });
    expect(isTerminalSuccess(result.data.state)).toBe(false);
  });

  it('keeps unknown enum values in nested objects (product type, inventory type)', async () => {
    const variants = [{ ...PRODUCT_DATA.variants[0], inventoryType: 'consignment', remainingUnits: 4 }];
    server.script([success({ ...PRODUCT_DATA, productType: 'voucher', variants })]);
    const result = await kit.client.getProduct(1001);
    expect(result.data.productType).toBe('voucher');
    expect(result.data.variants[0]?.inventoryType).toBe('consignment');
    expect(result.data.variants[0]?.price).toBe(1850);
  });
});
