// Create-order idempotency (interface v1 §4.2.1, 4.2.3; contract §7.1): a retry with the same clientOrderRef and
// the same content returns the original order and charges nothing; any change of the compared
// content is 409001; orderCallbackUrl and imageUrl are not compared and never changed; concurrent
// identical creates make one order and one charge; a create whose answer was lost still exists.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { callApi } from '../../support/merchant-http';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';
import {
  Catalog,
  accountBalanceFen,
  advance,
  controlProducts,
  createOrder,
  entriesFor,
  expectError,
  fen,
  getOrder,
  goodCard,
  hasStock,
  isCard,
  isOpen,
  isTopup,
  launch,
  ledger,
  must,
  newAccount,
  ok,
  orderBody,
  setFaults,
  template,
  uid,
  validGroup,
  type Account,
  type Harness,
  type Order,
  type Pick,
  type Template,
} from '../../support/orders-harness';
import type { ApiResponse } from '../../support/merchant-http';

let h: Harness;
let catalog: Catalog;
let receiver: WebhookReceiver;

beforeAll(async () => {
  [h, receiver] = await Promise.all([launch(['--auto-advance', 'off'], 1), startWebhookReceiver()]);
  catalog = new Catalog(await controlProducts(h));
});

afterAll(async () => {
  await Promise.all([h?.sandbox.stop(), receiver?.close()]);
});

async function pickWithTemplate(account: Account, predicate: Parameters<Catalog['find']>[0], what: string): Promise<{ pick: Pick; tpl: Template }> {
  const pick = catalog.find(predicate, what);
  return { pick, tpl: await template(h, account, pick) };
}

async function expectSingleCharge(account: Account, ref: string, order: Order, startFen: number): Promise<void> {
  const book = await ledger(h, account);
  expect(entriesFor(book, ref, 'charge').map((e) => fen(e.amount))).toEqual([fen(order.totalAmount)]);
  expect(fen(book.balance)).toBe(startFen - fen(order.totalAmount));
  expect(await accountBalanceFen(h, account)).toBe(startFen - fen(order.totalAmount));
}

describe('same clientOrderRef, same content', () => {
  test('returns the original order with HTTP 200 and charges once', async () => {
    const account = await newAccount(h, '1000');
    const { pick, tpl } = await pickWithTemplate(account, goodCard, 'an orderable card');
    const ref = uid('same');
    const body = orderBody(pick, tpl, ref);
    const first = ok(await createOrder(h, account, body));
    const second = ok(await createOrder(h, account, body));
    const third = ok(await createOrder(h, account, body));
    expect(second.platformOrderRef).toBe(first.platformOrderRef);
    expect(third.platformOrderRef).toBe(first.platformOrderRef);
    expect(fen(second.totalAmount)).toBe(fen(first.totalAmount));
    await expectSingleCharge(account, ref, first, 100_000);
  });

  test('a retry returns the order as it is now', async () => {
    const account = await newAccount(h, '1000');
    const { pick, tpl } = await pickWithTemplate(account, goodCard, 'an orderable card');
    const ref = uid('now');
    const body = orderBody(pick, tpl, ref);
    const first = ok(await createOrder(h, account, body));
    await advance(h, ref, 'processing');
    const retry = ok(await createOrder(h, account, body));
    expect(retry.platformOrderRef).toBe(first.platformOrderRef);
    expect(retry.state).toBe('processing');
    expect(retry.revision).toBeGreaterThan(first.revision);
    await expectSingleCharge(account, ref, first, 100_000);
  });

  test('a top-up retried with the same entries and revision is the same order', async () => {
    const account = await newAccount(h, '5000');
    const { pick, tpl } = await pickWithTemplate(account, (p, v) => isTopup(p) && isOpen(p, v) && hasStock(v) && v.entryMode !== 'none', 'an orderable top-up');
    const ref = uid('topup');
    const body = orderBody(pick, tpl, ref);
    const first = ok(await createOrder(h, account, body));
    // Same content, re-serialised from scratch (a restarted client builds the body again).
    const again = ok(await createOrder(h, account, JSON.parse(JSON.stringify(body)) as unknown));
    expect(again.platformOrderRef).toBe(first.platformOrderRef);
    await expectSingleCharge(account, ref, first, 500_000);
  });

  test('variantRef absent and variantRef 0 are the same content for a single-variant product', async () => {
    const account = await newAccount(h, '1000');
    const { pick, tpl } = await pickWithTemplate(account, (p, v) => goodCard(p, v) && p.variants.length === 1, 'a single-variant card');
    const ref = uid('zero');
    const body = orderBody(pick, tpl, ref);
    expect(body.variantRef).toBeUndefined();
    const first = ok(await createOrder(h, account, body));
    const withZero = ok(await createOrder(h, account, { ...body, variantRef: 0 }));
    expect(withZero.platformOrderRef).toBe(first.platformOrderRef);
    await expectSingleCharge(account, ref, first, 100_000);
  });

  test('the same clientOrderRef in two accounts makes two independent orders', async () => {
    const a = await newAccount(h, '1000');
    const b = await newAccount(h, '1000');
    const { pick, tpl } = await pickWithTemplate(a, goodCard, 'an orderable card');
    const ref = uid('shared');
    const inA = ok(await createOrder(h, a, orderBody(pick, tpl, ref)));
    const inB = ok(await createOrder(h, b, orderBody(pick, tpl, ref, tpl.unitRule.max >= tpl.unitRule.min + tpl.unitRule.step ? tpl.unitRule.min + tpl.unitRule.step : tpl.unitRule.min)));
    expect(inB.platformOrderRef).not.toBe(inA.platformOrderRef);
    await expectSingleCharge(a, ref, inA, 100_000);
    await expectSingleCharge(b, ref, inB, 100_000);
  });
});

