// After the receiver was down, the URL changed or the tunnel dropped: every watched product is
// subscribed again with the live URL, and a catch-up reads by detail what may have been missed
// (interface v1 §6.4.6–8: three failed sends and the message is gone, a product's subscription with it).
// Orders move only when the test says so (--auto-advance off) and the tracker is not running, so
// only the catch-up can bring them up to date.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLiveCallbackRecord, readLiveCallbackUrl } from '../../../src/core/webhooks/webhook-settings';
import { changeProduct, controlProducts, isOrderableCard, type ControlProduct } from '../../support/control-catalog';
import { control } from '../../support/merchant-http';
import { startSandbox, type RunningSandbox } from '../../support/sandbox-process';
import {
  createEventsKit,
  deliveriesTo,
  placeOrder,
  storedOrderState,
  subscribedOnMerchant,
  subscriptionCalls,
  switchableTunnel,
  waitFor,
  type SwitchableTunnel,
} from './service-kit';

const SCALE = 20;
const TTL = 604_800;

let sandbox: RunningSandbox;
let products: ControlProduct[];

beforeAll(async () => {
  sandbox = await startSandbox(['--time-scale', String(SCALE), '--auto-advance', 'off']);
  products = await controlProducts(sandbox, 200);
}, 60_000);

afterAll(async () => {
  await sandbox?.stop();
});

function orderableCards(): ControlProduct[] {
  return products.filter(isOrderableCard);
}

/** All three sends of every message to `url` have failed (0, 15, 30 sandbox s). */
async function allSendsFailed(url: string, eventTypes: readonly string[]): Promise<boolean> {
  const sent = await deliveriesTo(sandbox, url);
  return eventTypes.every((type) => sent.some((d) => d.eventType === type && d.attempt === 3 && !d.ok));
}

