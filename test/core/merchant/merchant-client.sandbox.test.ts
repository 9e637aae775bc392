// Every method of the merchant client end to end against the real sandbox over HTTPS (its CA trusted
// on the client's own agent only), and its errors typed by code with the requestId and no credential.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MerchantApiError } from '../../../src/core/merchant/merchant-errors';
import { control } from '../../support/merchant-http';
import { startSandbox, type RunningSandbox } from '../../support/sandbox-process';
import { validEntries, type ControlProduct } from '../../support/orders-harness';
import { buildClient, countStatus, expectNoSecrets, rejectionOf, type Kit } from './client-kit';

const SCALE = 20;
const REQUEST_ID = /^req_[0-9a-f]{24}$/;

let sandbox: RunningSandbox;
let kit: Kit;
let products: ControlProduct[];

const uid = (prefix: string): string => `${prefix}-${randomBytes(6).toString('hex')}`;

function pick(what: string, predicate: (p: ControlProduct) => boolean): ControlProduct {
  const found = products.find(predicate);
  if (found === undefined) throw new Error(`the seeded catalog has no ${what}`);
  return found;
}

const cardProduct = (): ControlProduct =>
  pick('single-variant card that is supplied', (p) => {
    const v = p.variants[0];
    return p.productType === 'card' && p.availability === 'available' && p.variants.length === 1 && v !== undefined && v.availability === 'available' && v.supply === 'succeed' && (v.inventoryType === 'unlimited' || (v.remainingUnits ?? 0) > 50);
  });

function advance(ref: string, to: string): Promise<unknown> {
  return control(sandbox, 'POST', `/control/orders/${ref}/advance`, { to });
}

beforeAll(async () => {
  sandbox = await startSandbox(['--products', '60', '--auto-advance', 'off', '--time-scale', String(SCALE)]);
  kit = buildClient({ baseUrl: sandbox.baseUrl, userId: sandbox.userId, apiKey: sandbox.apiKey, ca: sandbox.ca, scale: SCALE });
  products = await control<ControlProduct[]>(sandbox, 'GET', '/control/products?limit=200');
});

afterAll(async () => {
  kit?.close();
  await sandbox?.stop();
});

