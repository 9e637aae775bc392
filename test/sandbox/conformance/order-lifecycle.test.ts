// Order states, allowedActions and the buyer's actions (contract §7.2, 7.4, 7.6; docs/sandbox.md "How
// orders move"). One sandbox holds orders still (--auto-advance off) and moves them through the
// control API; a second one moves them by itself under a fast clock. Time scale 10 turns the 30 s
// verification and 10 s cancel cooldowns into 3 s and 1 s of real time: short enough to wait out,
// long enough to hit reliably with an immediate second attempt.
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
  sandboxSeconds,
  sleep,
  sorted,
  template,
  uid,
  waitForOrder,
  type Account,
  type Harness,
  type Order,
  type Pick,
} from '../../support/orders-harness';

const TIME_SCALE = 10;
const START_FEN = 1_000_000;

let still: Harness;
let moving: Harness;
let catalog: Catalog;

beforeAll(async () => {
  [still, moving] = await Promise.all([launch(['--auto-advance', 'off'], TIME_SCALE), launch(['--auto-advance', 'on'], TIME_SCALE)]);
  catalog = new Catalog(await controlProducts(still));
});

afterAll(async () => {
  await Promise.all([still?.sandbox.stop(), moving?.sandbox.stop()]);
});

// Every seeded card's unitRule allows 1 to at least 10 units (the template is asserted where it matters).
const cardPick = (): Pick => catalog.find(goodCard, 'an orderable card');
const verifyingTopup = (): Pick => catalog.find((p, v) => isTopup(p) && isOpen(p, v) && hasStock(v) && v.supply === 'needsVerification', "a top-up whose supply is 'needsVerification'");

async function place(h: Harness, account: Account, pick: Pick, units?: number): Promise<Order> {
  const tpl = await template(h, account, pick);
  return ok(await createOrder(h, account, orderBody(pick, tpl, uid('life'), units)));
}

/** A fresh order of `pick` brought to `path`'s last state through the control API. */
async function orderAt(account: Account, pick: Pick, path: string[], units?: number): Promise<Order> {
  let order = await place(still, account, pick, units);
  for (const to of path) order = await advance(still, order.clientOrderRef, to);
  return getOrder(still, account, order.clientOrderRef);
}

function verify(h: Harness, account: Account, ref: string, code: unknown): Promise<ApiResponse<Order>> {
  return api<Order>(h, account, 'POST', `/orders/${ref}/verification-code`, { body: { verificationCode: code } });
}
function cancel(h: Harness, account: Account, ref: string, body: Record<string, unknown> = {}): Promise<ApiResponse<Order>> {
  return api<Order>(h, account, 'POST', `/orders/${ref}/cancel`, { body });
}
function refund(h: Harness, account: Account, ref: string): Promise<ApiResponse<Order>> {
  return api<Order>(h, account, 'POST', `/orders/${ref}/refunds`, { body: { clientRefundRef: uid('rf'), reason: 'lifecycle test' } });
}

/** Every action missing from allowedActions is refused with its own code (contract §7.2), and nothing changes. */
async function expectRefusals(account: Account, order: Order): Promise<void> {
  const ref = order.clientOrderRef;
  if (!order.allowedActions.includes('verificationCode')) expectError(await verify(still, account, ref, '123456'), 422, 422120);
  if (!order.allowedActions.includes('cancel')) expectError(await cancel(still, account, ref), 409, 409102);
  if (!order.allowedActions.includes('refund')) expectError(await refund(still, account, ref), 409, 409103);
  const after = await getOrder(still, account, ref);
  expect(after.state).toBe(order.state);
  expect(after.revision).toBe(order.revision);
  expect(after.refunds).toEqual(order.refunds);
}

