// Envelope and transport (interface v1 §2.1, 2.3, 7.1; contract §0): every answer, success or error, is the
// envelope with a requestId that is also the X-Request-Id header; unknown routes and malformed
// bodies have their fixed codes; paging follows page >= 1, pageSize 1..100 (default 20).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from '../../support/merchant-http';
import { startSandbox, type RunningSandbox } from '../../support/sandbox-process';
import { controlProducts } from '../../support/control-catalog';
import { expectEnvelope, expectError, expectListPayload, expectOk, header, newAccount, pacedCall, type Credentials } from '../../support/wire-checks';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox(['--products', '60']);
});

afterAll(async () => {
  await sandbox.stop();
});

describe('response envelope (interface v1 §2.3)', () => {
  it('a success carries code 0, a message, a data object and a requestId equal to X-Request-Id', async () => {
    const res = await callApi(sandbox, 'GET', '/account');
    const data = expectOk(res);
    expect(header(res, 'content-type')).toMatch(/^application\/json/);
    expect(data.accessState).toBe('active');
    expect(data.contractRevision).toBe('1.0.2');
  });

  it('every endpoint family answers with the envelope, and requestIds are unique', async () => {
    const auth: Credentials = await newAccount(sandbox);
    const product = (await controlProducts(sandbox))[0];
    if (product === undefined) throw new Error('empty catalog');
    const calls: [string, string, Record<string, string | number>?][] = [
      ['GET', '/account'],
      ['GET', '/categories'],
      ['GET', '/goods/catalog'],
      ['GET', `/goods/${product.productRef}`],
      ['GET', '/orders'],
      ['GET', '/orders/no-such-order'],
      ['GET', '/aftersales/no-such-case'],
      ['GET', '/goods/tpl', { productRef: 999999999 }],
    ];
    const ids = new Set<string>();
    for (const [method, path, query] of calls) {
      const res = await pacedCall(sandbox, auth, method, path, { query });
      const json = expectEnvelope(res);
      if (json.code === 0) expect(res.status).toBe(200);
      else expect(json.data).toBeNull();
      ids.add(json.requestId);
    }
    expect(ids.size).toBe(calls.length);
  });

  it('an unknown route is HTTP 404 / 404001 with data null', async () => {
    expectError(await callApi(sandbox, 'GET', '/no-such-route'), 404, 404001);
    expectError(await callApi(sandbox, 'GET', '/goods/catalog/extra/segments'), 404, 404001);
  });

  it('a wrong method on a known path is HTTP 404 / 404001 (contract §0)', async () => {
    expectError(await callApi(sandbox, 'DELETE', '/account'), 404, 404001);
    expectError(await callApi(sandbox, 'GET', '/goods/subscriptions'), 404, 404001);
  });

  it('a body that is not JSON is HTTP 400 / 400001', async () => {
    const auth = await newAccount(sandbox);
    expectError(await callApi(sandbox, 'POST', '/goods/subscriptions', { auth, rawBody: '{"productRefs": [1,' }), 400, 400001);
    expectError(await callApi(sandbox, 'POST', '/orders/create', { auth, rawBody: 'not json at all' }), 400, 400001);
  });

  it('a JSON body that is not an object is 400001; a JSON object is read whatever its Content-Type (contract §0)', async () => {
    const auth = await newAccount(sandbox);
    expectError(await callApi(sandbox, 'POST', '/goods/subscriptions', { auth, rawBody: '[1,2,3]' }), 400, 400001);
    expectError(await callApi(sandbox, 'POST', '/goods/subscriptions', { auth, rawBody: '"text"' }), 400, 400001);
    const productRef = (await controlProducts(sandbox, 1))[0]?.productRef;
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await callApi<{ list: { productRef: number }[] }>(sandbox, 'POST', '/goods/subscriptions', {
        auth,
        rawBody: JSON.stringify({ productRefs: [productRef], subscriptionState: 'subscribed' }),
        headers: { 'content-type': contentType },
      });
      expect({ status: res.status, code: res.json?.code }, res.text).toEqual({ status: 200, code: 0 });
      expect(res.json?.data.list.map((item) => item.productRef)).toEqual([productRef]);
    }
  });

  it('error answers also carry the X-Request-Id header and no data', async () => {
    const res = await callApi(sandbox, 'GET', '/account', { auth: false });
    expectError(res, 401, 401001);
    expect(header(res, 'x-request-id')).toMatch(/^req_[0-9a-f]{24}$/);
  });
});