describe('merchant client against the sandbox', () => {
  it('getAccount', async () => {
    const { data, requestId } = await kit.client.getAccount();
    expect(requestId).toMatch(REQUEST_ID);
    expect(data.userId).toBe(sandbox.userId);
    expect(data.contractRevision).toBe('1.0.2');
    expect(data.currency).toBe('CNY');
    expect(Number.isInteger(data.balance)).toBe(true);
  });

  it('listCategories and listCatalog with paging and the catalogRef filter', async () => {
    const categories = await kit.client.listCategories({ pageSize: 100 });
    expect(categories.data.list.length).toBe(categories.data.total);
    const pageSize = 25;
    const first = await kit.client.listCatalog({ page: 1, pageSize });
    const total = first.data.total;
    expect(total).toBeGreaterThan(pageSize);
    const seen = [...first.data.list];
    for (let page = 2; (page - 1) * pageSize < total; page++) {
      const next = await kit.client.listCatalog({ page, pageSize });
      expect(next.data.page).toBe(page);
      seen.push(...next.data.list);
    }
    const refs = seen.map((item) => item.productRef);
    expect(refs).toHaveLength(total);
    expect(new Set(refs).size).toBe(total);
    expect([...refs].sort((a, b) => a - b)).toEqual(refs);
    const past = await kit.client.listCatalog({ page: 100, pageSize });
    expect(past.data.list).toEqual([]);
    expect(past.data.total).toBe(total);

    // A leaf category holds exactly its own products; a parent includes its children's.
    const leaf = categories.data.list.find((c) => c.parentRef !== null && c.productCount > 0);
    if (leaf === undefined) throw new Error('no leaf category with products');
    const inLeaf = await kit.client.listCatalog({ catalogRef: leaf.catalogRef, pageSize: 100 });
    expect(inLeaf.data.total).toBe(leaf.productCount);
    expect(inLeaf.data.list.every((item) => item.catalogRef === leaf.catalogRef)).toBe(true);
    expect(inLeaf.data.list.map((i) => i.productRef)).toEqual(seen.filter((i) => i.catalogRef === leaf.catalogRef).map((i) => i.productRef));
    const parentRef = leaf.parentRef ?? 0;
    const children = new Set(categories.data.list.filter((c) => c.parentRef === parentRef).map((c) => c.catalogRef));
    const inParent = await kit.client.listCatalog({ catalogRef: parentRef, pageSize: 100 });
    expect(inParent.data.list.length).toBeGreaterThanOrEqual(inLeaf.data.list.length);
    expect(inParent.data.list.every((item) => children.has(item.catalogRef) || item.catalogRef === parentRef)).toBe(true);
  });

  it('getProduct: prices in fen, as the control view says in yuan', async () => {
    const multi = pick('multi-variant product', (p) => p.variants.length > 1 && p.availability === 'available');
    const { data } = await kit.client.getProduct(multi.productRef);
    expect(data.productRef).toBe(multi.productRef);
    expect(data.variants.map((v) => v.variantRef)).toEqual(multi.variants.map((v) => v.variantRef));
    expect(data.variants.map((v) => v.price)).toEqual(multi.variants.map((v) => Math.round(Number(v.price) * 100)));
  });

  it('getTemplate for a single-variant and a multi-variant product', async () => {
    const single = pick('single-variant top-up', (p) => p.productType === 'topup' && p.variants.length === 1);
    const one = await kit.client.getTemplate(single.productRef, null);
    expect(one.data.productRef).toBe(single.productRef);
    expect(one.data.variantRef).toBe(0);
    expect(one.data.entryMode).toBe(single.variants[0]?.entryMode);
    expect(one.data.purchaseFields.length).toBeGreaterThan(0);

    const multi = pick('multi-variant top-up', (p) => p.productType === 'topup' && p.variants.length > 1);
    const variant = multi.variants[1];
    if (variant === undefined) throw new Error('no second variant');
    const two = await kit.client.getTemplate(multi.productRef, variant.variantRef);
    expect(two.data.variantRef).toBe(variant.variantRef);
    expect(two.data.purchaseSchemaRevision).toBe(variant.purchaseSchemaRevision);
    expect(two.data.unitRule.min).toBeGreaterThanOrEqual(1);

    const card = await kit.client.getTemplate(cardProduct().productRef, 0);
    expect(card.data.entryMode).toBe('none');
  });

  it('changeSubscriptions subscribes and unsubscribes, visible in the catalog filter', async () => {
    const refs = products.slice(0, 2).map((p) => p.productRef);
    const on = await kit.client.changeSubscriptions({ productRefs: refs, subscriptionState: 'subscribed' });
    expect(on.data.list.map((s) => [s.productRef, s.subscriptionState])).toEqual(refs.map((r) => [r, 'subscribed']));
    expect(on.data.list.every((s) => s.subscriptionExpiresAt !== null)).toBe(true);
    const subscribed = await kit.client.listCatalog({ subscriptionState: 'subscribed', pageSize: 100 });
    expect(subscribed.data.list.map((i) => i.productRef)).toEqual(expect.arrayContaining(refs));
    const off = await kit.client.changeSubscriptions({ productRefs: refs, subscriptionState: 'unsubscribed' });
    expect(off.data.list.every((s) => s.subscriptionState === 'unsubscribed')).toBe(true);
  });

  it('createOrder (card), an idempotent retry returns the same order and charges once; list, get, cancel', async () => {
    const card = cardProduct();
    const before = (await kit.client.getAccount()).data.balance;
    const ref = uid('ord-card');
    const body = { clientOrderRef: ref, productRef: card.productRef, units: 2 };
    const created = await kit.client.createOrder(body);
    expect(created.data.state).toBe('pending');
    expect(created.data.allowedActions).toEqual(['cancel']);
    const unitFen = Math.round(Number(card.variants[0]?.price) * 100);
    expect(created.data.unitPrice).toBe(unitFen);
    expect(created.data.totalAmount).toBe(2 * unitFen);

    const again = await kit.client.createOrder(body);
    expect(again.data.platformOrderRef).toBe(created.data.platformOrderRef);
    expect(again.requestId).not.toBe(created.requestId);
    const ledger = await control<{ entries: { kind: string; clientOrderRef: string }[] }>(sandbox, 'GET', `/control/ledger/${sandbox.userId}`);
    expect(ledger.entries.filter((e) => e.clientOrderRef === ref && e.kind === 'charge')).toHaveLength(1);
    expect((await kit.client.getAccount()).data.balance).toBe(before - 2 * unitFen);

    const list = await kit.client.listOrders({ pageSize: 100 });
    expect(list.data.list.find((o) => o.clientOrderRef === ref)?.card_list).toBeNull();
    const filtered = await kit.client.listOrders({ state: 'pending', productRef: card.productRef });
    expect(filtered.data.list.map((o) => o.clientOrderRef)).toContain(ref);
    const got = await kit.client.getOrder(ref);
    expect(got.data.platformOrderRef).toBe(created.data.platformOrderRef);

    const cancelled = await kit.client.cancelOrder(ref, 'bought by mistake');
    expect(cancelled.data.state).toBe('cancelled');
    expect(cancelled.data.refundedAmount).toBe(cancelled.data.totalAmount);
    expect(cancelled.data.allowedActions).toEqual([]);
  });

  it('submitVerificationCode on a top-up that needs verification', async () => {
    const topup = pick('single-variant top-up that needs verification', (p) => p.productType === 'topup' && p.variants.length === 1 && p.variants[0]?.supply === 'needsVerification');
    const tpl = (await kit.client.getTemplate(topup.productRef, null)).data;
    const ref = uid('ord-otp');
    const units = tpl.unitRule.min;
    const created = await kit.client.createOrder({ clientOrderRef: ref, productRef: topup.productRef, units, purchaseSchemaRevision: tpl.purchaseSchemaRevision, purchaseEntries: validEntries(tpl, units) });
    expect(created.data.entryCount).toBe(tpl.entryMode === 'perUnit' ? units : 1);
    await advance(ref, 'processing');
    await advance(ref, 'verifying');
    const verifying = await kit.client.getOrder(ref);
    expect(verifying.data.state).toBe('verifying');
    expect(verifying.data.allowedActions).toContain('verificationCode');
    expect(verifying.data.verificationHint).not.toBeNull();
    const after = await kit.client.submitVerificationCode(ref, '246810');
    expect(after.data.state).toBe('processing');
  });

  it('requestRefund sends amountFen as yuan; after-sales create, get, message (idempotent)', async () => {
    const card = cardProduct();
    const ref = uid('ord-refund');
    await kit.client.createOrder({ clientOrderRef: ref, productRef: card.productRef, units: 1 });
    await advance(ref, 'processing');
    await advance(ref, 'completed');
    const completed = await kit.client.getOrder(ref);
    expect(completed.data.state).toBe('completed');
    expect(completed.data.card_list?.length).toBe(1);
    expect(completed.data.allowedActions).toEqual(expect.arrayContaining(['refund', 'aftersale']));

    const refunded = await kit.client.requestRefund(ref, { clientRefundRef: uid('rf'), amountFen: 1, reason: 'one fen back' });
    expect(refunded.data.refunds).toHaveLength(1);
    expect(refunded.data.refunds[0]?.amount).toBe(1);
    expect(refunded.data.refunds[0]?.state).toBe('pending');
    await advance(ref, 'refund.succeeded');
    const ledger = await control<{ entries: { kind: string; clientOrderRef: string; amount: string | number }[] }>(sandbox, 'GET', `/control/ledger/${sandbox.userId}`);
    const back = ledger.entries.filter((e) => e.clientOrderRef === ref && e.kind === 'refund');
    expect(back.map((e) => Number(e.amount))).toEqual([0.01]);
    expect((await kit.client.getOrder(ref)).data.refundedAmount).toBe(1);

    const caseBody = { clientOrderRef: ref, category: 'cardInvalid', description: 'The card says it was already used.' };
    const opened = await kit.client.createAftersale(caseBody);
    expect(opened.data.state).toBe('open');
    expect(opened.data.allowedActions).toContain('message');
    const sameCase = await kit.client.createAftersale(caseBody);
    expect(sameCase.data.platformCaseRef).toBe(opened.data.platformCaseRef);
    const messageRef = uid('msg');
    const message = await kit.client.postAftersaleMessage(opened.data.platformCaseRef, { clientMessageRef: messageRef, text: 'Any news?' });
    expect(message.data.sender).toBe('buyer');
    const repeated = await kit.client.postAftersaleMessage(opened.data.platformCaseRef, { clientMessageRef: messageRef, text: 'Any news?' });
    expect(repeated.data.messageRef).toBe(message.data.messageRef);
    const shown = await kit.client.getAftersale(opened.data.platformCaseRef);
    expect(shown.data.messages.map((m) => m.clientMessageRef)).toEqual([messageRef]);
  });
});

