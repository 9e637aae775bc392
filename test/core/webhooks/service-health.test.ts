// The health record the UI shows: receiver up and its port, tunnel up and its URL, the callback URL,
// the last event time and the counts of received, duplicate and rejected events (the service's own
// path probes are not counted as received), the subscriptions and the last catch-up. Deliveries of
// a real order by the sandbox count as received; a forged duplicate, malformed or misaddressed
// request is counted where it belongs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlProducts, isOrderableCard, type ControlProduct } from '../../support/control-catalog';
import { startSandbox, type RunningSandbox } from '../../support/sandbox-process';
import { readLiveCallbackRecord } from '../../../src/core/webhooks/webhook-settings';
import { createEventsKit, deliveriesTo, placeOrder, storedOrderState, subscriptionCalls, waitFor } from './service-kit';

const SCALE = 20;
const TTL = 604_800;

let sandbox: RunningSandbox;
let products: ControlProduct[];

beforeAll(async () => {
  sandbox = await startSandbox(['--time-scale', String(SCALE)]);
  products = (await controlProducts(sandbox, 200)).filter(isOrderableCard);
}, 60_000);

afterAll(async () => {
  await sandbox?.stop();
});

const post = (url: string, body: string, contentType = 'application/json'): Promise<Response> =>
  fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body });

describe('events health', () => {
  it('reports receiver, tunnel, URL, last event and the counts of received, duplicate and rejected events', async () => {
    const kit = await createEventsKit(sandbox, { scale: SCALE, ttlSeconds: TTL });
    try {
      const before = kit.events.health();
      expect(before).toMatchObject({
        receiver: { up: false, port: null },
        tunnel: { kind: 'loopback', up: false, publicUrl: null },
        callbackUrl: null,
        webhooksLive: false,
        events: { received: 0, duplicates: 0, rejected: 0 },
      });

      const { callbackUrl } = await kit.events.start();
      await kit.events.settled();
      const port = kit.events.health().receiver.port ?? 0;
      expect(kit.events.health()).toMatchObject({
        receiver: { up: true, port: expect.any(Number) as number },
        tunnel: { kind: 'loopback', up: true, publicUrl: `http://127.0.0.1:${port}`, lastError: null, restarts: 0 },
        callbackUrl,
        callbackUrlRefused: false,
        webhooksLive: true,
        // The probe through the public URL is not a merchant event.
        events: { received: 0, duplicates: 0, rejected: 0 },
        catchUp: { running: false, pending: false, lastError: null },
      });
      expect(callbackUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/hooks/[A-Za-z0-9_-]{43}$`));
      expect(kit.events.health().pathVerifiedAt).not.toBeNull();

      // A real order: the sandbox's deliveries (order.changed twice, the credentials, and the
      // product.changed of its stock, the order having subscribed the product) count as received.
      const [card] = products;
      if (card === undefined) throw new Error('no orderable card');
      // No URL given: core puts the live one on the new order (the account has no default address,
      // so every delivery below proves it).
      const ref = await placeOrder(kit, card.productRef, null);
      const merchantEvents = (): number => kit.processed.filter((p) => p.eventType !== 'procuredesk.path-check').length;
      await waitFor(() => storedOrderState(kit, ref) === 'completed' && merchantEvents() >= 3, 'the order events to be processed', 20_000);
      const delivered = (await deliveriesTo(sandbox, callbackUrl)).filter((d) => d.ok);
      expect(delivered.filter((d) => d.eventType.startsWith('order.')).map((d) => d.eventType).sort()).toEqual(['order.changed', 'order.changed', 'order.credentials.ready']);
      await waitFor(() => merchantEvents() === delivered.length, 'every delivery to be processed');
      const received = delivered.length;
      expect(kit.events.health().events).toEqual({ received, duplicates: 0, rejected: 0 });
      const lastEventAt = kit.events.health().lastEventAt ?? 0;
      expect(lastEventAt).toBeGreaterThan(kit.clock.nowMs() - 60_000);

      // A duplicate, a malformed body, a wrong content type and a wrong path.
      const unknown = JSON.stringify({ eventId: 'evt_health_1', eventType: 'shipment.created', occurredAt: 1_790_000_000 });
      expect((await post(callbackUrl, unknown)).status).toBe(200);
      expect((await post(callbackUrl, unknown)).status).toBe(200);
      expect((await post(callbackUrl, '{"eventId": ')).status).toBe(400);
      expect((await post(callbackUrl, unknown, 'text/plain')).status).toBe(415);
      expect((await post(callbackUrl.replace(/\/hooks\/.*/, '/hooks/guess'), unknown)).status).toBe(404);
      expect(kit.events.health().events).toEqual({ received: received + 1, duplicates: 1, rejected: 3 });
      expect(kit.events.health().lastEventAt ?? 0).toBeGreaterThanOrEqual(lastEventAt);

      await kit.events.stop();
      expect(kit.events.health()).toMatchObject({
        receiver: { up: false },
        tunnel: { up: false, publicUrl: null },
        callbackUrl: null,
        webhooksLive: false,
        events: { received: received + 1, duplicates: 1, rejected: 3 },
      });
    } finally {
      await kit.close();
    }
  }, 60_000);

  it('a merchant that refuses the URL (only public HTTPS): reported, not given to orders, not live, not retried in a loop', async () => {
    const strict = await startSandbox(['--time-scale', String(SCALE), '--callback-policy', 'strict']);
    const kit = await createEventsKit(strict, { scale: SCALE, ttlSeconds: TTL });
    try {
      kit.events.watch([(await controlProducts(strict, 1))[0]?.productRef ?? 0]);
      const { callbackUrl } = await kit.events.start();
      await kit.events.settled();
      expect(subscriptionCalls(kit.exchanges)).toEqual([expect.objectContaining({ callbackUrl, status: 422 })]);
      expect(kit.events.callbackUrl()).toBeNull();
      expect(kit.events.webhooksLive()).toBe(false);
      expect(readLiveCallbackRecord(kit.core.db)).toBeNull();
      expect(kit.events.health()).toMatchObject({
        callbackUrl,
        callbackUrlRefused: true,
        webhooksLive: false,
        subscriptions: { watched: 1, subscribed: 0, lastError: expect.stringContaining('422114') as string },
      });
      // Nothing more is sent with a URL the merchant refuses.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(subscriptionCalls(kit.exchanges)).toHaveLength(1);
    } finally {
      await kit.close();
      await strict.stop();
    }
  }, 60_000);
});
