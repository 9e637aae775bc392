// Subscriptions are renewed before they expire (when less than a day or 20% of the granted time
// remains), so a watched product keeps producing product.changed messages past its first expiry.
// The sandbox's --subscription-ttl makes the lifetime 100 sandbox seconds, its --time-scale makes
// that ten real seconds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renewAtFor, retryDelaySeconds } from '../../../src/core/webhooks/product-watch';
import { changeProduct, controlProducts } from '../../support/control-catalog';
import { startSandbox, type RunningSandbox } from '../../support/sandbox-process';
import { createEventsKit, deliveriesTo, subscribedOnMerchant, subscriptionCalls, waitFor } from './service-kit';

const SCALE = 10;
const TTL = 100;

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox(['--time-scale', String(SCALE), '--subscription-ttl', String(TTL)]);
}, 60_000);

afterAll(async () => {
  await sandbox?.stop();
});

describe('renewal policy', () => {
  it('renews a day before a 7-day expiry, at 80% of a short one, and never in a busy loop', () => {
    expect(renewAtFor(1000, 1000 + 604_800)).toBe(1000 + 604_800 - 86_400);
    expect(renewAtFor(1000, 1000 + 100)).toBe(1080);
    expect(renewAtFor(1000, 1000 + 2 * 86_400)).toBe(1000 + 2 * 86_400 - Math.floor(0.2 * 2 * 86_400));
    expect(renewAtFor(1000, null)).toBe(1300);
    expect(renewAtFor(1000, 900)).toBe(1300);
    expect(retryDelaySeconds(0, null)).toBe(30);
    expect(retryDelaySeconds(3, null)).toBe(240);
    expect(retryDelaySeconds(20, null)).toBe(3600);
    expect(retryDelaySeconds(0, 90_000)).toBe(90);
  });
});

describe('subscriptions against a short TTL', () => {
  it('renews before expiry with the same URL, and deliveries go on past the first expiry', async () => {
    const kit = await createEventsKit(sandbox, { scale: SCALE, ttlSeconds: TTL });
    try {
      const watched = (await controlProducts(sandbox, 3)).map((p) => p.productRef);
      kit.events.watch(watched);
      const { callbackUrl } = await kit.events.start();
      await kit.events.settled();
      const first = kit.events.watched()[0];
      const firstExpiry = first?.subscriptionExpiresAt ?? 0;
      // 20% of the 100 s TTL before expiry; the granted time is measured on two clocks whole
      // seconds apart, so the rounding may move it by one second either way.
      expect(Math.abs((first?.renewAt ?? 0) - (firstExpiry - 20))).toBeLessThanOrEqual(1);

      // Renewed (one call for the three) before the first expiry passed on the merchant's clock.
      await waitFor(() => (subscriptionCalls(kit.exchanges)[1]?.status ?? null) !== null, 'a renewal call answered', 20_000);
      const renewal = kit.exchanges.filter((e) => e.url.endsWith('/goods/subscriptions'))[1];
      expect(renewal?.sentAt ?? Infinity).toBeLessThan(firstExpiry * 1000);
      expect(subscriptionCalls(kit.exchanges)[1]).toMatchObject({ productRefs: watched, subscriptionState: 'subscribed', callbackUrl, status: 200 });

      // Well past the first expiry: still subscribed, and a change is still delivered.
      await waitFor(() => kit.clock.nowMs() > (firstExpiry + 10) * 1000, 'the first expiry to pass', 20_000);
      expect((await subscribedOnMerchant(sandbox, kit.account)).sort((a, b) => a - b)).toEqual([...watched].sort((a, b) => a - b));
      for (const row of kit.events.watched()) expect(row.subscriptionExpiresAt ?? 0).toBeGreaterThan(firstExpiry);
      await changeProduct(sandbox, watched[0] ?? 0, { availability: 'unavailable' });
      await waitFor(async () => (await deliveriesTo(sandbox, callbackUrl)).some((d) => d.eventType === 'product.changed' && d.ok), 'a product.changed delivery');
      // Each renewal waits for its time: a handful of calls in ~12 real seconds, not one per tick.
      expect(subscriptionCalls(kit.exchanges).length).toBeLessThanOrEqual(4);
    } finally {
      await kit.close();
    }
  }, 60_000);
});
