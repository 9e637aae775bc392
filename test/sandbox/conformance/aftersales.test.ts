// After-sales cases (contract §9, interface v1 §7.4): opening a case from an order that allows it, field
// validation (400001 / 422112), one open case per order, messages idempotent by clientMessageRef,
// merchant replies (control API) with aftersale.message.created to the order's callback address,
// closed cases and unknown cases. Orders are moved by the control API (--auto-advance off).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ApiResponse } from '../../support/merchant-http';
import { control } from '../../support/merchant-http';
import { startWebhookReceiver, type ReceivedHook, type WebhookReceiver } from '../../support/webhook-receiver';
import {
  Catalog,
  advance,
  api,
  controlProducts,
  createOrder,
  expectError,
  getOrder,
  goodCard,
  launch,
  must,
  newAccount,
  ok,
  orderBody,
  sleep,
  sorted,
  template,
  uid,
  type Account,
  type Harness,
  type Order,
} from '../../support/orders-harness';

const TIME_SCALE = 10;

interface CaseMessage {
  messageRef: string;
  clientMessageRef: string | null;
  sender: string;
  text: string;
  images: string[];
  createdAt: number;
}

interface AftersaleCase {
  platformCaseRef: string;
  clientOrderRef: string;
  platformOrderRef: string;
  category: string;
  description: string;
  images: string[];
  state: string;
  allowedActions: string[];
  createdAt: number;
  updatedAt: number;
  messages: CaseMessage[];
}

let h: Harness;
let catalog: Catalog;
let hooks: WebhookReceiver;

beforeAll(async () => {
  [h, hooks] = await Promise.all([launch(['--auto-advance', 'off'], TIME_SCALE), startWebhookReceiver()]);
  catalog = new Catalog(await controlProducts(h));
});

afterAll(async () => {
  await Promise.all([h?.sandbox.stop(), hooks?.close()]);
});

async function orderAt(account: Account, path: string[], extra: Record<string, unknown> = {}): Promise<Order> {
  const pick = catalog.find(goodCard, 'an orderable card');
  const tpl = await template(h, account, pick);
  const order = ok(await createOrder(h, account, { ...orderBody(pick, tpl, uid('as')), ...extra }));
  for (const to of path) await advance(h, order.clientOrderRef, to);
  return getOrder(h, account, order.clientOrderRef);
}

const COMPLETED = ['processing', 'completed'];

function openCase(account: Account, body: Record<string, unknown>): Promise<ApiResponse<AftersaleCase>> {
  return api<AftersaleCase>(h, account, 'POST', '/aftersales', { body });
}
function caseDetail(account: Account, ref: string): Promise<ApiResponse<AftersaleCase>> {
  return api<AftersaleCase>(h, account, 'GET', `/aftersales/${ref}`);
}
function sendMessage(account: Account, ref: string, body: Record<string, unknown>): Promise<ApiResponse<CaseMessage>> {
  return api<CaseMessage>(h, account, 'POST', `/aftersales/${ref}/messages`, { body });
}
function reply(ref: string, body: Record<string, unknown>): Promise<CaseMessage> {
  return control<CaseMessage>(h.sandbox, 'POST', `/control/aftersales/${ref}/reply`, body);
}

const img = (n: number): string => `https://img.example.com/evidence/${n}.png`;

