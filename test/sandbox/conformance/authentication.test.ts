// Authentication (interface v1 §5, 3.3, 7.2; contract §0.1): both headers, the key format, one message for
// every credential failure, no credentials outside the headers, suspension, the IP allow-list, the
// main-domain rule before authentication, key rotation and isolation between accounts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, control } from '../../support/merchant-http';
import { startSandbox, type RunningSandbox } from '../../support/sandbox-process';
import { controlProducts, isOrderableCard, pickProduct } from '../../support/control-catalog';
import { asRecord, callWithHost, expectError, expectListPayload, expectOk, must, newAccount, templateMinUnits, type Credentials } from '../../support/wire-checks';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox(['--products', '60']);
});

afterAll(async () => {
  await sandbox.stop();
});

function updateAccount(userId: string, body: Record<string, unknown>): Promise<unknown> {
  return control(sandbox, 'POST', `/control/accounts/${encodeURIComponent(userId)}`, body);
}

/** Every credential failure must be 401/401001, data null, and never echo the key it was given. */
function expectCredentialFailure(res: Awaited<ReturnType<typeof callApi>>, key?: string): string {
  const message = expectError(res, 401, 401001);
  if (key !== undefined && key !== '') expect(res.text).not.toContain(key);
  return message;
}

describe('credentials (interface v1 §5; contract §0.1 step 2)', () => {
  it('a missing header, a malformed key, a foreign key or an unknown user all give 401001 with one identical message', async () => {
    const a = await newAccount(sandbox);
    const b = await newAccount(sandbox);
    const validFormatUnknown = 'AK_' + '0123456789abcdef'.repeat(2);
    const cases: { name: string; headers: Record<string, string>; key?: string }[] = [
      { name: 'no headers at all', headers: {} },
      { name: 'user id only', headers: { 'X-Service-User-Id': a.userId } },
      { name: 'key only', headers: { 'X-Service-Key': a.apiKey }, key: a.apiKey },
      { name: 'empty key', headers: { 'X-Service-User-Id': a.userId, 'X-Service-Key': '' } },
      { name: 'key of another user', headers: { 'X-Service-User-Id': a.userId, 'X-Service-Key': b.apiKey }, key: b.apiKey },
      { name: 'unknown user id', headers: { 'X-Service-User-Id': 'no-such-user-42', 'X-Service-Key': a.apiKey }, key: a.apiKey },
      { name: 'well-formed unknown key', headers: { 'X-Service-User-Id': a.userId, 'X-Service-Key': validFormatUnknown }, key: validFormatUnknown },
      { name: 'uppercase hex', headers: { 'X-Service-User-Id': a.userId, 'X-Service-Key': 'AK_' + a.apiKey.slice(3).toUpperCase() } },
      { name: 'lowercase prefix', headers: { 'X-Service-User-Id': a.userId, 'X-Service-Key': 'ak_' + a.apiKey.slice(3) } },
      { name: 'one hex digit short', headers: { 'X-Service-User-Id': a.userId, 'X-Service-Key': a.apiKey.slice(0, -1) } },
      { name: 'one hex digit too many', headers: { 'X-Service-User-Id': a.userId, 'X-Service-Key': a.apiKey + 'a' } },
      { name: 'no prefix', headers: { 'X-Service-User-Id': a.userId, 'X-Service-Key': a.apiKey.slice(3) } },
      { name: 'non-hex characters', headers: { 'X-Service-User-Id': a.userId, 'X-Service-Key': 'AK_' + 'g'.repeat(32) } },
    ];
    expect(a.apiKey).toMatch(/^AK_[0-9a-f]{32}$/);
    const messages = new Map<string, string>();
    for (const c of cases) {
      const res = await callApi(sandbox, 'GET', '/account', { auth: false, headers: c.headers });
      messages.set(c.name, expectCredentialFailure(res, c.key));
    }
    // One message for all: the answer must not tell which part was wrong (interface v1 §5).
    const distinct = new Set(messages.values());
    expect(distinct.size, JSON.stringify(Object.fromEntries(messages))).toBe(1);
    // The same account still works with its own pair.
    expectOk(await callApi(sandbox, 'GET', '/account', { auth: a }));
  });

  it('credential failures look the same on every endpoint', async () => {
    const messages = new Set<string>();
    for (const [method, path] of [
      ['GET', '/account'],
      ['GET', '/categories'],
      ['GET', '/goods/catalog'],
      ['POST', '/orders/create'],
      ['GET', '/orders/x1'],
    ] as const) {
      const res = await callApi(sandbox, method, path, { auth: false, body: method === 'POST' ? {} : undefined });
      messages.add(expectCredentialFailure(res));
    }
    expect(messages.size).toBe(1);
  });

  it('credentials in the query string are refused, even together with valid headers', async () => {
    const a = await newAccount(sandbox);
    const queries: Record<string, string>[] = [
      { userId: a.userId },
      { apiKey: a.apiKey },
      { key: a.apiKey },
      { serviceKey: a.apiKey },
      { 'X-Service-Key': a.apiKey },
      { 'x-service-user-id': a.userId },
      { APIKEY: a.apiKey },
    ];
    for (const query of queries) {
      const withHeaders = await callApi(sandbox, 'GET', '/account', { auth: a, query });
      expectCredentialFailure(withHeaders, a.apiKey);
    }
    // Only in the query, no headers: refused too.
    const onlyQuery = await callApi(sandbox, 'GET', '/account', { auth: false, query: { userId: a.userId, apiKey: a.apiKey } });
    expectCredentialFailure(onlyQuery, a.apiKey);
  });

  it('credentials in the request body are refused, even together with valid headers', async () => {
    const a = await newAccount(sandbox);
    const products = await controlProducts(sandbox);
    const productRef = must(products[0], 'a product').productRef;
    const bodies: Record<string, unknown>[] = [
      { productRefs: [productRef], subscriptionState: 'subscribed', apiKey: a.apiKey },
      { productRefs: [productRef], subscriptionState: 'subscribed', userId: a.userId },
      { productRefs: [productRef], subscriptionState: 'subscribed', 'X-Service-Key': a.apiKey },
      { productRefs: [productRef], subscriptionState: 'subscribed', ServiceKey: a.apiKey },
    ];
    for (const body of bodies) {
      const res = await callApi(sandbox, 'POST', '/goods/subscriptions', { auth: a, body });
      expectCredentialFailure(res, a.apiKey);
    }
    const onlyBody = await callApi(sandbox, 'POST', '/goods/subscriptions', {
      auth: false,
      body: { productRefs: [productRef], subscriptionState: 'subscribed', userId: a.userId, apiKey: a.apiKey },
    });
    expectCredentialFailure(onlyBody, a.apiKey);
    // Nothing was subscribed by the refused requests.
    const subscribed = expectListPayload(expectOk(await callApi(sandbox, 'GET', '/goods/catalog', { auth: a, query: { subscriptionState: 'subscribed' } })));
    expect(subscribed.total).toBe(0);
  });

  it('after a key rotation the old key is refused at once and the new one works', async () => {
    const a = await newAccount(sandbox);
    expectOk(await callApi(sandbox, 'GET', '/account', { auth: a }));
    const rotated = await control<{ apiKey: string }>(sandbox, 'POST', `/control/accounts/${encodeURIComponent(a.userId)}/rotate-key`);
    expect(rotated.apiKey).toMatch(/^AK_[0-9a-f]{32}$/);
    expect(rotated.apiKey).not.toBe(a.apiKey);
    expectCredentialFailure(await callApi(sandbox, 'GET', '/account', { auth: a }), a.apiKey);
    const data = expectOk(await callApi(sandbox, 'GET', '/account', { auth: { userId: a.userId, apiKey: rotated.apiKey } }));
    expect(data.userId).toBe(a.userId);
  });
});

