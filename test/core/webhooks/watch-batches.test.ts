// Watched products are subscribed with the live callback URL in calls of at most 100 products (spec
// 3.2, contract §6), all or nothing per call, so one product the merchant does not know is isolated;
// unwatching cancels; a change of a watched product then reaches the receiver and the catalog cache.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeProduct, controlProducts } from '../../support/control-catalog';
import { startSandbox, type RunningSandbox } from '../../support/sandbox-process';
import { createEventsKit, deliveriesTo, subscribedOnMerchant, subscriptionCalls, waitFor } from './service-kit';

const SCALE = 20;
const TTL = 604_800;

let sandbox: RunningSandbox;
let refs: number[];

beforeAll(async () => {
  sandbox = await startSandbox(['--time-scale', String(SCALE)]);
  refs = (await controlProducts(sandbox, 200)).map((p) => p.productRef);
}, 60_000);

afterAll(async () => {
  await sandbox?.stop();
});

const sorted = (values: readonly number[]): number[] => [...values].sort((a, b) => a - b);

describe('watched products', () => {
  it('subscribes 150 watched products in two calls (100 + 50) with the live callback URL', async () => {
    const kit = await createEventsKit(sandbox, { scale: SCALE, ttlSeconds: TTL });
    try {
      const watched = refs.slice(0, 150);
      expect(kit.events.watch(watched)).toHaveLength(150);
      expect(kit.events.watch(watched.slice(0, 10))).toEqual([]);
      const { callbackUrl } = await kit.events.start();
      await kit.events.settled();

      const calls = subscriptionCalls(kit.exchanges);
      expect(calls.map((c) => c.productRefs.length)).toEqual([100, 50]);
      for (const call of calls) expect(call).toMatchObject({ subscriptionState: 'subscribed', callbackUrl, status: 200 });
      expect(sorted(calls.flatMap((c) => c.productRefs))).toEqual(sorted(watched));
      expect(sorted(await subscribedOnMerchant(sandbox, kit.account))).toEqual(sorted(watched));

      const rows = kit.events.watched();
      expect(rows).toHaveLength(150);
      for (const row of rows) {
        expect(row).toMatchObject({ subscriptionState: 'subscribed', callbackUrl, attempts: 0, lastError: null });
        // The merchant's expiry is the TTL after our subscription time (the clocks agree within seconds).
        expect(Math.abs((row.subscriptionExpiresAt ?? 0) - ((row.subscribedAt ?? 0) + TTL))).toBeLessThan(5);
        // Renewed a day before expiry (20% of 7 days would be later than that).
        expect(row.renewAt).toBe((row.subscriptionExpiresAt ?? 0) - 86_400);
      }
      expect(kit.events.health().subscriptions).toMatchObject({ watched: 150, subscribed: 150, due: 0, failing: 0, lastError: null });

      // The catch-up that follows a new URL read every watched product by detail.
      expect(kit.events.health().catchUp).toMatchObject({ pending: false, running: false, lastError: null });
      expect(kit.events.health().catchUp.last?.products).toMatchObject({ checked: 150, failed: 0 });

      // A change of a watched product is delivered to the receiver and applied to the cache.
      const target = watched[3] ?? 0;
      const change = await changeProduct(sandbox, target, { availability: 'unavailable' });
      await waitFor(() => kit.processed.some((p) => p.eventType === 'product.changed' && p.outcome.startsWith('applied')), 'product.changed processed');
      const stored = kit.core.db.prepare<[number], { revision: number; availability: string }>('SELECT revision, availability FROM products WHERE product_ref = ?').get(target);
      expect(stored).toEqual({ revision: change.revision, availability: 'unavailable' });
      const delivered = await deliveriesTo(sandbox, callbackUrl);
      expect(delivered.filter((d) => d.eventType === 'product.changed')).toEqual([expect.objectContaining({ attempt: 1, ok: true })]);
      expect(kit.events.health().events).toMatchObject({ received: 1, duplicates: 0, rejected: 0 });
    } finally {
      await kit.close();
    }
  }, 60_000);

  it('isolates a product the merchant does not know and subscribes the others', async () => {
    const kit = await createEventsKit(sandbox, { scale: SCALE, ttlSeconds: TTL });
    try {
      const known = refs.slice(150, 155);
      const unknown = 9_999_999;
      kit.events.watch([...known, unknown]);
      await kit.events.start();
      await kit.events.settled();

      expect(sorted(await subscribedOnMerchant(sandbox, kit.account))).toEqual(sorted(known));
      const calls = subscriptionCalls(kit.exchanges);
      expect(calls[0]).toMatchObject({ productRefs: [...known, unknown], status: 404 });
      expect(calls.filter((c) => c.status === 200).flatMap((c) => c.productRefs).sort((a, b) => a - b)).toEqual(sorted(known));
      expect(calls.every((c) => c.productRefs.length <= 100)).toBe(true);
      const missing = kit.events.watched().find((row) => row.productRef === unknown);
      expect(missing).toMatchObject({ subscriptionState: null, attempts: 1, lastError: 'not visible (404001)' });
      // Asked again hours later, not in a loop.
      expect(missing?.renewAt ?? 0).toBeGreaterThan(Math.floor(kit.clock.nowMs() / 1000) + 3600);
      expect(kit.events.health().subscriptions).toMatchObject({ watched: 6, subscribed: 5, failing: 1 });
    } finally {
      await kit.close();
    }
  }, 60_000);

  it('cancels the subscriptions of products no longer watched', async () => {
    const kit = await createEventsKit(sandbox, { scale: SCALE, ttlSeconds: TTL });
    try {
      const watched = refs.slice(160, 170);
      kit.events.watch(watched);
      await kit.events.start();
      await kit.events.settled();
      expect(sorted(await subscribedOnMerchant(sandbox, kit.account))).toEqual(sorted(watched));

      expect(sorted(await kit.events.unwatch([...watched.slice(0, 4), 9_999_998]))).toEqual(sorted(watched.slice(0, 4)));
      expect(subscriptionCalls(kit.exchanges).at(-1)).toMatchObject({ productRefs: watched.slice(0, 4), subscriptionState: 'unsubscribed', status: 200 });
      expect(sorted(await subscribedOnMerchant(sandbox, kit.account))).toEqual(sorted(watched.slice(4)));
      expect(kit.events.watched().map((r) => r.productRef)).toEqual(sorted(watched.slice(4)));
    } finally {
      await kit.close();
    }
  }, 60_000);
});
