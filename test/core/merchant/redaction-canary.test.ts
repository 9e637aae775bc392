// Canaries over a whole run: the API key, a top-up account sent in purchaseEntries and a
// verification code go to the merchant (the scripted server proves they were sent), yet none of them
// appears in any log line of the request sender, nor in any error message, including failures,
// retries, timeouts and a merchant that echoes the key back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedactingLogger } from '../../../src/core/logging/redacting-logger';
import { MerchantError } from '../../../src/core/merchant/merchant-errors';
import { buildClient, expectNoSecrets, FAST_RETRY, type Kit } from './client-kit';
import { ACCOUNT_DATA, failure, makeTestCa, orderData, startScriptedServer, success, type ScriptedServer, type TestCa } from './scripted-https-server';

const API_KEY = 'AK_c0ffee00c0ffee00c0ffee00c0ffee00';
const TOPUP_ACCOUNT = '13912345678';
const VERIFICATION_CODE = '739105';
const CANARIES = [API_KEY, TOPUP_ACCOUNT, VERIFICATION_CODE];

let tls: TestCa;
let server: ScriptedServer;
let kit: Kit;
const lines: string[] = [];
const errors: unknown[] = [];

beforeAll(async () => {
  tls = await makeTestCa();
  server = await startScriptedServer(tls);
  const logger = new RedactingLogger({ sink: (line) => lines.push(line), level: 'debug' });
  logger.registerSecret(API_KEY);
  kit = buildClient({ baseUrl: server.baseUrl, userId: '170001', apiKey: API_KEY, ca: server.ca, scale: 20, timeoutMs: 300, retry: FAST_RETRY, logger });
});

afterAll(async () => {
  kit.close();
  await server.close();
  tls.remove();
});

/** Runs a call as app code would: a failure is logged with the error object itself. */
async function run(call: () => Promise<unknown>, logger: { error(message: string, fields: Record<string, unknown>): void }): Promise<void> {
  try {
    await call();
  } catch (error) {
    errors.push(error);
    logger.error('merchant call failed', { error });
  }
}

describe('redaction canary over a whole run', () => {
  it('no canary in any log line or error, though every one was sent', async () => {
    const appLog = new RedactingLogger({ sink: (line) => lines.push(line), level: 'debug' });
    appLog.registerSecret(API_KEY);
    const sentBodies: string[] = [];
    const sentHeaders: string[] = [];
    const step = async (replies: Parameters<ScriptedServer['script']>[0], call: () => Promise<unknown>): Promise<void> => {
      server.script(replies);
      await run(call, appLog);
      sentBodies.push(...server.requests.map((r) => r.body));
      sentHeaders.push(...server.requests.map((r) => JSON.stringify(r.headers)));
    };

    await step([success(ACCOUNT_DATA)], () => kit.client.getAccount());
    const topup = { clientOrderRef: 'ord-canary-1', productRef: 1003, units: 1, purchaseSchemaRevision: 2, purchaseEntries: [{ mobile: TOPUP_ACCOUNT }] };
    await step([failure(503, 503001, { 'retry-after': '1' }), { behaviour: 'hang' }, success(orderData('ord-canary-1'))], () => kit.client.createOrder(topup));
    await step([failure(401, 401001)], () => kit.client.createOrder(topup));
    await step([failure(500, 500001)], () => kit.client.createOrder(topup));
    await step([failure(422, 422111)], () => kit.client.createOrder(topup));
    await step([{ behaviour: 'hang' }], () => kit.client.submitVerificationCode('ord-canary-1', VERIFICATION_CODE));
    await step([failure(429, 429110, { 'retry-after': '1' }), success(orderData('ord-canary-1', { state: 'processing' }))], () =>
      kit.client.submitVerificationCode('ord-canary-1', VERIFICATION_CODE),
    );
    // A merchant that echoes what it was sent, in a page, in the message and even in the request id header.
    await step([{ status: 200, headers: { 'content-type': 'text/html' }, body: `<html>bad key ${API_KEY} for ${TOPUP_ACCOUNT}</html>` }], () => kit.client.getAccount());
    await step([{ status: 401, body: { code: 401001, message: `key ${API_KEY} is wrong`, data: null, requestId: 'req_aaaaaaaaaaaaaaaaaaaaaaaa' } }], () => kit.client.getAccount());
    await step([{ status: 200, body: { code: 0, message: 'ok', data: { ...ACCOUNT_DATA, balance: 'x' }, requestId: 'req_bbbbbbbbbbbbbbbbbbbbbbbb', echo: { purchaseEntries: [{ mobile: TOPUP_ACCOUNT }] } } }], () =>
      kit.client.getAccount(),
    );

    // The canaries really travelled: otherwise their absence from the logs would prove nothing.
    expect(sentBodies.some((b) => b.includes(TOPUP_ACCOUNT))).toBe(true);
    expect(sentBodies.some((b) => b.includes(VERIFICATION_CODE))).toBe(true);
    expect(sentHeaders.every((h) => h.includes(API_KEY))).toBe(true);

    expect(errors.length).toBeGreaterThanOrEqual(6);
    for (const error of errors) {
      expect(error).toBeInstanceOf(MerchantError);
      expectNoSecrets(error, CANARIES);
    }
    // Failures, retries and successes were all logged, and nothing secret came with them.
    expect(lines.length).toBeGreaterThan(15);
    expect(lines.some((l) => l.includes('"willRetry":true'))).toBe(true);
    expect(lines.some((l) => l.includes('merchant call failed'))).toBe(true);
    for (const line of lines) for (const canary of CANARIES) expect(line).not.toContain(canary);
  });
});