async function expectRefundedInFull(h: Harness, account: Account, order: Order): Promise<void> {
  expect(fen(order.refundedAmount)).toBe(fen(order.totalAmount));
  const book = await ledger(h, account);
  expect(entriesFor(book, order.clientOrderRef, 'charge').map((e) => fen(e.amount))).toEqual([fen(order.totalAmount)]);
  expect(entriesFor(book, order.clientOrderRef, 'refund').map((e) => fen(e.amount))).toEqual([fen(order.totalAmount)]);
  expect(fen(book.balance)).toBe(START_FEN);
  expect(await accountBalanceFen(h, account)).toBe(START_FEN);
}

describe('states and allowedActions, moved through the control API', () => {
  test('pending allows exactly [cancel]; verificationCode and refund are refused', async () => {
    const account = await newAccount(still, '10000');
    const order = await orderAt(account, cardPick(), []);
    expect(order.state).toBe('pending');
    expect(order.allowedActions).toEqual(['cancel']);
    expect(order.card_list).toBeNull();
    expect(order.completedAt).toBeNull();
    await expectRefusals(account, order);
  });

  test('processing allows nothing; all three actions are refused', async () => {
    const account = await newAccount(still, '10000');
    const order = await orderAt(account, cardPick(), ['processing']);
    expect(order.state).toBe('processing');
    expect(order.allowedActions).toEqual([]);
    await expectRefusals(account, order);
  });

  test('verifying allows verificationCode and cancel; refund is refused', async () => {
    const account = await newAccount(still, '10000');
    const order = await orderAt(account, verifyingTopup(), ['processing', 'verifying']);
    expect(order.state).toBe('verifying');
    expect(sorted(order.allowedActions)).toEqual(['cancel', 'verificationCode']);
    expect(typeof order.verificationHint).toBe('string');
    expect(order.verificationHint).not.toBe('');
    await expectRefusals(account, order);
  });

  test('a completed card order carries `units` cards and allows refund and aftersale', async () => {
    const account = await newAccount(still, '10000');
    const order = await orderAt(account, cardPick(), ['processing', 'completed'], 3);
    expect(order.state).toBe('completed');
    expect(sorted(order.allowedActions)).toEqual(['aftersale', 'refund']);
    expect(Number.isInteger(order.completedAt)).toBe(true);
    const cards = must(order.card_list, 'card_list');
    expect(cards).toHaveLength(3);
    for (const card of cards) {
      expect(Object.keys(card)).toEqual(expect.arrayContaining(['card_no', 'card_password', 'expiresAt']));
      expect(typeof card.card_no).toBe('string');
      expect(card.card_no.length).toBeGreaterThan(0);
      expect(typeof card.card_password).toBe('string');
      expect(card.card_password.length).toBeGreaterThan(0);
      expect(card.expiresAt === null || (Number.isInteger(card.expiresAt) && String(card.expiresAt).length === 10)).toBe(true);
    }
    expect(new Set(cards.map((c) => c.card_no)).size).toBe(3);
    // Completing charges nothing more and refunds nothing.
    const book = await ledger(still, account);
    expect(entriesFor(book, order.clientOrderRef).map((e) => e.kind)).toEqual(['charge']);
    await expectRefusals(account, order);
  });

  test('a failed order is refunded in full at once and allows only aftersale', async () => {
    const account = await newAccount(still, '10000');
    const order = await orderAt(account, cardPick(), ['processing', 'failed']);
    expect(order.state).toBe('failed');
    expect(order.allowedActions).toEqual(['aftersale']);
    expect(order.card_list).toBeNull();
    expect(typeof order.failureReason).toBe('string');
    expect(Number.isInteger(order.completedAt)).toBe(true);
    await expectRefundedInFull(still, account, order);
    await expectRefusals(account, order);
  });

  test('an order cancelled through the control API is refunded in full and allows nothing', async () => {
    const account = await newAccount(still, '10000');
    const order = await orderAt(account, cardPick(), ['cancelled']);
    expect(order.state).toBe('cancelled');
    expect(order.allowedActions).toEqual([]);
    await expectRefundedInFull(still, account, order);
    await expectRefusals(account, order);
  });

  test('the control API refuses to move an order out of a terminal state (409)', async () => {
    const account = await newAccount(still, '10000');
    const done = await orderAt(account, cardPick(), ['processing', 'completed']);
    await expect(advance(still, done.clientOrderRef, 'processing')).rejects.toThrow(/409/);
    await expect(advance(still, done.clientOrderRef, 'failed')).rejects.toThrow(/409/);
    const failed = await orderAt(account, cardPick(), ['processing', 'failed']);
    await expect(advance(still, failed.clientOrderRef, 'completed')).rejects.toThrow(/409/);
    const cancelled = await orderAt(account, cardPick(), ['cancelled']);
    await expect(advance(still, cancelled.clientOrderRef, 'processing')).rejects.toThrow(/409/);
    await expect(advance(still, done.clientOrderRef, 'refund.succeeded')).rejects.toThrow(/409/);
  });

  // docs/sandbox.md: "409 for a move the state machine does not allow"; contract §7.2 has no
  // pending → completed transition (pending → processing → completed).
  test('the control API refuses pending → completed, which skips processing', async () => {
    const account = await newAccount(still, '10000');
    const order = await orderAt(account, cardPick(), []);
    await expect(advance(still, order.clientOrderRef, 'completed')).rejects.toThrow(/409/);
  });

  test('revision increases by one with every change', async () => {
    const account = await newAccount(still, '10000');
    const created = await orderAt(account, cardPick(), []);
    const processing = await advance(still, created.clientOrderRef, 'processing');
    const completed = await advance(still, created.clientOrderRef, 'completed');
    expect([processing.revision - created.revision, completed.revision - processing.revision]).toEqual([1, 1]);
  });
});

