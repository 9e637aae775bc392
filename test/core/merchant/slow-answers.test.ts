// Slow merchant answers move the connection state (contract §8.3): a request still unanswered past
// the threshold makes it "degraded" (slow) while it waits, an answer that took longer keeps it so
// (GET /account's too), and a fast answer is "online" again. A transport that answers after a
// chosen real delay stands in for the merchant; the threshold is shortened to keep the test quick.
import { describe, expect, it } from 'vitest';
import { realAnswerTimer } from '../../../src/core/connection/slow-answer';
import { createAccessGate } from '../../../src/core/merchant/access-gate';
import type { HttpPort } from '../../../src/core/merchant/http-port';
import { createMerchantClient } from '../../../src/core/merchant/merchant-client';
import { createQuotaModel } from '../../../src/core/merchant/quota-model';
import { createRequestSender } from '../../../src/core/merchant/request-sender';
import { createScaledClock } from '../../../src/core/platform/clock';
import { silentLogger } from './client-kit';
import { ACCOUNT_DATA } from './scripted-https-server';

const THRESHOLD_MS = 60;

/** A merchant that answers GET /account after `delayMs()` real ms. */
function delayedMerchant(delayMs: () => number): HttpPort {
  let n = 0;
  return async () => {
    const requestId = `req-${++n}`;
    await new Promise((resolve) => setTimeout(resolve, delayMs()));
    return { status: 200, headers: { 'x-request-id': requestId }, body: JSON.stringify({ code: 0, message: 'success', data: ACCOUNT_DATA, requestId }) };
  };
}

function build(delayMs: () => number, scale = 1) {
  const clock = createScaledClock(scale);
  const access = createAccessGate(clock);
  const send = createRequestSender({
    baseUrl: 'https://merchant.example.com/openapi/v1',
    credentials: () => Promise.resolve({ userId: '170001', apiKey: 'AK_5a1b2c3d4e5f60718293a4b5c6d7e8f9' }),
    http: delayedMerchant(delayMs),
    quota: createQuotaModel(clock),
    clock,
    logger: silentLogger,
    access,
    answerTimer: realAnswerTimer(THRESHOLD_MS),
  });
  return { access, send, client: createMerchantClient(send, access) };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('slow answers and the connection state', () => {
  it('a request still unanswered past the threshold is "degraded" while it waits; its slow answer keeps it so', async () => {
    const { access, client } = build(() => 250);
    const seen: Array<[string, number | null]> = [];
    access.connection.onChange((view) => seen.push([view.state, view.slowMs]));
    const call = client.getAccount();
    await sleep(THRESHOLD_MS + 40);
    // Told before the answer came.
    expect(access.connection.view().state).toBe('degraded');
    expect(access.connection.view().slowMs).toBeGreaterThanOrEqual(THRESHOLD_MS);
    const result = await call;
    expect(result.slowMs).toBeGreaterThanOrEqual(250 - 5);
    expect(access.connection.view().state).toBe('degraded');
    expect(access.connection.view().slowMs).toBeGreaterThanOrEqual(245);
    expect(seen[0]?.[0]).toBe('degraded');
  });

  it('a slow GET /account stays "degraded": the account answer does not make it look online', async () => {
    const { access, client } = build(() => 200);
    const result = await client.getAccount();
    expect(result.slowMs).toBeGreaterThan(THRESHOLD_MS);
    expect(access.connection.view()).toMatchObject({ state: 'degraded', requestId: result.requestId });
  });

  it('fast answers are online, and no late "still waiting" follows them; one fast answer after slow ones is online', async () => {
    let delay = 150;
    const { access, client } = build(() => delay);
    await client.getAccount();
    expect(access.connection.view().state).toBe('degraded');
    delay = 0;
    const fast = await client.getAccount();
    expect(fast.slowMs).toBeUndefined();
    expect(access.connection.view()).toMatchObject({ state: 'online', slowMs: null });
    await sleep(THRESHOLD_MS * 2);
    expect(access.connection.view().state).toBe('online');
  });

  it('measures real time: a client clock fifty times faster does not make a quick answer slow', async () => {
    const { access, client } = build(() => 20, 50);
    const result = await client.getAccount();
    expect(result.slowMs).toBeUndefined();
    expect(access.connection.view().state).toBe('online');
  });
});
