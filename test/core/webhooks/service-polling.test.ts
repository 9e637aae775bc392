// Polling adapts to the webhook path: the tracker's next poll is four times further away while the
// webhook service says webhooks are live (receiver and tunnel up, and a probe through the public URL
// came back or an event arrived recently), and back at the normal pace as soon as that no longer
// holds: the path went quiet past the window, or the receiver stopped. Never every second. Only an
// order whose callback address is the live URL is polled rarely: one placed without it (or with an
// earlier one) gets no webhooks here, so it keeps the normal pace (core/orders/callback-reach.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_POLL_POLICY, pollDelayMs } from '../../../src/core/orders/poll-policy';
import { changeProduct, controlProducts, isOrderableCard, type ControlProduct } from '../../support/control-catalog';
import { startSandbox, type RunningSandbox } from '../../support/sandbox-process';
import { createEventsKit, placeOrder, waitFor, type EventsKit } from './service-kit';

const SCALE = 20;
const TTL = 604_800;
/** Core-clock ms: 6 real seconds at this scale. */
const LIVE_WINDOW_MS = 120_000;

let sandbox: RunningSandbox;
let products: ControlProduct[];

beforeAll(async () => {
  sandbox = await startSandbox(['--time-scale', String(SCALE), '--auto-advance', 'off']);
  products = (await controlProducts(sandbox, 200)).filter(isOrderableCard);
}, 60_000);

afterAll(async () => {
  await sandbox?.stop();
});

/** Seconds from now to the order's next poll after a fresh refresh, and the delay the policy gives. */
async function pollGap(kit: EventsKit, ref: string, live: boolean): Promise<{ gap: number; expected: number; normal: number }> {
  const order = await kit.services.tracker.refresh(ref);
  if (order === null || order.nextPollAt === null) throw new Error('order not tracked');
  return {
    gap: order.nextPollAt - kit.clock.nowMs() / 1000,
    expected: pollDelayMs(DEFAULT_POLL_POLICY, live, order.unchangedPolls) / 1000,
    normal: pollDelayMs(DEFAULT_POLL_POLICY, false, order.unchangedPolls) / 1000,
  };
}

describe('webhooksLive and the tracker', () => {
  it('polls rarely while webhooks are live and at the normal pace otherwise', async () => {
    const kit = await createEventsKit(sandbox, { scale: SCALE, ttlSeconds: TTL, service: { liveWindowMs: LIVE_WINDOW_MS, verifyEveryMs: 3_600_000 } });
    try {
      const [card, watched] = products;
      if (card === undefined || watched === undefined) throw new Error('no orderable cards');
      const ref = await placeOrder(kit, card.productRef, null);

      // Not started: no path, normal polling (at least 15 s, never every second).
      expect(kit.events.webhooksLive()).toBe(false);
      const idle = await pollGap(kit, ref, false);
      expect(idle.gap).toBeGreaterThanOrEqual(idle.expected - 2);
      expect(idle.gap).toBeLessThanOrEqual(idle.expected + 2);
      expect(idle.expected).toBeGreaterThanOrEqual(15);

      kit.events.watch([watched.productRef]);
      await kit.events.start();
      await kit.events.settled();
      // The probe through the public URL came back to this receiver.
      expect(kit.events.health().pathVerifiedAt).not.toBeNull();
      expect(kit.events.webhooksLive()).toBe(true);
      // The order placed before, without the callback URL, stays at the normal pace; one placed with it goes rare.
      const elsewhere = await pollGap(kit, ref, false);
      expect(elsewhere.gap).toBeLessThanOrEqual(elsewhere.expected + 2);
      const hooked = await placeOrder(kit, card.productRef, kit.events.callbackUrl());
      const live = await pollGap(kit, hooked, true);
      expect(live.expected).toBe(4 * live.normal);
      expect(live.gap).toBeGreaterThanOrEqual(live.expected - 2);
      expect(live.gap).toBeGreaterThan(idle.gap);

      // Quiet past the window: no event and no fresh probe, so webhooks no longer count as live.
      await waitFor(() => !kit.events.webhooksLive(), 'the live window to pass', 20_000);
      const quiet = await pollGap(kit, hooked, false);
      expect(quiet.gap).toBeLessThanOrEqual(quiet.expected + 2);

      // An event arriving makes them live again.
      await changeProduct(sandbox, watched.productRef, { availability: 'unavailable' });
      await waitFor(() => kit.events.webhooksLive(), 'an event to arrive');
      expect(kit.events.health().lastEventAt).not.toBeNull();
      const again = await pollGap(kit, hooked, true);
      expect(again.gap).toBeGreaterThanOrEqual(again.expected - 2);

      // The receiver stops: not live, whatever arrived before.
      await kit.events.stop();
      expect(kit.events.webhooksLive()).toBe(false);
      const stopped = await pollGap(kit, hooked, false);
      expect(stopped.gap).toBeLessThanOrEqual(stopped.expected + 2);
    } finally {
      await kit.close();
    }
  }, 60_000);
});