describe('opening a case: validation', () => {
  const invalid: [string, Record<string, unknown>][] = [
    ['an empty description', { category: 'cardInvalid', description: '' }],
    ['a blank description', { category: 'cardInvalid', description: '   ' }],
    ['a description of 501 characters', { category: 'cardInvalid', description: 'x'.repeat(501) }],
    ['six images', { category: 'cardInvalid', description: 'bad card', images: [1, 2, 3, 4, 5, 6].map(img) }],
    ['an unknown category', { category: 'bogus', description: 'bad card' }],
    ['a missing category', { description: 'bad card' }],
    ['images not an array', { category: 'other', description: 'bad card', images: img(1) }],
  ];

  test.each(invalid)('%s is 400001', async (_name, fields) => {
    const account = await newAccount(h);
    const order = await orderAt(account, COMPLETED);
    expectError(await openCase(account, { clientOrderRef: order.clientOrderRef, ...fields }), 400, 400001);
    // Nothing was opened: the order still allows a case.
    expect((await getOrder(h, account, order.clientOrderRef)).allowedActions).toContain('aftersale');
  });

  test.each([['http://img.example.com/1.png'], ['https://192.168.1.20/1.png'], ['https://img.example.com/1.txt']])('image %s is 422112', async (bad) => {
    const account = await newAccount(h);
    const order = await orderAt(account, COMPLETED);
    expectError(await openCase(account, { clientOrderRef: order.clientOrderRef, category: 'cardInvalid', description: 'bad card', images: [img(1), bad] }), 422, 422112);
    expect((await getOrder(h, account, order.clientOrderRef)).allowedActions).toContain('aftersale');
  });

  test('500 characters and 5 images are accepted', async () => {
    const account = await newAccount(h);
    const order = await orderAt(account, COMPLETED);
    const images = [1, 2, 3, 4, 5].map(img);
    const opened = ok(await openCase(account, { clientOrderRef: order.clientOrderRef, category: 'other', description: 'y'.repeat(500), images }));
    expect(opened.description).toBe('y'.repeat(500));
    expect(opened.images).toEqual(images);
  });

  test.each([['cardInvalid'], ['cardUsed'], ['notReceived'], ['wrongAmount'], ['other']])('category %s is accepted', async (category) => {
    const account = await newAccount(h);
    const order = await orderAt(account, COMPLETED);
    expect(ok(await openCase(account, { clientOrderRef: order.clientOrderRef, category, description: 'problem' })).category).toBe(category);
  });
});

describe('which orders can open a case', () => {
  test.each([
    ['pending', []],
    ['processing', ['processing']],
    ['cancelled', ['cancelled']],
  ])('a %s order (no aftersale in allowedActions) is 409104', async (_state, path) => {
    const account = await newAccount(h);
    const order = await orderAt(account, path);
    expect(order.allowedActions).not.toContain('aftersale');
    expectError(await openCase(account, { clientOrderRef: order.clientOrderRef, category: 'other', description: 'where is it' }), 409, 409104);
  });

  test('a failed order can open a case', async () => {
    const account = await newAccount(h);
    const order = await orderAt(account, ['processing', 'failed']);
    expect(ok(await openCase(account, { clientOrderRef: order.clientOrderRef, category: 'notReceived', description: 'failed, please check' })).state).toBe('open');
  });

  test('an unknown order is 404002', async () => {
    const account = await newAccount(h);
    expectError(await openCase(account, { clientOrderRef: uid('ghost'), category: 'other', description: 'x' }), 404, 404002);
  });
});

