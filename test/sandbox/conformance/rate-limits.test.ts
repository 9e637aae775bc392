// Limits (interface v1 §8, 7.2; contract §8): sliding per-account quotas per endpoint group and in total, the
// total burst of 30 per second, 429001 with Retry-After and the X-RateLimit-* headers (on every
// authenticated answer), refused requests not counted, and the limiter and error faults.
// Real time (time scale 1): a quota window is one real minute, so each test uses a fresh account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, control, type ApiResponse } from '../../support/merchant-http';
import { startSandbox, type RunningSandbox } from '../../support/sandbox-process';
import { controlProducts, isOrderableCard, pickProduct } from '../../support/control-catalog';
import { expectEnvelope, expectError, expectOk, header, must, newAccount, sleep, templateMinUnits, type Credentials } from '../../support/wire-checks';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox(['--products', '60', '--time-scale', '1']);
});

afterAll(async () => {
  await sandbox?.stop();
});

function intHeader(res: ApiResponse, name: string): number {
  const raw = must(header(res, name), `header ${name} (HTTP ${res.status})`);
  expect(raw, `${name} is an integer`).toMatch(/^\d+$/);
  return Number(raw);
}

function expectRateHeaders(res: ApiResponse, limit: number): { remaining: number; reset: number } {
  expect(intHeader(res, 'x-ratelimit-limit')).toBe(limit);
  return { remaining: intHeader(res, 'x-ratelimit-remaining'), reset: intHeader(res, 'x-ratelimit-reset') };
}

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** Fires all calls at the same moment; returns the answers and how long the whole volley took. */
async function volley(calls: (() => Promise<ApiResponse>)[]): Promise<{ answers: ApiResponse[]; elapsedMs: number }> {
  const started = Date.now();
  const answers = await Promise.all(calls.map((call) => call()));
  return { answers, elapsedMs: Date.now() - started };
}

/**
 * Runs a volley on fresh accounts until one fits in well under a second (so every acceptance lies in
 * one burst window); a slow machine may need a second try. Throws if none does.
 */
async function volleyWithinOneSecond(make: (auth: Credentials) => (() => Promise<ApiResponse>)[]): Promise<{ auth: Credentials; answers: ApiResponse[] }> {
  const tries: number[] = [];
  for (let attempt = 0; attempt < 4; attempt++) {
    const auth = await newAccount(sandbox);
    const { answers, elapsedMs } = await volley(make(auth));
    if (elapsedMs < 800) return { auth, answers };
    tries.push(elapsedMs);
    await sleep(1200);
  }
  throw new Error(`no volley finished within 800 ms (took ${tries.join(', ')} ms): cannot judge the 1-second burst`);
}

describe('endpoint group quota (interface v1 §8; contract §8)', () => {
  it('the account group allows 60 GET /account per minute; the 61st is 429/429001 with Retry-After and X-RateLimit-*', async () => {
    const auth = await newAccount(sandbox);
    const firstAt = Date.now();
    // About 20 a second: well under the total burst of 30, so only the minute quota can refuse.
    for (let i = 0; i < 60; i++) {
      const due = firstAt + i * 50;
      if (Date.now() < due) await sleep(due - Date.now());
      const res = await callApi(sandbox, 'GET', '/account', { auth });
      expectOk(res);
      const { remaining, reset } = expectRateHeaders(res, 60);
      expect(remaining, `Remaining after ${i + 1} requests`).toBe(59 - i);
      // The oldest counted request (the first) leaves the window 60 s after it was made.
      expect(Math.abs(reset - (Math.floor(firstAt / 1000) + 60)), `Reset ${reset}`).toBeLessThanOrEqual(2);
    }
    await sleep(100);
    const refused = await callApi(sandbox, 'GET', '/account', { auth });
    expectError(refused, 429, 429001);
    const retryAfter = intHeader(refused, 'retry-after');
    const expectedWait = Math.ceil((firstAt + 60_000 - Date.now()) / 1000);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(Math.abs(retryAfter - expectedWait), `Retry-After ${retryAfter}, expected about ${expectedWait}`).toBeLessThanOrEqual(2);
    const { remaining, reset } = expectRateHeaders(refused, 60);
    expect(remaining).toBe(0);
    expect(reset).toBeGreaterThanOrEqual(nowSeconds());
    // GET /categories shares the group.
    expectError(await callApi(sandbox, 'GET', '/categories', { auth }), 429, 429001);
    // Another group of the same account is unaffected.
    const catalog = await callApi(sandbox, 'GET', '/goods/catalog', { auth });
    expectOk(catalog);
    expect(expectRateHeaders(catalog, 120).remaining).toBe(119);
  });
});

