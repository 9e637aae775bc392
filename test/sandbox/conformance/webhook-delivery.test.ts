// Webhook delivery (interface v1 §6.4, 4.3; contract §10.4): success only on HTTP 200 with a body that is "OK"
// after trimming and ignoring case; anything else (other text, empty, JSON, another status, a
// redirect) fails; three sends at 0, 15 and 30 s with the same eventId, address and body; after the
// third failed product.changed its own subscription is cancelled, unless it was renewed meanwhile.
// The sandbox runs 50× faster so that the 30-second schedule takes 0.6 s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from '../../support/merchant-http';
import { startSandbox, type RunningSandbox } from '../../support/sandbox-process';
import { startWebhookReceiver, type HookReply, type WebhookReceiver } from '../../support/webhook-receiver';
import { changeProduct, controlProducts, deliveries, isOrderableCard, isSingleVariant, pickProduct, type ControlProduct, type Delivery } from '../../support/control-catalog';
import { asArray, asRecord, expectError, expectListPayload, expectOk, must, newAccount, sleep, templateMinUnits, type Credentials } from '../../support/wire-checks';

const TIME_SCALE = 50;
/** Real milliseconds for `s` sandbox seconds. */
const sandboxSeconds = (s: number): number => (s * 1000) / TIME_SCALE;
/** Tolerance for the schedule, in sandbox milliseconds ("a couple of sandbox seconds"). */
const SCHEDULE_TOLERANCE_MS = 3000;

let sandbox: RunningSandbox;
let products: ControlProduct[];
const used = new Set<number>();
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  sandbox = await startSandbox(['--products', '60', '--time-scale', String(TIME_SCALE)]);
  products = await controlProducts(sandbox);
});

afterAll(async () => {
  await Promise.all([sandbox?.stop(), ...receivers.map((r) => r.close())]);
});

async function receiver(path: string, reply?: HookReply): Promise<WebhookReceiver> {
  const r = await startWebhookReceiver(path);
  receivers.push(r);
  if (reply !== undefined) r.reply(() => reply);
  return r;
}

interface Setup {
  auth: Credentials;
  product: ControlProduct;
  hooks: WebhookReceiver;
}

/** A fresh account subscribed to a fresh product, its product.changed bound to a fresh receiver. */
async function subscribedProduct(path: string, reply?: HookReply): Promise<Setup & { expiresAt: number }> {
  const auth = await newAccount(sandbox);
  const product = pickProduct(products, used, 'single-variant product', isSingleVariant);
  const hooks = await receiver(path, reply);
  const res = await callApi(sandbox, 'POST', '/goods/subscriptions', {
    auth,
    body: { productRefs: [product.productRef], subscriptionState: 'subscribed', callbackUrl: hooks.url },
  });
  const item = asRecord(asArray(expectOk(res).list, 'list')[0], 'subscription');
  return { auth, product, hooks, expiresAt: item.subscriptionExpiresAt as number };
}

let priceStep = 0;
function changePrice(product: ControlProduct): ReturnType<typeof changeProduct> {
  priceStep += 1;
  return changeProduct(sandbox, product.productRef, { variantRef: 0, price: (10 + priceStep / 100).toFixed(2) });
}

async function subscriptionState(auth: Credentials, productRef: number): Promise<unknown> {
  for (let page = 1; page < 5; page++) {
    const part = expectListPayload(expectOk(await callApi(sandbox, 'GET', '/goods/catalog', { auth, query: { page, pageSize: 100 } })));
    const item = part.list.find((i) => i.productRef === productRef);
    if (item !== undefined) return item.subscriptionState;
  }
  throw new Error(`product ${productRef} not in the catalog`);
}

async function subscribedRefs(auth: Credentials): Promise<unknown[]> {
  const page = expectListPayload(expectOk(await callApi(sandbox, 'GET', '/goods/catalog', { auth, query: { subscriptionState: 'subscribed' } })));
  return page.list.map((i) => i.productRef);
}

async function deliveriesTo(url: string): Promise<Delivery[]> {
  return (await deliveries(sandbox)).filter((d) => d.url === url).sort((a, b) => a.sentAtMs - b.sentAtMs);
}

/** Waits long enough (in sandbox time) that a further send, had one been scheduled, would have come. */
function waitPastSchedule(): Promise<void> {
  return sleep(sandboxSeconds(45) + 300);
}