describe('a case from open to closed', () => {
  test('create, safe retry, detail, idempotent messages, merchant reply with webhook, close', async () => {
    const account = await newAccount(h);
    const order = await orderAt(account, COMPLETED, { orderCallbackUrl: hooks.url });
    const request = { clientOrderRef: order.clientOrderRef, category: 'cardInvalid', description: '卡密提示无效', images: [img(1)] };

    // Open.
    const opened = ok(await openCase(account, request));
    expect(opened).toMatchObject({
      clientOrderRef: order.clientOrderRef,
      platformOrderRef: order.platformOrderRef,
      category: 'cardInvalid',
      description: '卡密提示无效',
      images: [img(1)],
      state: 'open',
      allowedActions: ['message'],
    });
    expect(typeof opened.platformCaseRef).toBe('string');
    expect(Number.isInteger(opened.createdAt)).toBe(true);
    expect(Array.isArray(opened.messages)).toBe(true);
    // While the case is open the order offers no second one.
    expect(sorted((await getOrder(h, account, order.clientOrderRef)).allowedActions)).toEqual(['refund']);

    // The same create while open returns the same case; a different one is 409104.
    expect(ok(await openCase(account, request)).platformCaseRef).toBe(opened.platformCaseRef);
    expectError(await openCase(account, { ...request, description: 'another problem' }), 409, 409104);
    expectError(await openCase(account, { ...request, category: 'cardUsed' }), 409, 409104);

    // Detail.
    const detail = ok(await caseDetail(account, opened.platformCaseRef));
    expect(detail).toMatchObject({ platformCaseRef: opened.platformCaseRef, state: 'open', allowedActions: ['message'], category: 'cardInvalid' });
    const initialMessages = detail.messages.length;

    // Messages are idempotent by clientMessageRef.
    const m1 = { clientMessageRef: uid('m1'), text: '截图见附件', images: [img(2)] };
    const first = ok(await sendMessage(account, opened.platformCaseRef, m1));
    expect(first).toMatchObject({ clientMessageRef: m1.clientMessageRef, sender: 'buyer', text: m1.text, images: m1.images });
    const again = ok(await sendMessage(account, opened.platformCaseRef, m1));
    expect(again.messageRef).toBe(first.messageRef);
    expectError(await sendMessage(account, opened.platformCaseRef, { ...m1, text: 'different text' }), 409, 409001);
    expectError(await sendMessage(account, opened.platformCaseRef, { ...m1, images: [] }), 409, 409001);
    const afterBuyer = ok(await caseDetail(account, opened.platformCaseRef));
    expect(afterBuyer.messages).toHaveLength(initialMessages + 1);
    expect(afterBuyer.messages.filter((m) => m.clientMessageRef === m1.clientMessageRef)).toHaveLength(1);

    // A buyer's message sends no webhook; the merchant's reply does, to the order's address.
    const merchantText = '已为您补发，请查收';
    const merchantMessage = await reply(opened.platformCaseRef, { text: merchantText });
    expect(merchantMessage).toMatchObject({ sender: 'merchant', clientMessageRef: null, text: merchantText });
    await hooks.waitFor((all) => forCase(all, opened.platformCaseRef).length >= 1, 5000);
    const replied = ok(await caseDetail(account, opened.platformCaseRef));
    expect(replied.state).toBe('replied');
    expect(replied.messages.map((m) => m.sender).slice(-2)).toEqual(['buyer', 'merchant']);
    const last = must(replied.messages.at(-1), 'merchant message');
    expect(last).toMatchObject({ text: merchantText, clientMessageRef: null, sender: 'merchant' });

    const webhook = must(forCase(hooks.received, opened.platformCaseRef)[0]?.json, 'aftersale.message.created');
    expect(webhook).toMatchObject({
      eventType: 'aftersale.message.created',
      platformCaseRef: opened.platformCaseRef,
      clientOrderRef: order.clientOrderRef,
      caseState: 'replied',
      message: { messageRef: last.messageRef, sender: 'merchant', text: merchantText, clientMessageRef: null },
    });
    expect(typeof webhook.eventId).toBe('string');
    expect(String(webhook.occurredAt)).toMatch(/^\d{10}$/);
    expect(forCase(hooks.received, opened.platformCaseRef).every((hook) => (hook.json?.message as CaseMessage | undefined)?.sender === 'merchant')).toBe(true);

    // The buyer can still write to a replied case.
    ok(await sendMessage(account, opened.platformCaseRef, { clientMessageRef: uid('m2'), text: '收到，谢谢' }));

    // Closing: the case takes no more messages; the order may open a new one.
    await reply(opened.platformCaseRef, { text: '问题已处理，关闭工单', state: 'closed' });
    await hooks.waitFor((all) => forCase(all, opened.platformCaseRef).length >= 2, 5000);
    const closed = ok(await caseDetail(account, opened.platformCaseRef));
    expect(closed.state).toBe('closed');
    expect(closed.allowedActions).toEqual([]);
    expect(forCase(hooks.received, opened.platformCaseRef).map((hook) => hook.json?.caseState)).toEqual(['replied', 'closed']);
    expectError(await sendMessage(account, opened.platformCaseRef, { clientMessageRef: uid('m3'), text: 'one more thing' }), 409, 409104);
    expect(sorted((await getOrder(h, account, order.clientOrderRef)).allowedActions)).toEqual(['aftersale', 'refund']);
    const next = ok(await openCase(account, { ...request, description: 'a new problem' }));
    expect(next.platformCaseRef).not.toBe(opened.platformCaseRef);
  });

  test('a resolved case also frees the order for a new case', async () => {
    const account = await newAccount(h);
    const order = await orderAt(account, COMPLETED);
    const opened = ok(await openCase(account, { clientOrderRef: order.clientOrderRef, category: 'other', description: 'question' }));
    await reply(opened.platformCaseRef, { text: 'answered', state: 'resolved' });
    expect(ok(await caseDetail(account, opened.platformCaseRef)).state).toBe('resolved');
    expect((await getOrder(h, account, order.clientOrderRef)).allowedActions).toContain('aftersale');
  });
});