describe('re-subscribe and catch up', () => {
  it('after the receiver was down and came back on a new URL: watched products re-subscribed, a changed order and product read by detail', async () => {
    const kit = await createEventsKit(sandbox, { scale: SCALE, ttlSeconds: TTL });
    try {
      const [card, watchedProduct] = orderableCards();
      if (card === undefined || watchedProduct === undefined) throw new Error('no orderable cards in the catalog');
      const watched = watchedProduct.productRef;
      kit.events.watch([watched]);
      const first = await kit.events.start();
      await kit.events.settled();
      expect(readLiveCallbackUrl(kit.core.db, kit.clock.nowMs())).toBe(first.callbackUrl);
      const ref = await placeOrder(kit, card.productRef, kit.events.callbackUrl());
      expect(storedOrderState(kit, ref)).toBe('pending');

      // The receiver goes away: the published URL is withdrawn.
      await kit.events.stop();
      expect(readLiveCallbackRecord(kit.core.db)).toBeNull();
      expect(kit.events.callbackUrl()).toBeNull();
      await control(sandbox, 'POST', `/control/orders/${ref}/advance`, { to: 'processing' });
      await control(sandbox, 'POST', `/control/orders/${ref}/advance`, { to: 'completed' });
      const change = await changeProduct(sandbox, watched, { availability: 'unavailable' });
      await waitFor(() => allSendsFailed(first.callbackUrl, ['order.changed', 'order.credentials.ready', 'product.changed']), 'three failed sends of each message', 15_000);
      // The third failure cancelled the product's subscription (interface v1 §6.4.7). The delivery log does not
      // name products, and the ordered card's own product.changed can fail its third send first.
      await waitFor(async () => !(await subscribedOnMerchant(sandbox, kit.account)).includes(watched), "the watched product's subscription cancelled by its third failed send", 15_000);
      expect(storedOrderState(kit, ref)).toBe('pending');

      // Back on a new URL (a new path: the receiver takes its last port again when it can), subscribed
      // again, then everything read by detail.
      kit.events.rotateToken();
      const second = await kit.events.start();
      expect(second.callbackUrl).not.toBe(first.callbackUrl);
      await kit.events.settled();
      const calls = subscriptionCalls(kit.exchanges);
      expect(calls.at(-1)).toMatchObject({ productRefs: [watched], callbackUrl: second.callbackUrl, status: 200 });
      expect(await subscribedOnMerchant(sandbox, kit.account)).toContain(watched);
      expect(kit.events.watched()[0]).toMatchObject({ callbackUrl: second.callbackUrl, subscriptionState: 'subscribed' });

      expect(storedOrderState(kit, ref)).toBe('completed');
      expect(kit.core.vault.listCards(ref)).toHaveLength(1);
      const product = kit.core.db.prepare<[number], { revision: number; availability: string }>('SELECT revision, availability FROM products WHERE product_ref = ?').get(watched);
      expect(product).toEqual({ revision: change.revision, availability: 'unavailable' });
      const report = kit.events.health().catchUp.last;
      expect(report).toMatchObject({ complete: true, orders: { checked: 1, failed: 0 }, products: { checked: 1, failed: 0 } });
      expect(readLiveCallbackUrl(kit.core.db, kit.clock.nowMs())).toBe(second.callbackUrl);

      // And the new subscription delivers to the new URL.
      await changeProduct(sandbox, watched, { availability: 'available' });
      await waitFor(() => kit.processed.some((p) => p.eventType === 'product.changed'), 'product.changed on the new URL');
      expect((await deliveriesTo(sandbox, second.callbackUrl)).filter((d) => d.eventType === 'product.changed')).toEqual([expect.objectContaining({ ok: true })]);
    } finally {
      await kit.close();
    }
  }, 90_000);

  it('after a token rotation: the old URL is dead, subscriptions and new deliveries use the new one', async () => {
    const kit = await createEventsKit(sandbox, { scale: SCALE, ttlSeconds: TTL });
    try {
      const watched = orderableCards()[2]?.productRef ?? 0;
      kit.events.watch([watched]);
      const { callbackUrl: before } = await kit.events.start();
      await kit.events.settled();
      const catchUps = kit.logLines.filter((l) => l.includes('catch-up finished')).length;

      const after = kit.events.rotateToken();
      expect(after).not.toBeNull();
      expect(after).not.toBe(before);
      await kit.events.settled();
      expect(subscriptionCalls(kit.exchanges).at(-1)).toMatchObject({ productRefs: [watched], callbackUrl: after, status: 200 });
      expect(kit.logLines.filter((l) => l.includes('catch-up finished')).length).toBe(catchUps + 1);
      expect(readLiveCallbackUrl(kit.core.db, kit.clock.nowMs())).toBe(after);

      const old = await fetch(before, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(old.status).toBe(404);
      await changeProduct(sandbox, watched, { availability: 'unavailable' });
      await waitFor(() => kit.processed.some((p) => p.eventType === 'product.changed'), 'product.changed on the rotated URL');
      expect((await deliveriesTo(sandbox, after ?? '')).filter((d) => d.eventType === 'product.changed')).toEqual([expect.objectContaining({ ok: true })]);
      expect(await deliveriesTo(sandbox, before)).toEqual([]);
    } finally {
      await kit.close();
    }
  }, 60_000);

  it('after the tunnel dropped and came back: re-subscribed and caught up, the URL withdrawn meanwhile', async () => {
    let tunnel: SwitchableTunnel | null = null;
    const kit = await createEventsKit(sandbox, {
      scale: SCALE,
      ttlSeconds: TTL,
      service: {
        tunnel: () => {
          tunnel = switchableTunnel({ debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined });
          return tunnel;
        },
      },
    });
    try {
      const [card] = orderableCards().slice(3);
      const watched = orderableCards()[4]?.productRef ?? 0;
      if (card === undefined || tunnel === null) throw new Error('setup failed');
      const switchable: SwitchableTunnel = tunnel;
      kit.events.watch([watched]);
      const { callbackUrl } = await kit.events.start();
      await kit.events.settled();
      const ref = await placeOrder(kit, card.productRef, callbackUrl);
      const subscribeCalls = subscriptionCalls(kit.exchanges).length;

      switchable.down();
      expect(kit.events.callbackUrl()).toBeNull();
      expect(kit.events.webhooksLive()).toBe(false);
      expect(readLiveCallbackRecord(kit.core.db)).toBeNull();
      expect(kit.events.health().tunnel).toMatchObject({ up: false, publicUrl: null, lastError: 'connection lost (test)' });
      // An order that still moves is polled soon again, not at the rare pace of live webhooks.
      const nextPoll = kit.core.db.prepare<[string], number | null>('SELECT next_poll_at FROM orders WHERE client_order_ref = ?').pluck().get(ref);
      expect(nextPoll ?? Infinity).toBeLessThanOrEqual(Math.floor(kit.clock.nowMs() / 1000) + 1);
      await control(sandbox, 'POST', `/control/orders/${ref}/advance`, { to: 'processing' });

      switchable.up();
      expect(kit.events.callbackUrl()).toBe(callbackUrl);
      await kit.events.settled();
      expect(subscriptionCalls(kit.exchanges).length).toBe(subscribeCalls + 1);
      expect(storedOrderState(kit, ref)).toBe('processing');
      expect(kit.events.health().catchUp.last).toMatchObject({ complete: true, orders: { checked: 1 } });
      expect(kit.events.health().tunnel).toMatchObject({ up: true, publicUrl: callbackUrl.replace(/\/hooks\/.*$/, ''), restarts: 1 });
    } finally {
      await kit.close();
    }
  }, 60_000);
});
