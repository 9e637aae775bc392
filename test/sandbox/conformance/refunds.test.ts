// Refunds of completed orders (contract §7.3, 7.6; interface v1 §7.3): partial and full refunds with their
// pending state, the ledger, idempotency by clientRefundRef, amount validation, rejection, and the
// per-order cooldown of 10 s (429112). Refunds stay pending until the control API resolves them
// (--auto-advance off). Every refund attempt on an order that reaches the cooldown check starts a new
// cooldown, so consecutive attempts on one order wait 10 sandbox seconds (1 s real at scale 10).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ApiResponse } from '../../support/merchant-http';
import {
  Catalog,
  accountBalanceFen,
  advance,
  api,
  controlProducts,
  createOrder,
  entriesFor,
  expectError,
  fen,
  getOrder,
  goodCard,
  launch,
  ledger,
  must,
  newAccount,
  ok,
  orderBody,
  sandboxSeconds,
  sleep,
  sorted,
  template,
  uid,
  yuanText,
  type Account,
  type Harness,
  type Order,
} from '../../support/orders-harness';

const TIME_SCALE = 10;
const START_FEN = 1_000_000;

let h: Harness;
let catalog: Catalog;

beforeAll(async () => {
  h = await launch(['--auto-advance', 'off'], TIME_SCALE);
  catalog = new Catalog(await controlProducts(h));
});

afterAll(async () => {
  await h?.sandbox.stop();
});

/** A completed card order of two units (so that a partial refund is always possible). */
async function completedOrder(account: Account): Promise<Order> {
  const pick = catalog.find((p, v) => goodCard(p, v) && fen(v.price) >= 2, 'an orderable card');
  const tpl = await template(h, account, pick);
  const order = ok(await createOrder(h, account, orderBody(pick, tpl, uid('rf'), 2)));
  await advance(h, order.clientOrderRef, 'processing');
  await advance(h, order.clientOrderRef, 'completed');
  return getOrder(h, account, order.clientOrderRef);
}

function requestRefund(account: Account, ref: string, body: Record<string, unknown>): Promise<ApiResponse<Order>> {
  return api<Order>(h, account, 'POST', `/orders/${ref}/refunds`, { body });
}

const cooldown = (): Promise<void> => sleep(sandboxSeconds(h, 10));

async function expectLedger(account: Account, order: Order, refundsFen: number[]): Promise<void> {
  const book = await ledger(h, account);
  expect(entriesFor(book, order.clientOrderRef, 'charge').map((e) => fen(e.amount))).toEqual([fen(order.totalAmount)]);
  expect(entriesFor(book, order.clientOrderRef, 'refund').map((e) => fen(e.amount))).toEqual(refundsFen);
  const expected = START_FEN - fen(order.totalAmount) + refundsFen.reduce((a, b) => a + b, 0);
  expect(fen(book.balance)).toBe(expected);
  expect(await accountBalanceFen(h, account)).toBe(expected);
}