describe('X-RateLimit-* on every authenticated answer (contract §8)', () => {
  it('are present on successes and on other errors, per group', async () => {
    const auth = await newAccount(sandbox);
    const account = await callApi(sandbox, 'GET', '/account', { auth });
    expectOk(account);
    const first = expectRateHeaders(account, 60);
    expect(first.remaining).toBe(59);
    expect(Math.abs(first.reset - (nowSeconds() + 60))).toBeLessThanOrEqual(2);
    const catalog = await callApi(sandbox, 'GET', '/goods/catalog', { auth });
    expectOk(catalog);
    expect(expectRateHeaders(catalog, 120).remaining).toBe(119);
    const unknown = await callApi(sandbox, 'GET', '/goods/999999999', { auth });
    expectError(unknown, 404, 404001);
    expect(expectRateHeaders(unknown, 120).remaining).toBe(118);
    const orders = await callApi(sandbox, 'GET', '/orders', { auth });
    expectOk(orders);
    expect(expectRateHeaders(orders, 120).remaining).toBe(119);
    const subs = await callApi(sandbox, 'POST', '/goods/subscriptions', { auth, body: { productRefs: [], subscriptionState: 'subscribed' } });
    expectError(subs, 400, 400001);
    expect(expectRateHeaders(subs, 30).remaining).toBe(29);
  });
});

describe('total burst (interface v1 §8: all endpoints, burst at most 30; contract §8)', () => {
  it('31 requests at once across groups: exactly 30 accepted, the other 429001 with Retry-After', async () => {
    const { answers } = await volleyWithinOneSecond((auth) => [
      ...Array.from({ length: 10 }, () => () => callApi(sandbox, 'GET', '/account', { auth })),
      ...Array.from({ length: 11 }, () => () => callApi(sandbox, 'GET', '/goods/catalog', { auth })),
      ...Array.from({ length: 10 }, () => () => callApi(sandbox, 'GET', '/orders', { auth })),
    ]);
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200).length, `statuses ${statuses.join(',')}`).toBe(30);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(1);
    for (const r of refused) {
      expectError(r, 429, 429001);
      expect(intHeader(r, 'retry-after')).toBeGreaterThanOrEqual(1);
      expect(header(r, 'x-ratelimit-limit')).toBeDefined();
      expect(header(r, 'x-ratelimit-remaining')).toBeDefined();
      expect(header(r, 'x-ratelimit-reset')).toBeDefined();
    }
  });

  it('create order has its own burst of 10: of 11 creates at once exactly one is 429001, with the orderCreate headers', async () => {
    const reader = await newAccount(sandbox);
    const card = pickProduct(await controlProducts(sandbox), new Set(), 'orderable card', isOrderableCard);
    const units = await templateMinUnits(sandbox, reader, card.productRef);
    const stamp = Date.now();
    const { answers } = await volleyWithinOneSecond((auth) =>
      Array.from({ length: 11 }, (_, i) => () => callApi(sandbox, 'POST', '/orders/create', { auth, body: { clientOrderRef: `burst-${stamp}-${i}`, productRef: card.productRef, units } })),
    );
    // Whatever the create itself answers (a small balance may refuse some), only the limiter says 429.
    const limited = answers.filter((a) => a.status === 429);
    expect(limited, `statuses ${answers.map((a) => a.status).join(',')}`).toHaveLength(1);
    for (const r of limited) {
      expectError(r, 429, 429001);
      expect(intHeader(r, 'retry-after')).toBeGreaterThanOrEqual(1);
    }
    for (const a of answers.filter((x) => x.status !== 429)) expectRateHeaders(a, 120);
  });

  it('refused requests are not counted: after a refused volley the group has spent only what was accepted', async () => {
    const { auth, answers } = await volleyWithinOneSecond((a) => Array.from({ length: 40 }, () => () => callApi(sandbox, 'GET', '/account', { auth: a })));
    const accepted = answers.filter((a) => a.status === 200).length;
    const refused = answers.filter((a) => a.status === 429);
    expect(accepted).toBe(30);
    expect(refused).toHaveLength(10);
    for (const r of refused) expectError(r, 429, 429001);
    // Once the burst second has passed, the minute quota shows 30 (+ this one) spent, not 40.
    await sleep(1200);
    const next = await callApi(sandbox, 'GET', '/account', { auth });
    expectOk(next);
    expect(expectRateHeaders(next, 60).remaining).toBe(60 - accepted - 1);
  });

  it('the burst frees up after a second', async () => {
    const { auth } = await volleyWithinOneSecond((a) => Array.from({ length: 31 }, () => () => callApi(sandbox, 'GET', '/goods/catalog', { auth: a })));
    await sleep(1200);
    expectOk(await callApi(sandbox, 'GET', '/goods/catalog', { auth }));
  });
});