describe('same clientOrderRef, different content: 409001 and nothing changes', () => {
  async function expectConflict(account: Account, ref: string, original: Order, changed: Record<string, unknown>, startFen: number): Promise<void> {
    expectError(await createOrder(h, account, changed), 409, 409001);
    const now = await getOrder(h, account, ref);
    expect(now.platformOrderRef).toBe(original.platformOrderRef);
    expect(now.units).toBe(original.units);
    expect(now.variantRef).toBe(original.variantRef);
    await expectSingleCharge(account, ref, original, startFen);
  }

  test('different units', async () => {
    const account = await newAccount(h, '5000');
    const { pick, tpl } = await pickWithTemplate(account, (p, v) => goodCard(p, v), 'an orderable card');
    const ref = uid('units');
    const body = orderBody(pick, tpl, ref);
    const original = ok(await createOrder(h, account, body));
    await expectConflict(account, ref, original, { ...body, units: tpl.unitRule.min + tpl.unitRule.step }, 500_000);
    // Even an invalid count is a conflict first: idempotency is checked before the unit rule.
    await expectConflict(account, ref, original, { ...body, units: tpl.unitRule.max + 1 }, 500_000);
  });

  test('different variant', async () => {
    const account = await newAccount(h, '5000');
    const { pick, tpl } = await pickWithTemplate(account, (p, v) => isCard(p) && p.variants.length > 1 && isOpen(p, v) && hasStock(v), 'a multi-variant card product');
    const other = must(
      pick.product.variants.find((v) => v.variantRef !== pick.variant.variantRef),
      'a second variant',
    );
    const ref = uid('variant');
    const body = orderBody(pick, tpl, ref);
    const original = ok(await createOrder(h, account, body));
    await expectConflict(account, ref, original, { ...body, variantRef: other.variantRef }, 500_000);
  });

  test('different product', async () => {
    const account = await newAccount(h, '5000');
    const { pick, tpl } = await pickWithTemplate(account, goodCard, 'an orderable card');
    const ref = uid('product');
    const body = orderBody(pick, tpl, ref);
    const original = ok(await createOrder(h, account, body));
    const other = catalog.find((p, v) => goodCard(p, v) && p.productRef !== pick.product.productRef && p.variants.length === 1, 'another single-variant card');
    await expectConflict(account, ref, original, { clientOrderRef: ref, productRef: other.product.productRef, units: body.units }, 500_000);
  });

  test('different purchaseEntries and different purchaseSchemaRevision', async () => {
    const account = await newAccount(h, '5000');
    const { pick, tpl } = await pickWithTemplate(account, (p, v) => isTopup(p) && isOpen(p, v) && hasStock(v) && v.entryMode !== 'none', 'a top-up with entries');
    const ref = uid('entries');
    const body = orderBody(pick, tpl, ref);
    const original = ok(await createOrder(h, account, body));
    const field = must(tpl.purchaseFields[0], 'a purchase field');
    const alternative = must(
      ['13912345678', '13800138001', 'buyer2@example.com', '54321', 'user002', 'abc124'].find((v) => v !== validGroup(tpl)[field.fieldRef]),
      'another value',
    );
    const changedEntries = (body.purchaseEntries as Record<string, string>[]).map((g) => ({ ...g, [field.fieldRef]: alternative }));
    await expectConflict(account, ref, original, { ...body, purchaseEntries: changedEntries }, 500_000);
    // A different revision is a conflict too (not 409101: the retry is compared before the template).
    await expectConflict(account, ref, original, { ...body, purchaseSchemaRevision: tpl.purchaseSchemaRevision + 1 }, 500_000);
  });
});

