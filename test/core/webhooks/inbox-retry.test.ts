// A processing that fails because the merchant cannot be reached is kept and tried again with
// backoff, never lost and never finished without the authenticated answer; once the merchant is back
// the event is processed exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getStoredOrder } from '../../../src/core/orders/order-store';
import { FAST_RETRY } from '../merchant/client-kit';
import { Catalog, controlProducts, goodCard, launch, must, type Harness } from '../../support/orders-harness';
import { createEventsKit, orderChangedBody, placeCardOrder, post, type EventsKit } from './webhook-kit';

const SCALE = 10;
let h: Harness;
let kit: EventsKit;

beforeAll(async () => {
  h = await launch([], SCALE);
  kit = await createEventsKit(h, { scale: SCALE, autoProcess: false, orders: { retry: FAST_RETRY, timeoutMs: 2000 }, backoff: { baseMs: 2000, maxMs: 4000 } });
});

afterAll(async () => {
  await kit?.close();
  await h?.sandbox.stop();
});

describe('inbox retries', () => {
  it('keeps a failed processing for later and processes it once when the merchant answers', async () => {
    const catalog = new Catalog(await controlProducts(h));
    const ref = await placeCardOrder(kit, catalog.claim(goodCard, 'a card that is supplied'));
    const { data: order } = await kit.o.client.getOrder(ref);
    const revisionBefore = must(getStoredOrder(kit.o.temp.db, ref), 'order').revision;
    const body = orderChangedBody(`evt_retry_${Date.now()}`, order);
    expect((await post(kit.url(), body)).status).toBe(200);
    const id = String(body.eventId);

    kit.o.offline = true;
    expect(await kit.processor.processPending()).toBe(1);
    const failed = must(kit.inbox.get(id), 'event');
    expect(failed.processedAt).toBeNull();
    expect(failed.attempts).toBe(1);
    expect(failed.outcome).toMatch(/^failed: /);
    expect(failed.nextAttemptAt).toBeGreaterThan(Math.floor(kit.o.clock.nowMs() / 1000));
    // Not due yet: nothing is tried.
    expect(await kit.processor.processPending()).toBe(0);

    kit.o.offline = false;
    const dueAt = must(failed.nextAttemptAt, 'next attempt') * 1000;
    while (kit.o.clock.nowMs() < dueAt) await new Promise((r) => setTimeout(r, 50));
    expect(await kit.processor.processPending()).toBe(1);
    const done = must(kit.inbox.get(id), 'event');
    expect(done.attempts).toBe(2);
    expect(done.outcome).toMatch(/^refreshed: order /);
    expect(done.processedAt).not.toBeNull();
    expect(must(getStoredOrder(kit.o.temp.db, ref), 'order').revision).toBeGreaterThanOrEqual(revisionBefore);
    expect(await kit.processor.processPending()).toBe(0);
    expect(kit.processed.filter((p) => p.eventId === id)).toHaveLength(1);
  });
});
