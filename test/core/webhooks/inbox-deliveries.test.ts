// The receiver and the inbox processor against a real sandbox: the sandbox delivers all four event
// kinds to the receiver's loopback URL (orders carrying orderCallbackUrl, a subscription with
// callbackUrl), each is processed once from the inbox, and only what the merchant confirms over
// authenticated HTTPS is recorded. Duplicates, out-of-order snapshots and forged events are posted by
// the test itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getStoredOrder } from '../../../src/core/orders/order-store';
import { countCards } from '../../../src/core/vault/card-store';
import { control } from '../../support/merchant-http';
import {
  Catalog, changeProduct, controlProducts, deliveries, hasStock, isCard, isOpen, launch, must, uid, type Harness,
} from '../../support/orders-harness';
import { waitUntil } from '../orders/orders-kit';
import { createEventsKit, inboxCount, placeCardOrder, post, type EventsKit, type Processed } from './webhook-kit';

const SCALE = 10;
let h: Harness;
let kit: EventsKit;
let catalog: Catalog;

beforeAll(async () => {
  h = await launch([], SCALE);
  kit = await createEventsKit(h, { scale: SCALE });
  catalog = new Catalog(await controlProducts(h));
});

afterAll(async () => {
  await kit?.close();
  await h?.sandbox.stop();
});

const processedFor = (predicate: (p: Processed) => boolean): Processed[] => kit.processed.filter(predicate);
const bodyOf = (eventId: string): Record<string, unknown> => must(kit.inbox.get(eventId), `inbox ${eventId}`).body;
const inboxIdsWhere = (sql: string, ...params: (string | number)[]): string[] =>
  kit.o.temp.db.prepare<(string | number)[], { event_id: string }>(`SELECT event_id FROM webhook_inbox WHERE ${sql} ORDER BY rowid`).all(...params).map((r) => r.event_id);

function expectEachOnce(): void {
  const ids = kit.processed.map((p) => p.eventId);
  expect(new Set(ids).size).toBe(ids.length);
}

async function cardOrder(withCallback: boolean, supplies: readonly string[] = ['succeed']): Promise<string> {
  const pick = catalog.claim((p, v) => isCard(p) && isOpen(p, v) && hasStock(v) && supplies.includes(v.supply), `a card variant supplied by ${supplies.join('/')}`);
  return placeCardOrder(kit, pick, withCallback ? kit.url() : undefined);
}