describe('cancel (contract §7.6)', () => {
  test('pending → cancelled, refunded in full; a second attempt within 10 s is 429111, later 409102', async () => {
    const account = await newAccount(still, '10000');
    const order = await orderAt(account, cardPick(), []);
    const cancelled = ok(await cancel(still, account, order.clientOrderRef, { reason: 'changed my mind' }));
    // At once, well within the 10 s (1 s real) cooldown.
    const again = await cancel(still, account, order.clientOrderRef);
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.allowedActions).toEqual([]);
    expect(Number.isInteger(cancelled.completedAt)).toBe(true);
    await expectRefundedInFull(still, account, cancelled);

    expectError(again, 429, 429111);
    const retryAfter = Number(again.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(10);

    await sleep(sandboxSeconds(still, retryAfter));
    expectError(await cancel(still, account, order.clientOrderRef), 409, 409102);
    // Still exactly one refund.
    expect(entriesFor(await ledger(still, account), order.clientOrderRef, 'refund')).toHaveLength(1);
  });

  test('a verifying order can be cancelled and is refunded in full', async () => {
    const account = await newAccount(still, '10000');
    const order = await orderAt(account, verifyingTopup(), ['processing', 'verifying']);
    const cancelled = ok(await cancel(still, account, order.clientOrderRef));
    expect(cancelled.state).toBe('cancelled');
    await expectRefundedInFull(still, account, cancelled);
  });

  test('a reason over 200 characters is 400001 and the order stays pending', async () => {
    const account = await newAccount(still, '10000');
    const order = await orderAt(account, cardPick(), []);
    expectError(await cancel(still, account, order.clientOrderRef, { reason: 'x'.repeat(201) }), 400, 400001);
    expect((await getOrder(still, account, order.clientOrderRef)).state).toBe('pending');
    expect(entriesFor(await ledger(still, account), order.clientOrderRef, 'refund')).toEqual([]);
  });

  test('cancelling an unknown order is 404002', async () => {
    const account = await newAccount(still, '10000');
    expectError(await cancel(still, account, uid('ghost')), 404, 404002);
  });
});