describe('orderCallbackUrl and imageUrl are not compared and never changed by a retry', () => {
  test('a retry with another callback URL returns the original, which keeps its first URL', async () => {
    const account = await newAccount(h, '1000');
    const { pick, tpl } = await pickWithTemplate(account, goodCard, 'an orderable card');
    const ref = uid('cb');
    const body = orderBody(pick, tpl, ref);
    const first = ok(await createOrder(h, account, { ...body, orderCallbackUrl: receiver.url, imageUrl: 'https://img.example.com/first.png' }));
    const retry = ok(await createOrder(h, account, { ...body, orderCallbackUrl: `${receiver.url}/other`, imageUrl: 'https://img.example.com/second.png' }));
    expect(retry.platformOrderRef).toBe(first.platformOrderRef);
    expect(retry.orderCallbackUrl).toBe(receiver.url);
    expect(retry.imageUrl).toBe('https://img.example.com/first.png');
    const detail = await getOrder(h, account, ref);
    expect(detail.orderCallbackUrl).toBe(receiver.url);
    expect(detail.imageUrl).toBe('https://img.example.com/first.png');
    await expectSingleCharge(account, ref, first, 100_000);
  });

  test('an order created without a callback URL does not gain one on retry', async () => {
    const account = await newAccount(h, '1000');
    const { pick, tpl } = await pickWithTemplate(account, goodCard, 'an orderable card');
    const ref = uid('nocb');
    const body = orderBody(pick, tpl, ref);
    ok(await createOrder(h, account, body));
    const retry = ok(await createOrder(h, account, { ...body, orderCallbackUrl: receiver.url }));
    expect(retry.orderCallbackUrl).toBeNull();
    expect((await getOrder(h, account, ref)).orderCallbackUrl).toBeNull();
  });
});

