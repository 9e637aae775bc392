// The merchant's replies, against the sandbox over HTTPS with SQLite on disk:
// - with webhooks (webhook service, loopback tunnel): aftersale.message.created stores the reply
//   (through the authenticated GET of the inbox processor), it counts as unread on the case and its
//   order, and one 'aftersaleReply' notification is raised. The same event delivered again, the same
//   message under a new eventId, and a refresh (webhook + poll) add nothing and notify nothing;
//   reading the case clears the count; the next reply is unread and notified again;
// - without webhooks: low-frequency polling of the open case brings the reply by itself (never
//   faster than the policy's 15 s, in core time), once; polling stops when the case is resolved.
import type { Database } from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationView } from '../../../src/shared/ipc/views/notifications';
import { post } from '../webhooks/webhook-kit';
import { Catalog, must } from '../../support/orders-harness';
import {
  createAftersaleKit,
  expectCleanRun,
  isGetCase,
  merchantApi,
  merchantReplies,
  startMerchant,
  waitFor,
  type AftersaleKit,
  type Merchant,
} from './aftersale-kit';

const SCALE = 50;
let merchant: Merchant;
let catalog: Catalog;

beforeAll(async () => {
  merchant = await startMerchant({ timeScale: SCALE, autoAdvance: false });
  catalog = new Catalog(await merchant.products());
}, 90_000);

afterAll(async () => {
  await merchant?.stop();
});

const repliesFor = (kit: AftersaleKit, caseRef: string): NotificationView[] =>
  kit.notifications().filter((n) => n.kind === 'aftersaleReply' && n.platformCaseRef === caseRef);

const merchantMessages = async (kit: AftersaleKit, caseRef: string): Promise<string[]> =>
  (await kit.ok('aftersales.get', { platformCaseRef: caseRef })).messages.filter((m) => m.sender === 'merchant').map((m) => m.text);

interface InboxRow {
  event_id: string;
  body_json: string;
  outcome: string | null;
}

const inboxFor = (db: Database, caseRef: string): InboxRow[] =>
  db
    .prepare<[string], InboxRow>(
      "SELECT event_id, body_json, outcome FROM webhook_inbox WHERE event_type = 'aftersale.message.created' AND json_extract(body_json, '$.platformCaseRef') = ? ORDER BY received_at, rowid",
    )
    .all(caseRef);

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('merchant replies by webhook', () => {
  let kit: AftersaleKit;
  beforeAll(async () => {
    kit = await createAftersaleKit(merchant, { scale: SCALE, webhooks: true });
  }, 60_000);
  afterAll(async () => kit?.close());

  it('stores a reply once, counts it unread on the case and its order, and notifies once, whatever brings it again', async () => {
    const order = await kit.completedCardOrder(catalog);
    // The order carries the receiver's URL, so its case's messages come to it (contract §10.4).
    const atMerchant = await merchantApi<{ orderCallbackUrl: string | null }>(kit, 'GET', `/orders/${order}`);
    const callbackUrl = must(atMerchant.orderCallbackUrl, 'the order callback URL');
    const caseRef = (await kit.ok('aftersales.open', { clientOrderRef: order, category: 'cardInvalid', description: '卡密无效', images: [] })).platformCaseRef;

    await merchantReplies(kit, caseRef, '您好，请提供截图');
    await waitFor('the reply', async () => ((await merchantMessages(kit, caseRef)).length === 1 ? true : null));
    const [event] = inboxFor(kit.core.db, caseRef);
    expect(must(event, 'the webhook').outcome).toMatch(/^stored case .* 1 new messages \(from GET \/aftersales\)$/);
    await waitFor('the notification', () => repliesFor(kit, caseRef).length === 1);
    expect(repliesFor(kit, caseRef)[0]).toMatchObject({ title: 'The merchant replied', clientOrderRef: order });
    expect(repliesFor(kit, caseRef)[0]?.body).toContain('“您好，请提供截图”');
    const row = must((await kit.ok('aftersales.list', { unreadOnly: true })).find((r) => r.platformCaseRef === caseRef), 'an unread case');
    expect(row).toMatchObject({ unread: 1, state: 'replied', lastMessagePreview: '您好，请提供截图' });
    expect((await kit.ok('aftersales.unread')).byOrder).toContainEqual({ clientOrderRef: order, platformCaseRef: caseRef, unread: 1 });
    await waitFor('aftersales.changed', () => kit.events.some((e) => e.event === 'aftersales.changed' && (e.payload as { platformCaseRefs: string[] }).platformCaseRefs.includes(caseRef)));

    // The same event again (the merchant's retry): answered, not stored twice.
    const body = JSON.parse(must(event, 'event').body_json) as Record<string, unknown>;
    expect((await post(callbackUrl, body)).status).toBe(200);
    // The same message under another eventId: processed, nothing new.
    expect((await post(callbackUrl, { ...body, eventId: `${String(body.eventId)}-again` })).status).toBe(200);
    await waitFor('the second event processed', () => inboxFor(kit.core.db, caseRef).filter((r) => r.outcome !== null).length === 2);
    expect(inboxFor(kit.core.db, caseRef)[1]?.outcome).toMatch(/ 0 new messages/);
    // And a poll (the buyer's refresh) brings it too.
    await kit.ok('aftersales.refresh', { platformCaseRef: caseRef });
    await settle(400);
    expect(await merchantMessages(kit, caseRef)).toEqual(['您好，请提供截图']);
    expect(repliesFor(kit, caseRef)).toHaveLength(1);
    expect((await kit.ok('aftersales.get', { platformCaseRef: caseRef })).unread).toBe(1);

    // The buyer reads it: nothing unread, on the case or its order.
    const read = await kit.ok('aftersales.markRead', { platformCaseRef: caseRef });
    expect(read.unread).toBe(0);
    expect((await kit.ok('aftersales.unread')).byOrder).toContainEqual({ clientOrderRef: order, platformCaseRef: caseRef, unread: 0 });
    expect(await kit.ok('aftersales.list', { unreadOnly: true })).toEqual([]);

    // The next reply is new: unread and notified again, once.
    await merchantReplies(kit, caseRef, '已补发新卡密');
    await waitFor('the second notification', () => repliesFor(kit, caseRef).length === 2);
    expect((await kit.ok('aftersales.get', { platformCaseRef: caseRef })).unread).toBe(1);
    await settle(400);
    expect(repliesFor(kit, caseRef)).toHaveLength(2);
    expect(await merchantMessages(kit, caseRef)).toEqual(['您好，请提供截图', '已补发新卡密']);
  });

  it('does not notify again after a restart: the notified position is stored, the reply stays unread', async () => {
    const order = await kit.completedCardOrder(catalog);
    const caseRef = (await kit.ok('aftersales.open', { clientOrderRef: order, category: 'other', description: '重启之后', images: [] })).platformCaseRef;
    await merchantReplies(kit, caseRef, '收到');
    await waitFor('the notification', () => repliesFor(kit, caseRef).length === 1);
    await kit.restart();
    await settle(500);
    expect(repliesFor(kit, caseRef)).toHaveLength(1);
    expect((await kit.ok('aftersales.get', { platformCaseRef: caseRef })).unread).toBe(1);
    expectCleanRun(kit);
  });
});