/** Checks one failing message: exactly three sends, same eventId/url/body, at 0, 15, 30 s. */
async function expectThreeSends(hooks: WebhookReceiver): Promise<void> {
  await hooks.waitFor((h) => h.length >= 3, 10_000);
  await waitPastSchedule();
  expect(hooks.received, 'exactly three sends').toHaveLength(3);
  const bodies = hooks.received.map((h) => h.body);
  expect(new Set(bodies).size, 'identical bodies').toBe(1);
  const eventIds = hooks.received.map((h) => h.json?.eventId);
  expect(typeof eventIds[0]).toBe('string');
  expect(new Set(eventIds).size).toBe(1);
  expect(new Set(hooks.received.map((h) => h.path)).size).toBe(1);
  const sends = await deliveriesTo(hooks.url);
  expect(sends.map((d) => d.attempt)).toEqual([1, 2, 3]);
  expect(new Set(sends.map((d) => d.eventId))).toEqual(new Set(eventIds));
  expect(sends.every((d) => !d.ok)).toBe(true);
  const first = must(sends[0], 'first send').sentAtMs;
  const offsets = sends.map((d) => d.sentAtMs - first);
  expect(offsets[1] as number, `2nd send ~15 s after the first (offsets ${offsets.join(', ')} sandbox ms)`).toBeGreaterThanOrEqual(15_000 - 250);
  expect(offsets[1] as number).toBeLessThanOrEqual(15_000 + SCHEDULE_TOLERANCE_MS);
  expect(offsets[2] as number, `3rd send ~30 s after the first (offsets ${offsets.join(', ')} sandbox ms)`).toBeGreaterThanOrEqual(30_000 - 250);
  expect(offsets[2] as number).toBeLessThanOrEqual(30_000 + SCHEDULE_TOLERANCE_MS);
}

describe('retry schedule (interface v1 §6.4 rules 4–6)', () => {
  it('a receiver answering 500 gets exactly 3 sends, same eventId and body, at 0/15/30 s; then the subscription is cancelled', async () => {
    const { auth, product, hooks } = await subscribedProduct('/fail-500', { status: 500, body: 'error' });
    await changePrice(product);
    await expectThreeSends(hooks);
    const sends = await deliveriesTo(hooks.url);
    expect(sends.map((d) => d.status)).toEqual([500, 500, 500]);
    expect(sends.every((d) => d.eventType === 'product.changed')).toBe(true);
    // Interface v1 §6.4.7: the failed product.changed cancels that product's subscription.
    expect(await subscriptionState(auth, product.productRef)).toBe('unsubscribed');
    expect(await subscribedRefs(auth)).toEqual([]);
    // And with no subscription, the next change sends nothing.
    await changePrice(product);
    await sleep(sandboxSeconds(20));
    expect(hooks.received).toHaveLength(3);
  });
});

// Each case has its own account, product and receiver, so the cases run side by side.
describe.concurrent('what counts as success (interface v1 §6.4.2, 4.3)', () => {
  for (const body of ['OK', ' ok ', 'Ok', 'ok\n', '\tOK\r\n']) {
    it(`${JSON.stringify(body)} is success: one send, the subscription stays`, async () => {
      const { auth, product, hooks } = await subscribedProduct(`/ok-${encodeURIComponent(body.trim())}`, { status: 200, body });
      await changePrice(product);
      await hooks.waitFor((h) => h.length > 0, 5000);
      await waitPastSchedule();
      expect(hooks.received.length, `one send for ${JSON.stringify(body)}`).toBe(1);
      const sends = await deliveriesTo(hooks.url);
      expect(sends.map((d) => ({ eventId: d.eventId, attempt: d.attempt, ok: d.ok, status: d.status }))).toEqual([
        { eventId: must(hooks.received[0], 'hook').json?.eventId, attempt: 1, ok: true, status: 200 },
      ]);
      expect(await subscriptionState(auth, product.productRef)).toBe('subscribed');
    });
  }

  const failures: [string, HookReply][] = [
    ['200 with an empty body', { status: 200, body: '' }],
    ['200 with a JSON body', { status: 200, body: '{"result":"OK"}', headers: { 'content-type': 'application/json' } }],
    ['200 with "OKAY"', { status: 200, body: 'OKAY' }],
    ['200 with "OK."', { status: 200, body: 'OK.' }],
    ['201 with "OK"', { status: 201, body: 'OK' }],
    ['204 with no body', { status: 204, body: '' }],
  ];
  for (const [name, reply] of failures) {
    it(`${name} is a failure: three sends, then the subscription is cancelled`, async () => {
      const { auth, product, hooks } = await subscribedProduct(`/fail-${name.replace(/\W+/g, '-')}`, reply);
      await changePrice(product);
      await expectThreeSends(hooks);
      expect(await subscriptionState(auth, product.productRef)).toBe('unsubscribed');
    });
  }

  it('a 302 redirect is a failure and is not followed: the target receives nothing', async () => {
    const target = await receiver('/redirect-target');
    const { auth, product, hooks } = await subscribedProduct('/redirecting', { status: 302, body: '', headers: { location: target.url } });
    await changePrice(product);
    await expectThreeSends(hooks);
    expect((await deliveriesTo(hooks.url)).map((d) => d.status)).toEqual([302, 302, 302]);
    expect(target.received).toEqual([]);
    expect(await subscriptionState(auth, product.productRef)).toBe('unsubscribed');
  });

  it('a receiver that fails once and then answers OK gets exactly two sends', async () => {
    const { auth, product, hooks } = await subscribedProduct('/fail-once');
    hooks.reply((hook) => (hooks.received.indexOf(hook) === 0 ? { status: 503, body: 'busy' } : { status: 200, body: 'OK' }));
    await changePrice(product);
    await hooks.waitFor((h) => h.length >= 2, 5000);
    await waitPastSchedule();
    expect(hooks.received).toHaveLength(2);
    expect(must(hooks.received[1], 'second').body).toBe(must(hooks.received[0], 'first').body);
    expect(await subscriptionState(auth, product.productRef)).toBe('subscribed');
  });
});