describe('suspension (interface v1 §3.3; contract §0.1 step 4)', () => {
  it('GET /account works with accessState suspended, every other endpoint is 403/403005, and lifting it restores access', async () => {
    const a = await newAccount(sandbox);
    const productRef = must((await controlProducts(sandbox))[0], 'a product').productRef;
    await updateAccount(a.userId, { suspended: true });
    const account = expectOk(await callApi(sandbox, 'GET', '/account', { auth: a }));
    expect(account.accessState).toBe('suspended');
    expect(account.userId).toBe(a.userId);
    const calls: [string, string, { query?: Record<string, number>; body?: unknown }][] = [
      ['GET', '/categories', {}],
      ['GET', '/goods/catalog', {}],
      ['GET', `/goods/${productRef}`, {}],
      ['GET', '/goods/tpl', { query: { productRef } }],
      ['POST', '/goods/subscriptions', { body: { productRefs: [productRef], subscriptionState: 'subscribed' } }],
      ['POST', '/orders/create', { body: { clientOrderRef: 'susp-1', productRef, units: 1 } }],
      ['GET', '/orders', {}],
      ['GET', '/orders/susp-1', {}],
      ['POST', '/orders/susp-1/verification-code', { body: { verificationCode: '1234' } }],
      ['POST', '/orders/susp-1/cancel', { body: {} }],
      ['POST', '/orders/susp-1/refunds', { body: { clientRefundRef: 'r1', reason: 'x' } }],
      ['POST', '/aftersales', { body: { clientOrderRef: 'susp-1', category: 'other', description: 'x' } }],
      ['GET', '/aftersales/1', {}],
      ['POST', '/aftersales/1/messages', { body: { clientMessageRef: 'm1', text: 'x' } }],
    ];
    for (const [method, path, options] of calls) {
      const res = await callApi(sandbox, method, path, { auth: a, ...options });
      expectError(res, 403, 403005);
    }
    // Nothing was created while suspended.
    await updateAccount(a.userId, { suspended: false });
    const after = expectOk(await callApi(sandbox, 'GET', '/account', { auth: a }));
    expect(after.accessState).toBe('active');
    expectError(await callApi(sandbox, 'GET', '/orders/susp-1', { auth: a }), 404, 404002);
    expectOk(await callApi(sandbox, 'GET', '/categories', { auth: a }));
  });

  it('a suspended account with a wrong key is still 401001, not 403005 (credentials are checked first)', async () => {
    const a = await newAccount(sandbox);
    await updateAccount(a.userId, { suspended: true });
    expectCredentialFailure(await callApi(sandbox, 'GET', '/categories', { auth: { userId: a.userId, apiKey: 'AK_' + 'f'.repeat(32) } }));
  });
});