describe('verification code format (contract §7.6)', () => {
  // Each attempt starts the order's 30 s cooldown, so every bad value gets its own verifying order.
  test.each([['123'], ['123456789'], ['12a4'], [''], [' 1234'], [123456]])('%j is 400001 and the order stays verifying', async (code) => {
    const account = await newAccount(still, '10000');
    const order = await orderAt(account, verifyingTopup(), ['processing', 'verifying']);
    expectError(await verify(still, account, order.clientOrderRef, code), 400, 400001);
    expect((await getOrder(still, account, order.clientOrderRef)).state).toBe('verifying');
  });

  test('a body without verificationCode is 400001', async () => {
    const account = await newAccount(still, '10000');
    const order = await orderAt(account, verifyingTopup(), ['processing', 'verifying']);
    expectError(await api(still, account, 'POST', `/orders/${order.clientOrderRef}/verification-code`, { body: {} }), 400, 400001);
  });
});

describe('orders moving by themselves (--auto-advance on)', () => {
  test("a 'succeed' card order reaches completed with its cards", async () => {
    const account = await newAccount(moving, '10000');
    const order = await place(moving, account, cardPick(), 2);
    expect(order.state).toBe('pending');
    const done = await waitForOrder(moving, account, order.clientOrderRef, (o) => o.state === 'completed');
    expect(must(done.card_list, 'card_list')).toHaveLength(2);
    expect(sorted(done.allowedActions)).toEqual(['aftersale', 'refund']);
  });

  test("a 'needsVerification' top-up reaches verifying", async () => {
    const account = await newAccount(moving, '10000');
    const order = await place(moving, account, verifyingTopup());
    const waiting = await waitForOrder(moving, account, order.clientOrderRef, (o) => o.state !== 'pending' && o.state !== 'processing');
    expect(waiting.state).toBe('verifying');
    expect(sorted(waiting.allowedActions)).toEqual(['cancel', 'verificationCode']);
    expect(typeof waiting.verificationHint).toBe('string');
  });

  test.each([
    ['card', isCard],
    ['top-up', isTopup],
  ] as const)("a 'fail' %s order reaches failed and is refunded in full", async (_kind, kind) => {
    const account = await newAccount(moving, '10000');
    const pick = catalog.find((p, v) => kind(p) && isOpen(p, v) && hasStock(v) && v.supply === 'fail', `a ${_kind} whose supply is 'fail'`);
    const order = await place(moving, account, pick);
    const failed = await waitForOrder(moving, account, order.clientOrderRef, (o) => o.state !== 'pending' && o.state !== 'processing');
    expect(failed.state).toBe('failed');
    expect(failed.allowedActions).toEqual(['aftersale']);
    await expectRefundedInFull(moving, account, failed);
  });

  test('verification: 000000 is wrong (back to verifying with a hint), a second code within 30 s is 429110, a right one completes the order', async () => {
    const account = await newAccount(moving, '10000');
    const order = await place(moving, account, verifyingTopup());
    const waiting = await waitForOrder(moving, account, order.clientOrderRef, (o) => o.state === 'verifying');

    const wrong = ok(await verify(moving, account, order.clientOrderRef, '000000'));
    expect(wrong.state).toBe('processing');
    expect(wrong.allowedActions).toEqual([]);
    const back = await waitForOrder(moving, account, order.clientOrderRef, (o) => o.state === 'verifying', 2500);
    expect(typeof back.verificationHint).toBe('string');
    expect(back.verificationHint).not.toBe(waiting.verificationHint);

    // Well within 30 sandbox seconds (3 s real) of the first submission.
    const tooSoon = await verify(moving, account, order.clientOrderRef, '123456');
    expectError(tooSoon, 429, 429110);
    const retryAfter = Number(tooSoon.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(30);
    expect((await getOrder(moving, account, order.clientOrderRef)).state).toBe('verifying');

    await sleep(sandboxSeconds(moving, retryAfter));
    const right = ok(await verify(moving, account, order.clientOrderRef, '123456'));
    expect(right.state).toBe('processing');
    const done = await waitForOrder(moving, account, order.clientOrderRef, (o) => o.state !== 'processing');
    expect(done.state).toBe('completed');
    expect(sorted(done.allowedActions)).toEqual(['aftersale', 'refund']);
    // A top-up delivers no cards.
    expect(done.card_list).toBeNull();
  });
});