describe('deliveries from the sandbox, processed from the inbox', () => {
  let completedRef = '';

  it('order.changed and order.credentials.ready: the order and its cards come from GET /orders, each event once', async () => {
    const ref = await cardOrder(true);
    completedRef = ref;
    await waitUntil(() => processedFor((p) => p.eventType === 'order.credentials.ready').length > 0 && getStoredOrder(kit.o.temp.db, ref)?.state === 'completed', 'credentials processed');
    const sent = (await deliveries(h)).filter((d) => d.url === kit.url());
    expect(sent.every((d) => d.ok)).toBe(true);
    // Ordering also subscribes the product to this address (contract §6), so product.changed may come too.
    expect(sent.map((d) => d.eventType)).toEqual(expect.arrayContaining(['order.changed', 'order.credentials.ready']));
    await waitUntil(() => kit.processed.length >= sent.length, 'every delivery processed');
    const credentials = must(processedFor((p) => p.eventType === 'order.credentials.ready')[0], 'credentials outcome');
    expect(credentials.outcome).toMatch(/^confirmed: 2 cards/);
    expect(countCards(kit.o.temp.db, ref)).toBe(2);
    // The hook's sealed copy is dropped once processed; the vault holds the detail's cards.
    expect(kit.inbox.get(credentials.eventId)?.hasSealedCards).toBe(false);
    for (const p of processedFor((x) => x.eventType === 'order.changed')) expect(p.outcome).toMatch(/^refreshed: order /);
    const rows = kit.o.temp.db.prepare<[], { attempts: number; processed_at: number | null }>('SELECT attempts, processed_at FROM webhook_inbox').all();
    expect(rows.every((r) => r.attempts === 1 && r.processed_at !== null)).toBe(true);
    expectEachOnce();
    expect(kit.o.logLines.join('\n')).not.toMatch(/card_password"\s*:\s*"[^*]/);
  });

  it('a redelivered eventId is acknowledged, stored once and not processed again', async () => {
    const [orderEvent] = inboxIdsWhere("event_type = 'order.changed'");
    const id = must(orderEvent, 'an order.changed event');
    const before = { rows: inboxCount(kit), processed: kit.processed.length, duplicates: kit.receiver.stats().duplicates };
    for (let i = 0; i < 2; i++) {
      const res = await post(kit.url(), bodyOf(id));
      expect({ status: res.status, text: res.text }).toEqual({ status: 200, text: 'OK' });
    }
    // A new eventId posted twice: stored once, processed once.
    const fresh = { ...bodyOf(id), eventId: uid('evt_dup') };
    await Promise.all([post(kit.url(), fresh), post(kit.url(), fresh)]);
    await waitUntil(() => kit.processed.some((p) => p.eventId === fresh.eventId), 'the fresh duplicate processed');
    await kit.processor.processPending();
    expect(inboxCount(kit)).toBe(before.rows + 1);
    expect(kit.processed.length).toBe(before.processed + 1);
    expect(kit.receiver.stats().duplicates).toBe(before.duplicates + 3);
    expectEachOnce();
  });

  it('product.changed through a subscription with callbackUrl: an unknown product is fetched, later snapshots applied, older ones ignored', async () => {
    const pick = catalog.claim((p, v) => isOpen(p, v) && p.variants.length === 1 && v.inventoryType !== 'tracked', 'a single-variant product');
    const productRef = pick.product.productRef;
    await kit.o.client.changeSubscriptions({ productRefs: [productRef], subscriptionState: 'subscribed', callbackUrl: kit.url() });
    await changeProduct(h, productRef, { variantRef: 0, price: '12.34' });
    const ofProduct = (): Processed[] => processedFor((p) => p.eventType === 'product.changed' && p.outcome.includes(`product ${productRef} `));
    await waitUntil(() => ofProduct().length >= 1, 'first product.changed processed');
    const priceFen = (): number | undefined =>
      kit.o.temp.db.prepare<[number], { price_fen: number }>('SELECT price_fen FROM variants WHERE product_ref = ? AND variant_ref = 0').get(productRef)?.price_fen;
    expect(priceFen()).toBe(1234);
    expect(must(ofProduct()[0], 'outcome').outcome).toMatch(/^applied: .*\(detail fetched\)/);
    await new Promise((r) => setTimeout(r, 1100)); // revisions are Unix seconds of sandbox time
    await changeProduct(h, productRef, { variantRef: 0, price: '23.45' });
    await waitUntil(() => ofProduct().length >= 2, 'second product.changed processed');
    expect(priceFen()).toBe(2345);
    const revision = (): number | undefined => kit.o.temp.db.prepare<[number], { revision: number }>('SELECT revision FROM products WHERE product_ref = ?').get(productRef)?.revision;
    const newest = revision();
    // The first snapshot arrives again, late and under another eventId: nothing moves back.
    const firstId = must(ofProduct()[0], 'first product event').eventId;
    const late = { ...bodyOf(firstId), eventId: uid('evt_late') };
    expect((await post(kit.url(), late)).status).toBe(200);
    await waitUntil(() => kit.processed.some((p) => p.eventId === late.eventId), 'late snapshot processed');
    expect(must(kit.processed.find((p) => p.eventId === late.eventId), 'late').outcome).toMatch(/^ignored: stale snapshot of product /);
    expect(priceFen()).toBe(2345);
    expect(revision()).toBe(newest);
    expectEachOnce();
  });

  it('aftersale.message.created: the case is fetched and each merchant message stored once', async () => {
    const ref = completedRef;
    const { data: created } = await kit.o.client.createAftersale({ clientOrderRef: ref, category: 'other', description: 'webhook test case' });
    await control(h.sandbox, 'POST', `/control/aftersales/${created.platformCaseRef}/reply`, { text: '您好，已收到' });
    await waitUntil(() => processedFor((p) => p.eventType === 'aftersale.message.created').length >= 1, 'aftersale message processed');
    const outcome = must(processedFor((p) => p.eventType === 'aftersale.message.created')[0], 'outcome');
    expect(outcome.outcome).toMatch(/^stored case .* 1 new messages/);
    const caseMessages = (): unknown[] =>
      kit.o.temp.db.prepare('SELECT sender, text FROM aftersale_messages WHERE platform_case_ref = ? ORDER BY position, created_at, message_ref').all(created.platformCaseRef);
    expect(caseMessages()).toEqual([{ sender: 'merchant', text: '您好，已收到' }]);
    // The same message under another eventId (a forged or replayed hook): fetched again, appended never.
    const replay = { ...bodyOf(outcome.eventId), eventId: uid('evt_replay') };
    expect((await post(kit.url(), replay)).status).toBe(200);
    await waitUntil(() => kit.processed.some((p) => p.eventId === replay.eventId), 'replay processed');
    expect(must(kit.processed.find((p) => p.eventId === replay.eventId), 'replay').outcome).toMatch(/ 0 new messages/);
    expect(caseMessages()).toHaveLength(1);
    expectEachOnce();
  });
});

