// Order webhooks (interface v1 §6.1, 6.4; contract §10.1, 10.2, 10.4): order.changed on every change after
// creation, order.credentials.ready with the same cards as the order detail, and the choice of address:
// the order's own orderCallbackUrl, else the account's default at the moment each message is
// generated, else nothing. Orders are moved by the control API (--auto-advance off); the clock runs 20×
// so that the 15 s / 30 s resends of a failing message take 0.75 s / 1.5 s.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startWebhookReceiver, type ReceivedHook, type WebhookReceiver } from '../../support/webhook-receiver';
import {
  Catalog,
  advance,
  api,
  controlProducts,
  createOrder,
  deliveries,
  getOrder,
  goodCard,
  launch,
  must,
  newAccount,
  ok,
  orderBody,
  setAccount,
  sleep,
  sorted,
  template,
  uid,
  type Account,
  type Card,
  type Harness,
  type Order,
} from '../../support/orders-harness';

const TIME_SCALE = 20;

let h: Harness;
let catalog: Catalog;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  h = await launch(['--auto-advance', 'off'], TIME_SCALE);
  catalog = new Catalog(await controlProducts(h));
});

afterAll(async () => {
  await Promise.all([h?.sandbox.stop(), ...receivers.map((r) => r.close())]);
});

async function receiver(): Promise<WebhookReceiver> {
  const r = await startWebhookReceiver();
  receivers.push(r);
  return r;
}

async function placeCard(account: Account, extra: Record<string, unknown> = {}, units = 2): Promise<Order> {
  const pick = catalog.find(goodCard, 'an orderable card');
  const tpl = await template(h, account, pick);
  return ok(await createOrder(h, account, { ...orderBody(pick, tpl, uid('wh'), units), ...extra }));
}

const forOrder = (hooks: ReceivedHook[], ref: string, type?: string): ReceivedHook[] =>
  hooks.filter((hook) => hook.json?.clientOrderRef === ref && (type === undefined || hook.json.eventType === type));

interface OrderChanged {
  eventId: string;
  eventType: string;
  occurredAt: number;
  clientOrderRef: string;
  platformOrderRef: string;
  revision: number;
  changedProperties: string[];
  orderSnapshot: Order;
}

interface CredentialsReady {
  eventId: string;
  eventType: string;
  occurredAt: number;
  clientOrderRef: string;
  platformOrderRef: string;
  card_list: Card[];
}

const bodyOf = <T>(hook: ReceivedHook): T => must(hook.json, 'a JSON webhook body') as unknown as T;

/** Unique messages (a resend repeats the eventId), in the order they were first received. */
function messages<T extends { eventId: string }>(hooks: ReceivedHook[]): T[] {
  const seen = new Map<string, T>();
  for (const hook of hooks) {
    const body = bodyOf<T>(hook);
    if (!seen.has(body.eventId)) seen.set(body.eventId, body);
  }
  return [...seen.values()];
}