describe('IP allow-list (interface v1 §5 rule 6; contract §0.1 step 3)', () => {
  it('a list without 127.0.0.1 is 403/403002; ["127.0.0.1"] works; null works', async () => {
    const a = await newAccount(sandbox);
    await updateAccount(a.userId, { ipAllowList: ['10.1.2.3', '192.0.2.7'] });
    expectError(await callApi(sandbox, 'GET', '/account', { auth: a }), 403, 403002);
    expectError(await callApi(sandbox, 'GET', '/goods/catalog', { auth: a }), 403, 403002);
    await updateAccount(a.userId, { ipAllowList: ['127.0.0.1'] });
    expectOk(await callApi(sandbox, 'GET', '/account', { auth: a }));
    expectOk(await callApi(sandbox, 'GET', '/goods/catalog', { auth: a }));
    await updateAccount(a.userId, { ipAllowList: null });
    expectOk(await callApi(sandbox, 'GET', '/account', { auth: a }));
  });

  it('entries may be CIDR ranges: 10.0.0.0/8 is 403002, 127.0.0.0/8 and 0.0.0.0/0 admit the loopback client', async () => {
    const a = await newAccount(sandbox);
    await updateAccount(a.userId, { ipAllowList: ['10.0.0.0/8', '2001:db8::/32'] });
    expectError(await callApi(sandbox, 'GET', '/account', { auth: a }), 403, 403002);
    await updateAccount(a.userId, { ipAllowList: ['10.0.0.0/8', '127.0.0.0/8'] });
    expectOk(await callApi(sandbox, 'GET', '/account', { auth: a }));
    await updateAccount(a.userId, { ipAllowList: ['0.0.0.0/0'] });
    expectOk(await callApi(sandbox, 'GET', '/account', { auth: a }));
    await updateAccount(a.userId, { ipAllowList: [] });
    expectError(await callApi(sandbox, 'GET', '/account', { auth: a }), 403, 403002);
  });

  it('the allow-list is checked before suspension, and only after credentials', async () => {
    const a = await newAccount(sandbox);
    await updateAccount(a.userId, { ipAllowList: ['10.1.2.3'], suspended: true });
    expectError(await callApi(sandbox, 'GET', '/categories', { auth: a }), 403, 403002);
    expectCredentialFailure(await callApi(sandbox, 'GET', '/categories', { auth: { userId: a.userId, apiKey: 'AK_' + 'e'.repeat(32) } }));
  });
});