describe('faults (interface v1 §8 rule 3, 7.2; sandbox.md control faults)', () => {
  it('rateLimiterDown: every request is 503/503001 with Retry-After: 1; switching it off restores service', async () => {
    const auth = await newAccount(sandbox);
    try {
      await control(sandbox, 'POST', '/control/faults', { rateLimiterDown: true });
      for (const path of ['/account', '/goods/catalog', '/orders']) {
        const res = await callApi(sandbox, 'GET', path, { auth });
        expectError(res, 503, 503001);
        expect(header(res, 'retry-after')).toBe('1');
      }
    } finally {
      await control(sandbox, 'POST', '/control/faults', { rateLimiterDown: false });
    }
    expectOk(await callApi(sandbox, 'GET', '/account', { auth }));
  });

  it('errorRate 1 with errorStatus 500 answers 500/500001 before doing anything; 503 gives 503001; reset to 0 restores', async () => {
    const auth = await newAccount(sandbox);
    const card = pickProduct(await controlProducts(sandbox), new Set(), 'orderable card', isOrderableCard);
    const units = await templateMinUnits(sandbox, auth, card.productRef);
    const clientOrderRef = `fault-${Date.now()}`;
    try {
      await control(sandbox, 'POST', '/control/faults', { errorRate: 1, errorStatus: 500 });
      const res = await callApi(sandbox, 'GET', '/account', { auth });
      expectError(res, 500, 500001);
      expectEnvelope(res);
      expectError(await callApi(sandbox, 'POST', '/orders/create', { auth, body: { clientOrderRef, productRef: card.productRef, units } }), 500, 500001);
      await control(sandbox, 'POST', '/control/faults', { errorRate: 1, errorStatus: 503 });
      expectError(await callApi(sandbox, 'GET', '/account', { auth }), 503, 503001);
    } finally {
      await control(sandbox, 'POST', '/control/faults', { errorRate: 0, errorStatus: 500 });
    }
    expectOk(await callApi(sandbox, 'GET', '/account', { auth }));
    // "Before doing anything": the failed create charged nothing and stored nothing.
    expectError(await callApi(sandbox, 'GET', `/orders/${clientOrderRef}`, { auth }), 404, 404002);
    const ledger = await control<{ entries: unknown[] }>(sandbox, 'GET', `/control/ledger/${encodeURIComponent(auth.userId)}`);
    expect(ledger.entries).toEqual([]);
  });
});