describe('messages of an order with its own orderCallbackUrl', () => {
  test('order.changed for processing and completed, then order.credentials.ready with the cards of the order', async () => {
    const hooks = await receiver();
    const account = await newAccount(h);
    const order = await placeCard(account, { orderCallbackUrl: hooks.url });
    await advance(h, order.clientOrderRef, 'processing');
    await hooks.waitFor((all) => forOrder(all, order.clientOrderRef, 'order.changed').length >= 1, 5000);
    await advance(h, order.clientOrderRef, 'completed');
    await hooks.waitFor(
      (all) => forOrder(all, order.clientOrderRef, 'order.changed').length >= 2 && forOrder(all, order.clientOrderRef, 'order.credentials.ready').length >= 1,
      5000,
    );
    // Give a stray extra message a moment to show up before counting.
    await sleep(300);

    for (const hook of forOrder(hooks.received, order.clientOrderRef)) {
      expect(hook.method).toBe('POST');
      expect(hook.headers['content-type']).toMatch(/^application\/json/);
      expect(hook.headers['x-service-key']).toBeUndefined();
      expect(hook.headers['x-service-user-id']).toBeUndefined();
    }

    const changed = messages<OrderChanged>(forOrder(hooks.received, order.clientOrderRef, 'order.changed'));
    // The create response is the first state: no message for pending.
    expect(changed.map((m) => m.orderSnapshot.state)).toEqual(['processing', 'completed']);
    expect(changed.map((m) => m.orderSnapshot.allowedActions).map(sorted)).toEqual([[], ['aftersale', 'refund']]);
    for (const m of changed) {
      expect(m).toMatchObject({ eventType: 'order.changed', clientOrderRef: order.clientOrderRef, platformOrderRef: order.platformOrderRef });
      expect(typeof m.eventId).toBe('string');
      expect(String(m.occurredAt)).toMatch(/^\d{10}$/);
      expect(m.revision).toBe(m.orderSnapshot.revision);
      expect(m.changedProperties).toContain('state');
      for (const p of m.changedProperties) expect(['state', 'refunds', 'allowedActions']).toContain(p);
      expect(m.orderSnapshot.card_list).toBeNull();
    }
    const revisions = changed.map((m) => m.revision);
    expect(must(revisions[0], 'revision')).toBeGreaterThan(order.revision);
    expect(must(revisions[1], 'revision')).toBeGreaterThan(must(revisions[0], 'revision'));

    const ready = messages<CredentialsReady>(forOrder(hooks.received, order.clientOrderRef, 'order.credentials.ready'));
    expect(ready).toHaveLength(1);
    const credentials = must(ready[0], 'credentials message');
    expect(credentials).toMatchObject({ clientOrderRef: order.clientOrderRef, platformOrderRef: order.platformOrderRef });
    const detail = await getOrder(h, account, order.clientOrderRef);
    expect(credentials.card_list).toEqual(must(detail.card_list, 'card_list'));
    expect(credentials.card_list).toHaveLength(2);

    // Every message went once, to this address, and was acknowledged.
    const ids = new Set([...changed, credentials].map((m) => m.eventId));
    expect(ids.size).toBe(3);
    const sends = (await deliveries(h)).filter((d) => ids.has(d.eventId));
    expect(sends).toHaveLength(3);
    for (const send of sends) expect(send).toMatchObject({ url: hooks.url, attempt: 1, ok: true, status: 200 });
  });

  test('refund requests and results travel in order.changed with changedProperties "refunds"', async () => {
    const hooks = await receiver();
    const account = await newAccount(h);
    const order = await placeCard(account, { orderCallbackUrl: hooks.url });
    await advance(h, order.clientOrderRef, 'processing');
    await advance(h, order.clientOrderRef, 'completed');
    ok(await api(h, account, 'POST', `/orders/${order.clientOrderRef}/refunds`, { body: { clientRefundRef: uid('r'), amount: 0.01, reason: 'webhook test' } }));
    await hooks.waitFor((all) => messages<OrderChanged>(forOrder(all, order.clientOrderRef, 'order.changed')).length >= 3, 5000);
    await advance(h, order.clientOrderRef, 'refund.succeeded');
    await hooks.waitFor((all) => messages<OrderChanged>(forOrder(all, order.clientOrderRef, 'order.changed')).length >= 4, 5000);

    const changed = messages<OrderChanged>(forOrder(hooks.received, order.clientOrderRef, 'order.changed'));
    const requested = must(changed[2], 'refund requested message');
    const resolved = must(changed[3], 'refund resolved message');
    expect(requested.changedProperties).toContain('refunds');
    expect(requested.orderSnapshot.refunds.map((r) => r.state)).toEqual(['pending']);
    expect(requested.orderSnapshot.allowedActions).toEqual(['aftersale']);
    expect(resolved.changedProperties).toContain('refunds');
    expect(resolved.orderSnapshot.refunds.map((r) => r.state)).toEqual(['succeeded']);
    expect(resolved.orderSnapshot.refundedAmount).toBe(0.01);
    expect(resolved.orderSnapshot.state).toBe('completed');
    expect(resolved.revision).toBeGreaterThan(requested.revision);
  });

  test('a cancellation sends order.changed with state cancelled', async () => {
    const hooks = await receiver();
    const account = await newAccount(h);
    const order = await placeCard(account, { orderCallbackUrl: hooks.url });
    ok(await api(h, account, 'POST', `/orders/${order.clientOrderRef}/cancel`, { body: {} }));
    await hooks.waitFor((all) => forOrder(all, order.clientOrderRef, 'order.changed').length >= 1, 5000);
    await sleep(200);
    const changed = messages<OrderChanged>(forOrder(hooks.received, order.clientOrderRef, 'order.changed'));
    expect(changed.map((m) => m.orderSnapshot.state)).toEqual(['cancelled']);
    expect(changed[0]?.orderSnapshot.allowedActions).toEqual([]);
    expect(forOrder(hooks.received, order.clientOrderRef, 'order.credentials.ready')).toEqual([]);
  });

  test("the order's own address wins over the account's default", async () => {
    const own = await receiver();
    const fallback = await receiver();
    const account = await newAccount(h);
    await setAccount(h, account, { defaultCallbackUrl: fallback.url });
    const order = await placeCard(account, { orderCallbackUrl: own.url });
    await advance(h, order.clientOrderRef, 'processing');
    await own.waitFor((all) => forOrder(all, order.clientOrderRef).length >= 1, 5000);
    await sleep(300);
    expect(forOrder(fallback.received, order.clientOrderRef)).toEqual([]);
  });
});