describe('errors typed by code, with requestId, without credentials', () => {
  async function apiError(call: () => Promise<unknown>, status: number, code: number, secrets: string[]): Promise<MerchantApiError> {
    const error = await rejectionOf(call());
    expect(error).toBeInstanceOf(MerchantApiError);
    if (!(error instanceof MerchantApiError)) throw new Error('unreachable');
    expect([error.httpStatus, error.code]).toEqual([status, code]);
    expect(error.requestId).toMatch(REQUEST_ID);
    expectNoSecrets(error, secrets);
    return error;
  }

  it('a wrong key is 401001 (not retried), the key nowhere in the error', async () => {
    const wrongKey = `AK_${randomBytes(16).toString('hex')}`;
    const wrong = buildClient({ baseUrl: sandbox.baseUrl, userId: sandbox.userId, apiKey: wrongKey, ca: sandbox.ca, scale: SCALE });
    try {
      const error = await apiError(() => wrong.client.getAccount(), 401, 401001, [wrongKey, sandbox.apiKey]);
      expect(error.errorName).toBe('INVALID_CREDENTIAL');
      expect(wrong.exchanges).toHaveLength(1);
    } finally {
      wrong.close();
    }
  });

  it('unknown order 404002, unknown product 404001, unknown case 404003', async () => {
    const secrets = [sandbox.apiKey];
    await apiError(() => kit.client.getOrder(uid('nope')), 404, 404002, secrets);
    await apiError(() => kit.client.getProduct(999_999), 404, 404001, secrets);
    await apiError(() => kit.client.getAftersale('999999999'), 404, 404003, secrets);
  });

  it('business errors: 422103 balance, 409001 idempotency conflict, 409102 cancel not allowed, 400001 bad paging', async () => {
    const poor = await control<{ userId: string; apiKey: string }>(sandbox, 'POST', '/control/accounts', { balance: '1' });
    const poorKit = buildClient({ baseUrl: sandbox.baseUrl, userId: poor.userId, apiKey: poor.apiKey, ca: sandbox.ca, scale: SCALE });
    const card = cardProduct();
    try {
      await apiError(() => poorKit.client.createOrder({ clientOrderRef: uid('ord-poor'), productRef: card.productRef, units: 1 }), 422, 422103, [poor.apiKey]);
    } finally {
      poorKit.close();
    }
    const ref = uid('ord-conflict');
    await kit.client.createOrder({ clientOrderRef: ref, productRef: card.productRef, units: 1 });
    await apiError(() => kit.client.createOrder({ clientOrderRef: ref, productRef: card.productRef, units: 2 }), 409, 409001, [sandbox.apiKey]);
    await advance(ref, 'processing');
    await apiError(() => kit.client.cancelOrder(ref), 409, 409102, [sandbox.apiKey]);
    await apiError(() => kit.client.listOrders({ pageSize: 1000 }), 400, 400001, [sandbox.apiKey]);
  });

  it('no 429 was received over this whole file', () => {
    expect(countStatus(kit.exchanges, 429)).toBe(0);
  });
});