describe('cancellation belongs to the failed task only (interface v1 §3.2, 6.4.7)', () => {
  it('a product re-subscribed between the first send and the third failure stays subscribed', async () => {
    const { auth, product, hooks, expiresAt } = await subscribedProduct('/renewed', { status: 500, body: 'no' });
    await changePrice(product);
    await hooks.waitFor((h) => h.length >= 1, 5000);
    // Let some sandbox time pass so the renewal is visibly a new subscription period.
    await sleep(sandboxSeconds(2));
    expect(hooks.received.length, 'renewing before the second send').toBe(1);
    const renewed = await callApi(sandbox, 'POST', '/goods/subscriptions', {
      auth,
      body: { productRefs: [product.productRef], subscriptionState: 'subscribed', callbackUrl: hooks.url },
    });
    const item = asRecord(asArray(expectOk(renewed).list, 'list')[0], 'subscription');
    expect(item.subscriptionExpiresAt as number).toBeGreaterThan(expiresAt);
    await expectThreeSends(hooks);
    expect(await subscriptionState(auth, product.productRef)).toBe('subscribed');
    // The renewed subscription's own failing task does cancel it.
    await changePrice(product);
    await hooks.waitFor((h) => h.length >= 6, 10_000);
    await waitPastSchedule();
    expect(hooks.received).toHaveLength(6);
    expect(await subscriptionState(auth, product.productRef)).toBe('unsubscribed');
  });
});

describe('callback address rules (interface v1 §6.1.6; contract §6, 7.1; sandbox --callback-policy)', () => {
  let strict: RunningSandbox;

  beforeAll(async () => {
    strict = await startSandbox(['--products', '60', '--callback-policy', 'strict']);
  });

  afterAll(async () => {
    await strict?.stop();
  });

  it('with --callback-policy strict a loopback or non-public callbackUrl is 422114 and nothing is subscribed', async () => {
    const hooks = await receiver('/strict');
    const auth = { userId: strict.userId, apiKey: strict.apiKey };
    const p = must((await controlProducts(strict))[0], 'product').productRef;
    for (const callbackUrl of [hooks.url, 'https://127.0.0.1:8443/hooks', 'https://localhost/hooks', 'https://10.0.0.8/hooks', 'https://192.168.1.5/hooks', 'http://hooks.example.com/cb', 'ftp://hooks.example.com/cb', 'not a url']) {
      const res = await callApi(strict, 'POST', '/goods/subscriptions', { auth, body: { productRefs: [p], subscriptionState: 'subscribed', callbackUrl } });
      expectError(res, 422, 422114);
    }
    const none = expectListPayload(expectOk(await callApi(strict, 'GET', '/goods/catalog', { auth, query: { subscriptionState: 'subscribed' } })));
    expect(none.total).toBe(0);
    expectOk(await callApi(strict, 'POST', '/goods/subscriptions', { auth, body: { productRefs: [p], subscriptionState: 'subscribed', callbackUrl: 'https://hooks.example.com/procure/cb' } }));
  });

  it('with --callback-policy strict a loopback orderCallbackUrl is 422114 and no order is made', async () => {
    const hooks = await receiver('/strict-order');
    const auth = { userId: strict.userId, apiKey: strict.apiKey };
    const card = pickProduct(await controlProducts(strict), new Set(), 'orderable card', isOrderableCard);
    const units = await templateMinUnits(strict, auth, card.productRef);
    const body = { clientOrderRef: `strict-${Date.now()}`, productRef: card.productRef, units, orderCallbackUrl: hooks.url };
    expectError(await callApi(strict, 'POST', '/orders/create', { auth, body }), 422, 422114);
    expectError(await callApi(strict, 'GET', `/orders/${body.clientOrderRef}`, { auth }), 404, 404002);
  });

  it('with the default loopback policy a plain-HTTP public callbackUrl is still 422114', async () => {
    const auth = await newAccount(sandbox);
    const p = must(products[0], 'product').productRef;
    const res = await callApi(sandbox, 'POST', '/goods/subscriptions', { auth, body: { productRefs: [p], subscriptionState: 'subscribed', callbackUrl: 'http://hooks.example.com/cb' } });
    expectError(res, 422, 422114);
  });
});
