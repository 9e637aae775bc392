// The outbox when the merchant is away or an answer is lost: intents placed offline wait (queued or
// unknown, visible) and go through once the merchant is back; an answer dropped after the merchant
// processed the create is resolved by GET /orders/{ref}; a crash mid-send ('sending' at start-up) is
// resolved the same way. The sandbox ledger shows exactly one charge per intent every time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countIntentsByStatus } from '../../../src/core/orders/order-intent-store';
import { Catalog, controlProducts, entriesFor, goodCard, launch, ledger, setFaults, type Harness } from '../../support/orders-harness';
import { createOrdersKit, DROP_CREATE_ANSWERS, isCreate, NO_DROPS, refOfBody, type OrdersKit } from './orders-kit';

const SCALE = 50;
let h: Harness;
let kit: OrdersKit;
let productRef: number;
let variantRef: number;

beforeAll(async () => {
  h = await launch([], SCALE);
  kit = await createOrdersKit(h, { scale: SCALE, timeoutMs: 3000 });
  const pick = new Catalog(await controlProducts(h)).claim((p, v) => goodCard(p, v), 'card');
  productRef = pick.product.productRef;
  variantRef = pick.variant.variantRef;
  await kit.seedTemplate(productRef, variantRef, 'card');
});

afterAll(async () => {
  await setFaults(h, { errorRate: 0, dropRate: 0, latencyMs: 0 }).catch(() => undefined);
  await kit?.close();
  await h?.sandbox.stop();
});