describe('merchant domain (interface v1 §5; contract §0.1 step 1)', () => {
  it('a Host that is not the main OpenAPI domain is 404 before authentication', async () => {
    const a = await newAccount(sandbox);
    for (const host of ['sub.127.0.0.1', 'other.example', 'shop.other.example:443']) {
      expectError(await callWithHost(sandbox, host, '/account', false), 404, 404001);
      expectError(await callWithHost(sandbox, host, '/account', a), 404, 404001);
      expectError(await callWithHost(sandbox, host, '/goods/catalog', { userId: 'nobody', apiKey: 'bad' }), 404, 404001);
    }
  });

  it('the main domain is accepted with any port or none (contract §0.1: port ignored)', async () => {
    const a = await newAccount(sandbox);
    const data = expectOk(await callWithHost(sandbox, '127.0.0.1', '/account', a));
    expect(data.userId).toBe(a.userId);
    expectOk(await callWithHost(sandbox, '127.0.0.1:1', '/account', a));
  });
});

describe('isolation between accounts (interface v1 §5 rule 5; interface v1 §7.2 404002)', () => {
  it("account B cannot see account A's order; the same clientOrderRef is free in B", async () => {
    const products = await controlProducts(sandbox);
    const card = pickProduct(products, new Set(), 'orderable single-variant card', isOrderableCard);
    const a = await newAccount(sandbox);
    const b = await newAccount(sandbox);
    const ref = `iso-${Date.now()}`;
    const units = await templateMinUnits(sandbox, a, card.productRef);
    const order = expectOk(await callApi(sandbox, 'POST', '/orders/create', { auth: a, body: { clientOrderRef: ref, productRef: card.productRef, units } }));
    expect(order.clientOrderRef).toBe(ref);
    expectOk(await callApi(sandbox, 'GET', `/orders/${ref}`, { auth: a }));
    expectError(await callApi(sandbox, 'GET', `/orders/${ref}`, { auth: b }), 404, 404002);
    const bList = expectListPayload(expectOk(await callApi(sandbox, 'GET', '/orders', { auth: b })));
    expect(bList.total).toBe(0);
    expect(bList.list).toEqual([]);
    // Actions on A's order from B do not find it either.
    expectError(await callApi(sandbox, 'POST', `/orders/${ref}/cancel`, { auth: b, body: {} }), 404, 404002);
    // The reference is unique only within an account (interface v1 §2.2).
    const own = expectOk(await callApi(sandbox, 'POST', '/orders/create', { auth: b, body: { clientOrderRef: ref, productRef: card.productRef, units } }));
    expect(own.platformOrderRef).not.toBe(order.platformOrderRef);
    const aAccount = asRecord(expectOk(await callApi(sandbox, 'GET', '/account', { auth: a })), 'account A');
    const bAccount = asRecord(expectOk(await callApi(sandbox, 'GET', '/account', { auth: b })), 'account B');
    expect(aAccount.accountRef).not.toBe(bAccount.accountRef);
  });

  it("account B's subscriptions are its own", async () => {
    const products = await controlProducts(sandbox);
    const p = must(products[1], 'a product');
    const a: Credentials = await newAccount(sandbox);
    const b: Credentials = await newAccount(sandbox);
    expectOk(await callApi(sandbox, 'POST', '/goods/subscriptions', { auth: a, body: { productRefs: [p.productRef], subscriptionState: 'subscribed' } }));
    const aSubs = expectListPayload(expectOk(await callApi(sandbox, 'GET', '/goods/catalog', { auth: a, query: { subscriptionState: 'subscribed' } })));
    const bSubs = expectListPayload(expectOk(await callApi(sandbox, 'GET', '/goods/catalog', { auth: b, query: { subscriptionState: 'subscribed' } })));
    expect(aSubs.list.map((i) => i.productRef)).toEqual([p.productRef]);
    expect(bSubs.total).toBe(0);
  });
});