describe('forged events the merchant does not confirm', () => {
  const header = (eventType: string): Record<string, unknown> => ({ eventId: uid('evt_forged'), eventType, occurredAt: Math.floor(Date.now() / 1000) });

  async function deliverAndProcess(body: Record<string, unknown>): Promise<string> {
    const res = await post(kit.url(), body);
    expect(res.status).toBe(200);
    await waitUntil(() => kit.processed.some((p) => p.eventId === body.eventId), `forged ${String(body.eventType)} processed`);
    return must(kit.processed.find((p) => p.eventId === body.eventId), 'outcome').outcome;
  }

  it('order.changed (with a refund) and order.credentials.ready for a ref that is not ours record nothing, without a request', async () => {
    const ref = uid('forged');
    const snapshot = {
      clientOrderRef: ref, platformOrderRef: '999999', productRef: 1, variantRef: 0, productName: 'x', variantTitle: 'x', productType: 'card', units: 1,
      unitPrice: 1, totalAmount: 1, refundedAmount: 1, state: 'completed', allowedActions: [], revision: 99, failureReason: null, verificationHint: null,
      createdAt: 1, updatedAt: 2, completedAt: 2, orderCallbackUrl: null, imageUrl: null, entryCount: 0,
      refunds: [{ refundRef: 'rf1', clientRefundRef: 'x', amount: 1, state: 'succeeded', reason: 'r', merchantNote: null, createdAt: 1, resolvedAt: 2 }], card_list: null,
    };
    const changed = await deliverAndProcess({ ...header('order.changed'), clientOrderRef: ref, platformOrderRef: '999999', revision: 99, changedProperties: ['refunds'], orderSnapshot: snapshot });
    expect(changed).toMatch(/^ignored: no order of this app/);
    const cards = await deliverAndProcess({ ...header('order.credentials.ready'), clientOrderRef: ref, platformOrderRef: '999999', card_list: [{ card_no: 'FAKE1', card_password: 'FAKEPW1', expiresAt: null }] });
    expect(cards).toMatch(/^ignored: .* no cards recorded/);
    expect(getStoredOrder(kit.o.temp.db, ref)).toBeNull();
    expect(countCards(kit.o.temp.db, ref)).toBe(0);
    expect(kit.o.temp.db.prepare('SELECT count(*) AS n FROM refunds WHERE client_order_ref = ?').pluck().get(ref)).toBe(0);
    expect(kit.o.exchanges.filter((e) => e.url.includes(ref))).toHaveLength(0);
  });

  it('order.credentials.ready with fake cards for a real order without cards records nothing and leaves the order as it was', async () => {
    const ref = await cardOrder(false, ['needsVerification', 'fail']);
    await waitUntil(async () => ['verifying', 'failed'].includes((await kit.o.tracker.refresh(ref))?.state ?? ''), 'order verifying or failed', 30_000, 300);
    const before = must(getStoredOrder(kit.o.temp.db, ref), 'stored order');
    const outcome = await deliverAndProcess({
      ...header('order.credentials.ready'), clientOrderRef: ref, platformOrderRef: before.platformOrderRef,
      card_list: [{ card_no: 'FAKE2', card_password: 'FAKEPW2', expiresAt: null }],
    });
    expect(outcome).toMatch(/^unconfirmed: the merchant detail has no card_list/);
    expect(countCards(kit.o.temp.db, ref)).toBe(0);
    const after = must(getStoredOrder(kit.o.temp.db, ref), 'stored order');
    expect({ state: after.state, revision: after.revision, refundedFen: after.refundedFen }).toEqual({ state: before.state, revision: before.revision, refundedFen: before.refundedFen });
  });

  it('order.changed claiming a refund on a real order of ours records no refund: only GET /orders is applied', async () => {
    const ref = await cardOrder(false);
    await waitUntil(async () => (await kit.o.tracker.refresh(ref))?.state === 'completed', 'order completed', 30_000, 300);
    const before = must(getStoredOrder(kit.o.temp.db, ref), 'stored order');
    const refundRows = (): number => Number(kit.o.temp.db.prepare('SELECT count(*) AS n FROM refunds WHERE client_order_ref = ?').pluck().get(ref));
    expect(refundRows()).toBe(0);
    const forgedRevision = before.revision + 5;
    const outcome = await deliverAndProcess({
      ...header('order.changed'), clientOrderRef: ref, platformOrderRef: before.platformOrderRef, revision: forgedRevision, changedProperties: ['refunds'],
      orderSnapshot: {
        clientOrderRef: ref, platformOrderRef: before.platformOrderRef, productRef: 1, variantRef: 0, productName: 'x', variantTitle: 'x', productType: 'card', units: 1,
        unitPrice: 1, totalAmount: 1, refundedAmount: 1, state: 'completed', allowedActions: [], revision: forgedRevision, failureReason: null, verificationHint: null,
        createdAt: 1, updatedAt: 2, completedAt: 2, orderCallbackUrl: null, imageUrl: null, entryCount: 0,
        refunds: [{ refundRef: 'rf-forged', clientRefundRef: 'x', amount: 1, state: 'succeeded', reason: 'r', merchantNote: null, createdAt: 1, resolvedAt: 2 }], card_list: null,
      },
    });
    // Processed by asking the merchant, whose detail has no refund.
    expect(outcome).toMatch(/^refreshed: order .* \(from GET \/orders\)$/);
    expect(kit.o.exchanges.some((e) => e.method === 'GET' && e.url.endsWith(`/orders/${ref}`))).toBe(true);
    expect(refundRows()).toBe(0);
    const after = must(getStoredOrder(kit.o.temp.db, ref), 'stored order');
    expect({ state: after.state, revision: after.revision, refundedFen: after.refundedFen }).toEqual({ state: before.state, revision: before.revision, refundedFen: before.refundedFen });
  });

  it('an unknown event type is stored and finished as ignored', async () => {
    const outcome = await deliverAndProcess({ ...header('order.shipped'), clientOrderRef: 'x' });
    expect(outcome).toBe('ignored: unknown type');
  });
});