async function settle(refs: readonly string[], timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    kit.outbox.poke();
    await kit.outbox.runOnce();
    const pending = refs.filter((ref) => {
      const status = kit.intents.getIntent(ref)?.status;
      return status === 'queued' || status === 'unknown' || status === 'sending';
    });
    if (pending.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('intents did not settle');
}

async function expectOneChargeEach(refs: readonly string[]): Promise<void> {
  const book = await ledger(h, kit.account);
  for (const ref of refs) expect(entriesFor(book, ref, 'charge'), ref).toHaveLength(1);
}

describe('outbox recovery', () => {
  it('keeps intents placed while the merchant is unreachable, then sends each once', async () => {
    kit.offline = true;
    const refs = Array.from({ length: 5 }, () => kit.intents.placeOrder({ productRef, variantRef, units: 1 }).clientOrderRef);
    const pass = await kit.outbox.runOnce();
    expect(pass.offline).toBe(true);
    // One attempt found the merchant away; the others were not even tried.
    const counts = countIntentsByStatus(kit.temp.db);
    expect(counts.queued + counts.unknown).toBe(5);
    expect(counts.sending).toBe(0);
    expect(await kit.outbox.runOnce()).toEqual({ worked: 0, offline: true });

    kit.offline = false;
    await settle(refs);
    for (const ref of refs) expect(kit.intents.getIntent(ref)?.status).toBe('accepted');
    await expectOneChargeEach(refs);
  });

  it('waits out a merchant answering 503, then sends each once', async () => {
    await setFaults(h, { errorRate: 1, errorStatus: 503 });
    const refs = Array.from({ length: 4 }, () => kit.intents.placeOrder({ productRef, variantRef, units: 1 }).clientOrderRef);
    await kit.outbox.runOnce();
    for (const ref of refs) expect(['queued', 'unknown']).toContain(kit.intents.getIntent(ref)?.status);
    expect(entriesFor(await ledger(h, kit.account), refs[0] ?? '')).toHaveLength(0);
    await setFaults(h, { errorRate: 0 });
    await settle(refs);
    for (const ref of refs) expect(kit.intents.getIntent(ref)?.status).toBe('accepted');
    await expectOneChargeEach(refs);
  });

  it('resolves a dropped answer (processed, then the connection closed) by GET, with one charge', async () => {
    await setFaults(h, DROP_CREATE_ANSWERS);
    const intent = kit.intents.placeOrder({ productRef, variantRef, units: 2 });
    await kit.outbox.runOnce();
    const unknown = kit.intents.getIntent(intent.clientOrderRef);
    expect(unknown?.status).toBe('unknown');
    expect(['TRANSPORT', 'TIMEOUT']).toContain(unknown?.lastErrorCode);
    // Processed and charged although the answer was lost.
    await expectOneChargeEach([intent.clientOrderRef]);
    await setFaults(h, NO_DROPS);
    const createsBefore = kit.exchanges.filter((e) => isCreate(e.url) && refOfBody(e.body) === intent.clientOrderRef).length;
    await settle([intent.clientOrderRef]);
    expect(kit.intents.getIntent(intent.clientOrderRef)?.status).toBe('accepted');
    // Found by GET: no further create was needed.
    expect(kit.exchanges.filter((e) => isCreate(e.url) && refOfBody(e.body) === intent.clientOrderRef).length).toBe(createsBefore);
    // Every create that did go out carried the same ref and the same body.
    const bodies = new Set(kit.exchanges.filter((e) => isCreate(e.url) && refOfBody(e.body) === intent.clientOrderRef).map((e) => e.body));
    expect(bodies.size).toBe(1);
    await expectOneChargeEach([intent.clientOrderRef]);
  });

  it('after a crash mid-send, looks the order up; if it never arrived, sends the same ref again', async () => {
    const arrived = kit.intents.placeOrder({ productRef, variantRef, units: 1 });
    const lost = kit.intents.placeOrder({ productRef, variantRef, units: 1 });
    // "arrived" reached the merchant before the crash; "lost" was marked sending but never left.
    await kit.client.createOrder({ clientOrderRef: arrived.clientOrderRef, productRef, ...(variantRef === 0 ? {} : { variantRef }), units: 1 });
    kit.temp.db.prepare(`UPDATE order_intents SET status = 'sending', attempts = 1 WHERE client_order_ref IN (?, ?)`).run(arrived.clientOrderRef, lost.clientOrderRef);
    expect(kit.outbox.recover()).toBe(2);
    expect(kit.intents.getIntent(lost.clientOrderRef)).toMatchObject({ status: 'unknown', lastErrorCode: 'INTERRUPTED' });
    await settle([arrived.clientOrderRef, lost.clientOrderRef]);
    expect(kit.intents.getIntent(arrived.clientOrderRef)?.status).toBe('accepted');
    expect(kit.intents.getIntent(lost.clientOrderRef)?.status).toBe('accepted');
    await expectOneChargeEach([arrived.clientOrderRef, lost.clientOrderRef]);
  });

  it('an order queued without a callback URL takes the URL live at its first send, and keeps it on every retry', async () => {
    const placedWhileLive = 'http://127.0.0.1:9/hooks/' + 'a'.repeat(43);
    const liveAtSend = 'http://127.0.0.1:9/hooks/' + 'b'.repeat(43);
    const chosen = 'http://127.0.0.1:9/hooks/' + 'c'.repeat(43);
    kit.liveCallbackUrl = placedWhileLive;
    // Placed while the outbox does not send (paused after finding the merchant away, or --queue-only).
    const queued = kit.intents.placeOrder({ productRef, variantRef, units: 1 });
    const own = kit.intents.placeOrder({ productRef, variantRef, units: 1, orderCallbackUrl: chosen });
    // The receiver restarted on another address before the first send; that send's answer is lost.
    kit.liveCallbackUrl = liveAtSend;
    await setFaults(h, DROP_CREATE_ANSWERS);
    await kit.outbox.runOnce();
    expect(kit.intents.getIntent(queued.clientOrderRef)?.status).toBe('unknown');
    kit.liveCallbackUrl = null;
    await setFaults(h, NO_DROPS);
    await settle([queued.clientOrderRef, own.clientOrderRef]);

    const sentUrls = (ref: string): Set<unknown> =>
      new Set(kit.exchanges.filter((e) => isCreate(e.url) && refOfBody(e.body) === ref).map((e) => (JSON.parse(e.body ?? '{}') as { orderCallbackUrl?: unknown }).orderCallbackUrl));
    expect(sentUrls(queued.clientOrderRef)).toEqual(new Set([liveAtSend]));
    expect(sentUrls(own.clientOrderRef)).toEqual(new Set([chosen]));
    expect(kit.intents.getIntent(queued.clientOrderRef)?.orderCallbackUrl).toBe(liveAtSend);
    expect((await kit.client.getOrder(queued.clientOrderRef)).data.orderCallbackUrl).toBe(liveAtSend);
    await expectOneChargeEach([queued.clientOrderRef, own.clientOrderRef]);
  });
});