describe('messages: validation and unknown cases', () => {
  async function freshCase(account: Account): Promise<AftersaleCase> {
    const order = await orderAt(account, COMPLETED);
    return ok(await openCase(account, { clientOrderRef: order.clientOrderRef, category: 'other', description: 'problem' }));
  }

  test('text or at least one image is needed; bounds are 1000 characters and 5 images', async () => {
    const account = await newAccount(h);
    const opened = await freshCase(account);
    const ref = opened.platformCaseRef;
    expectError(await sendMessage(account, ref, { clientMessageRef: uid('e'), text: '' }), 400, 400001);
    expectError(await sendMessage(account, ref, { clientMessageRef: uid('e'), text: 'x'.repeat(1001) }), 400, 400001);
    expectError(await sendMessage(account, ref, { clientMessageRef: uid('e'), text: 'x', images: [1, 2, 3, 4, 5, 6].map(img) }), 400, 400001);
    expectError(await sendMessage(account, ref, { text: 'no ref' }), 400, 400001);
    expectError(await sendMessage(account, ref, { clientMessageRef: 'bad ref!', text: 'x' }), 400, 400001);
    expectError(await sendMessage(account, ref, { clientMessageRef: uid('e'), text: 'x', images: ['http://img.example.com/1.png'] }), 422, 422112);
    ok(await sendMessage(account, ref, { clientMessageRef: uid('ok'), text: 'x'.repeat(1000) }));
    ok(await sendMessage(account, ref, { clientMessageRef: uid('ok'), text: '', images: [img(9)] }));
    const detail = ok(await caseDetail(account, ref));
    expect(detail.messages.filter((m) => m.sender === 'buyer')).toHaveLength(2);
  });

  test('an unknown case is 404003 for detail and messages', async () => {
    const account = await newAccount(h);
    expectError(await caseDetail(account, '999999999'), 404, 404003);
    expectError(await sendMessage(account, '999999999', { clientMessageRef: uid('x'), text: 'hello' }), 404, 404003);
  });

  test("another account's case is 404003", async () => {
    const owner = await newAccount(h);
    const stranger = await newAccount(h);
    const opened = await freshCase(owner);
    expectError(await caseDetail(stranger, opened.platformCaseRef), 404, 404003);
    expectError(await sendMessage(stranger, opened.platformCaseRef, { clientMessageRef: uid('x'), text: 'hello' }), 404, 404003);
  });

  test('buyer messages send no webhook', async () => {
    const account = await newAccount(h);
    const order = await orderAt(account, COMPLETED, { orderCallbackUrl: hooks.url });
    const opened = ok(await openCase(account, { clientOrderRef: order.clientOrderRef, category: 'other', description: 'problem' }));
    ok(await sendMessage(account, opened.platformCaseRef, { clientMessageRef: uid('b'), text: 'hello' }));
    await sleep(400);
    expect(forCase(hooks.received, opened.platformCaseRef)).toEqual([]);
  });
});

function forCase(all: ReceivedHook[], platformCaseRef: string): ReceivedHook[] {
  return all.filter((hook) => hook.json?.eventType === 'aftersale.message.created' && hook.json.platformCaseRef === platformCaseRef);
}