describe('orders without orderCallbackUrl', () => {
  test("use the account's default callback address", async () => {
    const hooks = await receiver();
    const account = await newAccount(h);
    await setAccount(h, account, { defaultCallbackUrl: hooks.url });
    const order = await placeCard(account);
    expect(order.orderCallbackUrl).toBeNull();
    await advance(h, order.clientOrderRef, 'processing');
    await advance(h, order.clientOrderRef, 'completed');
    await hooks.waitFor(
      (all) => forOrder(all, order.clientOrderRef, 'order.changed').length >= 2 && forOrder(all, order.clientOrderRef, 'order.credentials.ready').length >= 1,
      5000,
    );
    expect(messages<OrderChanged>(forOrder(hooks.received, order.clientOrderRef, 'order.changed')).map((m) => m.orderSnapshot.state)).toEqual(['processing', 'completed']);
  });

  test('with neither address nothing is sent; a default set later applies to messages generated after it', async () => {
    const hooks = await receiver();
    const account = await newAccount(h);
    await setAccount(h, account, { defaultCallbackUrl: null });
    const before = new Set((await deliveries(h)).map((d) => d.eventId));
    const order = await placeCard(account);
    await advance(h, order.clientOrderRef, 'processing');
    await sleep(400);
    // product.changed messages may appear meanwhile (the order moved the stock of a product other
    // tests subscribed to); what must not appear is a message about this order.
    const fresh = (await deliveries(h)).filter((d) => !before.has(d.eventId) && d.eventType !== 'product.changed');
    expect(fresh, JSON.stringify(fresh)).toEqual([]);

    await setAccount(h, account, { defaultCallbackUrl: hooks.url });
    await advance(h, order.clientOrderRef, 'completed');
    await hooks.waitFor(
      (all) => forOrder(all, order.clientOrderRef, 'order.changed').length >= 1 && forOrder(all, order.clientOrderRef, 'order.credentials.ready').length >= 1,
      5000,
    );
    await sleep(200);
    // The processing message was never generated for any address, so it is not sent now either.
    expect(messages<OrderChanged>(forOrder(hooks.received, order.clientOrderRef, 'order.changed')).map((m) => m.orderSnapshot.state)).toEqual(['completed']);
  });

  test('changing the default does not move a message already generated: its resends keep the first address', async () => {
    const first = await receiver();
    const second = await receiver();
    first.reply(() => ({ status: 500, body: 'not now' }));
    const account = await newAccount(h);
    await setAccount(h, account, { defaultCallbackUrl: first.url });
    const order = await placeCard(account);
    await advance(h, order.clientOrderRef, 'processing');
    await first.waitFor((all) => forOrder(all, order.clientOrderRef).length >= 1, 5000);
    const eventId = String(must(forOrder(first.received, order.clientOrderRef)[0]?.json?.eventId, 'eventId'));

    await setAccount(h, account, { defaultCallbackUrl: second.url });
    // The resends come 15 and 30 sandbox seconds after the first send (0.75 s and 1.5 s real).
    await first.waitFor((all) => all.filter((hook) => hook.json?.eventId === eventId).length >= 3, 6000);
    await sleep(400);
    const sends = first.received.filter((hook) => hook.json?.eventId === eventId);
    expect(sends).toHaveLength(3);
    expect(new Set(sends.map((s) => s.body)).size).toBe(1);
    expect(second.received.filter((hook) => hook.json?.eventId === eventId)).toEqual([]);
    const log = (await deliveries(h)).filter((d) => d.eventId === eventId);
    expect(log.map((d) => [d.attempt, d.url, d.ok])).toEqual([
      [1, first.url, false],
      [2, first.url, false],
      [3, first.url, false],
    ]);

    // A message generated after the change goes to the new default.
    await advance(h, order.clientOrderRef, 'completed');
    await second.waitFor((all) => forOrder(all, order.clientOrderRef, 'order.changed').length >= 1, 5000);
    expect(messages<OrderChanged>(forOrder(second.received, order.clientOrderRef, 'order.changed')).map((m) => m.orderSnapshot.state)).toEqual(['completed']);
  });
});