describe('concurrent creates', () => {
  test('20 identical creates at once: every answer is the same order and the ledger has one charge', async () => {
    const account = await newAccount(h, '1000');
    const { pick, tpl } = await pickWithTemplate(account, goodCard, 'an orderable card');
    const ref = uid('burst');
    const body = orderBody(pick, tpl, ref);
    // api() waits out 429001 (create burst is 10 / s) and retries with the same ref, as a client must.
    const answers = await Promise.all(Array.from({ length: 20 }, () => createOrder(h, account, body)));
    const orders = answers.map((res) => ok(res));
    expect(new Set(orders.map((o) => o.platformOrderRef)).size).toBe(1);
    await expectSingleCharge(account, ref, must(orders[0], 'an order'), 100_000);
  });

  test('10 creates at once (the burst), all answered 200 without waiting, one charge', async () => {
    const account = await newAccount(h, '1000');
    const { pick, tpl } = await pickWithTemplate(account, goodCard, 'an orderable card');
    const ref = uid('ten');
    const body = orderBody(pick, tpl, ref);
    const answers = await Promise.all(Array.from({ length: 10 }, () => callApi<Order>(h.sandbox, 'POST', '/orders/create', { body, auth: account })));
    const orders = answers.map((res) => ok(res));
    expect(new Set(orders.map((o) => o.platformOrderRef)).size).toBe(1);
    await expectSingleCharge(account, ref, must(orders[0], 'an order'), 100_000);
  });

  test('concurrent creates with two different contents: one order wins, the others are 409001, one charge', async () => {
    const account = await newAccount(h, '5000');
    const { pick, tpl } = await pickWithTemplate(account, (p, v) => goodCard(p, v), 'an orderable card');
    const ref = uid('race');
    const a = orderBody(pick, tpl, ref, tpl.unitRule.min);
    const b = orderBody(pick, tpl, ref, tpl.unitRule.min + tpl.unitRule.step);
    const answers: ApiResponse<Order>[] = await Promise.all(Array.from({ length: 10 }, (_v, i) => createOrder(h, account, i % 2 === 0 ? a : b)));
    const wins = answers.filter((r) => r.status === 200);
    const conflicts = answers.filter((r) => r.status === 409);
    expect(wins.length + conflicts.length).toBe(10);
    for (const c of conflicts) expect(c.json?.code).toBe(409001);
    const winners = wins.map((r) => ok(r));
    expect(new Set(winners.map((o) => o.platformOrderRef)).size).toBe(1);
    expect(new Set(winners.map((o) => o.units)).size).toBe(1);
    // Exactly the requests carrying the winning content succeed.
    expect(wins.length).toBe(5);
    await expectSingleCharge(account, ref, must(winners[0], 'the winning order'), 500_000);
  });
});

describe('a create whose answer was lost (interface v1 §7.5: retry after a network failure)', () => {
  test('with dropRate 1 the create gets no answer, yet the order exists and a retry returns it without a second charge', async () => {
    const account = await newAccount(h, '1000');
    const { pick, tpl } = await pickWithTemplate(account, goodCard, 'an orderable card');
    const ref = uid('dropped');
    const body = orderBody(pick, tpl, ref);
    await setFaults(h, { dropRate: 1 });
    try {
      await expect(callApi(h.sandbox, 'POST', '/orders/create', { body, auth: account })).rejects.toThrow();
    } finally {
      await setFaults(h, { dropRate: 0 });
    }
    const existing = await getOrder(h, account, ref);
    expect(existing.state).toBe('pending');
    const retry = ok(await createOrder(h, account, body));
    expect(retry.platformOrderRef).toBe(existing.platformOrderRef);
    await expectSingleCharge(account, ref, existing, 100_000);
  });

  test('with dropPaths the loss hits only the listed endpoints: the product read is answered, the create is not', async () => {
    const account = await newAccount(h, '1000');
    const { pick, tpl } = await pickWithTemplate(account, goodCard, 'an orderable card');
    const ref = uid('dropped-path');
    const body = orderBody(pick, tpl, ref);
    await setFaults(h, { dropRate: 1, dropPaths: ['/orders/create'] });
    try {
      const read = await callApi(h.sandbox, 'GET', `/goods/${pick.product.productRef}`, { auth: account });
      expect(read.status).toBe(200);
      await expect(callApi(h.sandbox, 'POST', '/orders/create', { body, auth: account })).rejects.toThrow();
    } finally {
      await setFaults(h, { dropRate: 0, dropPaths: [] });
    }
    const existing = await getOrder(h, account, ref);
    await expectSingleCharge(account, ref, existing, 100_000);
  });

  test('a lost answer on a retry changes nothing either', async () => {
    const account = await newAccount(h, '1000');
    const { pick, tpl } = await pickWithTemplate(account, goodCard, 'an orderable card');
    const ref = uid('dropped2');
    const body = orderBody(pick, tpl, ref);
    const first = ok(await createOrder(h, account, body));
    await setFaults(h, { dropRate: 1 });
    try {
      await expect(callApi(h.sandbox, 'POST', '/orders/create', { body, auth: account })).rejects.toThrow();
      await expect(callApi(h.sandbox, 'POST', '/orders/create', { body, auth: account })).rejects.toThrow();
    } finally {
      await setFaults(h, { dropRate: 0 });
    }
    expect(ok(await createOrder(h, account, body)).platformOrderRef).toBe(first.platformOrderRef);
    await expectSingleCharge(account, ref, first, 100_000);
  });
});