describe('merchant replies without webhooks', () => {
  let kit: AftersaleKit;
  beforeAll(async () => {
    kit = await createAftersaleKit(merchant, { scale: SCALE });
  }, 60_000);
  afterAll(async () => kit?.close());

  it('polls the open case at low frequency, brings each reply once, and stops when the case is resolved', async () => {
    const order = await kit.completedCardOrder(catalog);
    const caseRef = (await kit.ok('aftersales.open', { clientOrderRef: order, category: 'cardUsed', description: '卡密已被使用', images: [] })).platformCaseRef;
    await merchantReplies(kit, caseRef, '正在核实');
    // Nobody asks: the poll brings it.
    await waitFor('the reply by polling', async () => ((await merchantMessages(kit, caseRef)).length === 1 ? true : null), 15_000);
    await waitFor('the notification', () => repliesFor(kit, caseRef).length === 1);
    expect((await kit.ok('aftersales.get', { platformCaseRef: caseRef })).unread).toBe(1);
    await merchantReplies(kit, caseRef, '已退款，工单结束', 'resolved');
    await kit.caseWhen(caseRef, 'the resolved state by polling', (d) => d.state === 'resolved' && d.unread === 2, 20_000);
    await waitFor('the second notification', () => repliesFor(kit, caseRef).length === 2);

    const polls = kit.requests.filter((r) => isGetCase(r) && r.path === `/aftersales/${caseRef}`);
    expect(polls.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < polls.length; i++) {
      const gap = (polls[i]?.at ?? 0) - (polls[i - 1]?.at ?? 0);
      expect(gap, `poll ${i} came ${gap} ms (core clock) after the one before`).toBeGreaterThanOrEqual(14_000);
    }
    // Resolved: no more polls.
    const count = polls.length;
    await settle(2_500);
    expect(kit.requests.filter((r) => isGetCase(r) && r.path === `/aftersales/${caseRef}`)).toHaveLength(count);
    expect(await kit.ok('aftersales.list', { state: 'done' })).toEqual([expect.objectContaining({ platformCaseRef: caseRef, state: 'resolved', unread: 2 })]);
    expect(await kit.ok('aftersales.list', { state: 'active' })).toEqual([]);
    await kit.ok('aftersales.markRead', { platformCaseRef: caseRef });
    expect((await kit.ok('aftersales.unread')).total).toBe(0);
    expect(repliesFor(kit, caseRef)).toHaveLength(2);
    expectCleanRun(kit);
  });
});