describe('partial then full refund of a completed order', () => {
  test('pending, cooldown, 409103 while pending, succeeded, idempotency, amount limits, refunded', async () => {
    const account = await newAccount(h, yuanText(START_FEN));
    const order = await completedOrder(account);
    const total = fen(order.totalAmount);
    const first = Math.floor(total / 3);
    const rest = total - first;

    // 1. A partial refund is pending; nothing is credited yet and no other refund may be requested.
    const r1 = { clientRefundRef: uid('r1'), amount: Number(yuanText(first)), reason: 'one card did not work' };
    const pending = ok(await requestRefund(account, order.clientOrderRef, r1));
    // At once, well within the 10 s (1 s real) cooldown; checked in step 2.
    const tooSoon = await requestRefund(account, order.clientOrderRef, { clientRefundRef: uid('r2'), amount: 0.01, reason: 'again' });
    expect(pending.state).toBe('completed');
    expect(pending.refunds).toHaveLength(1);
    const refund = must(pending.refunds[0], 'refund');
    expect(refund).toMatchObject({ clientRefundRef: r1.clientRefundRef, state: 'pending', reason: r1.reason, resolvedAt: null });
    expect(fen(refund.amount)).toBe(first);
    expect(typeof refund.refundRef).toBe('string');
    expect(Number.isInteger(refund.createdAt)).toBe(true);
    expect(pending.allowedActions).toEqual(['aftersale']);
    expect(fen(pending.refundedAmount)).toBe(0);
    await expectLedger(account, order, []);

    // 2. Another attempt within 10 s: 429112 with Retry-After.
    expectError(tooSoon, 429, 429112);
    const retryAfter = Number(tooSoon.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(10);

    // 3. After the cooldown, a new refund while one is pending: 409103.
    await cooldown();
    expectError(await requestRefund(account, order.clientOrderRef, { clientRefundRef: uid('r2'), amount: 0.01, reason: 'again' }), 409, 409103);

    // 4. The merchant accepts: the amount is credited, the order stays completed.
    await advance(h, order.clientOrderRef, 'refund.succeeded');
    const credited = await getOrder(h, account, order.clientOrderRef);
    expect(credited.state).toBe('completed');
    expect(fen(credited.refundedAmount)).toBe(first);
    expect(credited.refunds.map((r) => r.state)).toEqual(['succeeded']);
    expect(Number.isInteger(credited.refunds[0]?.resolvedAt)).toBe(true);
    expect(sorted(credited.allowedActions)).toEqual(['aftersale', 'refund']);
    await expectLedger(account, order, [first]);

    // 5. The same clientRefundRef with the same content: the order, nothing new.
    await cooldown();
    const replay = ok(await requestRefund(account, order.clientOrderRef, r1));
    expect(replay.refunds).toHaveLength(1);
    expect(replay.refunds[0]?.refundRef).toBe(refund.refundRef);
    await expectLedger(account, order, [first]);

    // 6. The same clientRefundRef with a different amount or reason: 409001.
    await cooldown();
    expectError(await requestRefund(account, order.clientOrderRef, { ...r1, amount: Number(yuanText(first + 1)) }), 409, 409001);
    await cooldown();
    expectError(await requestRefund(account, order.clientOrderRef, { ...r1, reason: 'another reason' }), 409, 409001);

    // 7. More than what is refundable, zero, three decimals: 400001.
    for (const amount of [Number(yuanText(rest + 1)), 0, 0.001, -1]) {
      await cooldown();
      expectError(await requestRefund(account, order.clientOrderRef, { clientRefundRef: uid('bad'), amount, reason: 'too much' }), 400, 400001);
    }
    expect((await getOrder(h, account, order.clientOrderRef)).refunds).toHaveLength(1);

    // 8. The rest (amount omitted = all that is refundable) brings the order to refunded.
    await cooldown();
    const last = ok(await requestRefund(account, order.clientOrderRef, { clientRefundRef: uid('r3'), reason: 'the rest' }));
    expect(last.refunds).toHaveLength(2);
    expect(fen(must(last.refunds[1], 'second refund').amount)).toBe(rest);
    expect(last.refunds[1]?.state).toBe('pending');
    await advance(h, order.clientOrderRef, 'refund.succeeded');
    const refunded = await getOrder(h, account, order.clientOrderRef);
    expect(refunded.state).toBe('refunded');
    expect(fen(refunded.refundedAmount)).toBe(total);
    expect(refunded.allowedActions).toEqual(['aftersale']);
    expect(refunded.refunds.map((r) => r.state)).toEqual(['succeeded', 'succeeded']);
    await expectLedger(account, order, [first, rest]);

    // 9. Nothing is left to refund.
    await cooldown();
    expectError(await requestRefund(account, order.clientOrderRef, { clientRefundRef: uid('r4'), amount: 0.01, reason: 'more' }), 409, 409103);
  });

  test('a full refund in one request brings the order to refunded', async () => {
    const account = await newAccount(h, yuanText(START_FEN));
    const order = await completedOrder(account);
    const req = ok(await requestRefund(account, order.clientOrderRef, { clientRefundRef: uid('full'), amount: order.totalAmount, reason: 'all cards invalid' }));
    expect(fen(must(req.refunds[0], 'refund').amount)).toBe(fen(order.totalAmount));
    await advance(h, order.clientOrderRef, 'refund.succeeded');
    const refunded = await getOrder(h, account, order.clientOrderRef);
    expect(refunded.state).toBe('refunded');
    await expectLedger(account, order, [fen(order.totalAmount)]);
  });
});

describe('a rejected refund', () => {
  test('credits nothing, carries a reason, and the order can be refunded again', async () => {
    const account = await newAccount(h, yuanText(START_FEN));
    const order = await completedOrder(account);
    ok(await requestRefund(account, order.clientOrderRef, { clientRefundRef: uid('rej'), amount: 0.01, reason: 'please check' }));
    await advance(h, order.clientOrderRef, 'refund.rejected');
    const after = await getOrder(h, account, order.clientOrderRef);
    expect(after.state).toBe('completed');
    expect(after.refunds.map((r) => r.state)).toEqual(['rejected']);
    expect(typeof after.refunds[0]?.reason).toBe('string');
    expect(Number.isInteger(after.refunds[0]?.resolvedAt)).toBe(true);
    expect(fen(after.refundedAmount)).toBe(0);
    expect(sorted(after.allowedActions)).toEqual(['aftersale', 'refund']);
    await expectLedger(account, order, []);

    await cooldown();
    const again = ok(await requestRefund(account, order.clientOrderRef, { clientRefundRef: uid('again'), reason: 'second try' }));
    expect(again.refunds.map((r) => r.state)).toEqual(['rejected', 'pending']);
    // Nothing was refunded, so the whole amount is refundable.
    expect(fen(must(again.refunds[1], 'second refund').amount)).toBe(fen(order.totalAmount));
  });
});

describe('the cooldown is per order', () => {
  test('a refund on another order right after one on the first is accepted', async () => {
    const account = await newAccount(h, yuanText(START_FEN));
    const a = await completedOrder(account);
    const b = await completedOrder(account);
    ok(await requestRefund(account, a.clientOrderRef, { clientRefundRef: uid('a'), amount: 0.01, reason: 'a' }));
    ok(await requestRefund(account, b.clientOrderRef, { clientRefundRef: uid('b'), amount: 0.01, reason: 'b' }));
    expectError(await requestRefund(account, a.clientOrderRef, { clientRefundRef: uid('a2'), amount: 0.01, reason: 'a' }), 429, 429112);
  });

  test('a refused attempt (409103 on a pending order) counts too', async () => {
    const account = await newAccount(h, yuanText(START_FEN));
    const pick = catalog.find(goodCard, 'an orderable card');
    const pendingOrder = ok(await createOrder(h, account, orderBody(pick, await template(h, account, pick), uid('p'))));
    expectError(await requestRefund(account, pendingOrder.clientOrderRef, { clientRefundRef: uid('x'), reason: 'x' }), 409, 409103);
    expectError(await requestRefund(account, pendingOrder.clientOrderRef, { clientRefundRef: uid('x'), reason: 'x' }), 429, 429112);
  });
});

describe('refund body validation (contract §7.6)', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['missing clientRefundRef', { amount: 0.01, reason: 'x' }],
    ['clientRefundRef with a space', { clientRefundRef: 'a b', amount: 0.01, reason: 'x' }],
    ['clientRefundRef of 65 characters', { clientRefundRef: 'r'.repeat(65), amount: 0.01, reason: 'x' }],
    ['missing reason', { clientRefundRef: 'ok-ref', amount: 0.01 }],
    ['empty reason', { clientRefundRef: 'ok-ref', amount: 0.01, reason: '' }],
    ['reason of 201 characters', { clientRefundRef: 'ok-ref', amount: 0.01, reason: 'x'.repeat(201) }],
    ['amount as text', { clientRefundRef: 'ok-ref', amount: '0.01', reason: 'x' }],
  ];
  test.each(cases)('%s is 400001', async (_name, body) => {
    const account = await newAccount(h, yuanText(START_FEN));
    const order = await completedOrder(account);
    expectError(await requestRefund(account, order.clientOrderRef, body), 400, 400001);
    expect((await getOrder(h, account, order.clientOrderRef)).refunds).toEqual([]);
  });

  test('a refund of an unknown order is 404002', async () => {
    const account = await newAccount(h, yuanText(START_FEN));
    expectError(await requestRefund(account, uid('ghost'), { clientRefundRef: uid('r'), reason: 'x' }), 404, 404002);
  });
});