describe('paging (interface v1 §2.1, 2.3, 8; contract §0)', () => {
  it('defaults to page 1 and pageSize 20, with list/total/page/pageSize', async () => {
    const auth = await newAccount(sandbox);
    const data = expectOk(await pacedCall(sandbox, auth, 'GET', '/goods/catalog'));
    const page = expectListPayload(data);
    expect(page.page).toBe(1);
    expect(page.pageSize).toBe(20);
    expect(page.total).toBeGreaterThan(20);
    expect(page.list).toHaveLength(20);
  });

  it('pages concatenate to the whole list, and a page past the end is empty with the true total', async () => {
    const auth = await newAccount(sandbox);
    const first = expectListPayload(expectOk(await pacedCall(sandbox, auth, 'GET', '/goods/catalog', { query: { pageSize: 100 } })));
    expect(first.pageSize).toBe(100);
    expect(first.list).toHaveLength(Math.min(100, first.total));
    const all = first.list.map((item) => item.productRef);
    const collected: unknown[] = [];
    const pageCount = Math.ceil(first.total / 7);
    for (let page = 1; page <= pageCount; page++) {
      const part = expectListPayload(expectOk(await pacedCall(sandbox, auth, 'GET', '/goods/catalog', { query: { page, pageSize: 7 } })));
      expect(part.page).toBe(page);
      expect(part.pageSize).toBe(7);
      expect(part.total).toBe(first.total);
      collected.push(...part.list.map((item) => item.productRef));
    }
    expect(collected).toEqual(all);
    const past = expectListPayload(expectOk(await pacedCall(sandbox, auth, 'GET', '/goods/catalog', { query: { page: pageCount + 5, pageSize: 7 } })));
    expect(past.list).toEqual([]);
    expect(past.total).toBe(first.total);
    expect(past.page).toBe(pageCount + 5);
  });

  it('pageSize 100 is the maximum: 101 is 400001', async () => {
    const auth = await newAccount(sandbox);
    expectOk(await pacedCall(sandbox, auth, 'GET', '/goods/catalog', { query: { pageSize: 100 } }));
    expectError(await pacedCall(sandbox, auth, 'GET', '/goods/catalog', { query: { pageSize: 101 } }), 400, 400001);
    expectError(await pacedCall(sandbox, auth, 'GET', '/categories', { query: { pageSize: 101 } }), 400, 400001);
    expectError(await pacedCall(sandbox, auth, 'GET', '/orders', { query: { pageSize: 101 } }), 400, 400001);
  });

  it('page starts at 1: page 0 and negative pages are 400001; non-integers too', async () => {
    const auth = await newAccount(sandbox);
    const bad: Record<string, string | number>[] = [{ page: 0 }, { page: -1 }, { pageSize: 0 }, { page: 'abc' }, { page: 1.5 }, { pageSize: '20x' }];
    for (const query of bad) {
      expectError(await pacedCall(sandbox, auth, 'GET', '/goods/catalog', { query }), 400, 400001);
    }
    expectError(await pacedCall(sandbox, auth, 'GET', '/orders', { query: { page: 0 } }), 400, 400001);
    expectError(await pacedCall(sandbox, auth, 'GET', '/categories', { query: { page: 0 } }), 400, 400001);
  });

  it('every list endpoint returns the list payload (categories, catalog, orders)', async () => {
    const auth = await newAccount(sandbox);
    for (const path of ['/categories', '/goods/catalog', '/orders']) {
      const page = expectListPayload(expectOk(await pacedCall(sandbox, auth, 'GET', path, { query: { page: 1, pageSize: 5 } })));
      expect(page.page).toBe(1);
      expect(page.pageSize).toBe(5);
      expect(page.list.length).toBeLessThanOrEqual(5);
    }
    // A fresh account has no orders.
    const orders = expectListPayload(expectOk(await pacedCall(sandbox, auth, 'GET', '/orders')));
    expect(orders).toEqual({ list: [], total: 0, page: 1, pageSize: 20 });
  });

  it('unknown query parameters are ignored (contract §0)', async () => {
    const auth = await newAccount(sandbox);
    const page = expectListPayload(expectOk(await pacedCall(sandbox, auth, 'GET', '/goods/catalog', { query: { somethingElse: 'x', pageSize: 3 } })));
    expect(page.list).toHaveLength(3);
  });
});
