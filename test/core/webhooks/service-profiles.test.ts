// Two merchant profiles' webhook services on one listener (contract §15.3), wired as the app wires a
// profile: each its own core (own data folder, SQLite database and card cipher), its own sandbox
// account, its own loopback tunnel, and the same WebhookListener. Each callback URL is the shared port
// + that profile's own path; the merchant's webhook for profile A's order reaches A's database only,
// B's order B's only; and A stopping leaves B receiving. Orders move only when the test says so
// (--auto-advance off) and the tracker is not running, so only a webhook can bring them up to date.
// Last, a profile's webhook side rebuilt by webhookFactoryFromSettings with the listener comes back on it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedactingLogger } from '../../../src/core/logging/redacting-logger';
import { webhookFactoryFromSettings } from '../../../src/core/webhooks/webhook-from-settings';
import { createWebhookListener, type WebhookListener } from '../../../src/core/webhooks/webhook-listener';
import { controlProducts, isOrderableCard, type ControlProduct } from '../../support/control-catalog';
import { control } from '../../support/merchant-http';
import { startSandbox, type RunningSandbox } from '../../support/sandbox-process';
import { createEventsKit, deliveriesTo, placeOrder, storedOrderState, waitFor, type EventsKit } from './service-kit';

const SCALE = 20;
const TTL = 604_800;

const kits: EventsKit[] = [];
let sandbox: RunningSandbox;
let card: ControlProduct;
/** The one listener of both profiles, and the port it had (tried first when it listens again). */
let listener: WebhookListener;
let lastPort: number | null = null;

beforeAll(async () => {
  sandbox = await startSandbox(['--time-scale', String(SCALE), '--auto-advance', 'off']);
  const first = (await controlProducts(sandbox, 200)).find(isOrderableCard);
  if (first === undefined) throw new Error('no orderable card in the sandbox catalog');
  card = first;
  // As a host would: the port it had last is tried first when it listens again.
  listener = createWebhookListener({ logger: new RedactingLogger({ sink: () => undefined, level: 'error' }), preferredPort: () => lastPort });
}, 60_000);

afterAll(async () => {
  for (const kit of kits) await kit.close();
  await listener?.close();
  await sandbox?.stop();
});

/** Inbox rows of this profile's database whose body names `clientOrderRef`. */
function inboxEventsFor(kit: EventsKit, clientOrderRef: string): string[] {
  return kit.core.db
    .prepare<[string], string>("SELECT event_type FROM webhook_inbox WHERE instr(body_json, ?) > 0 ORDER BY event_type")
    .pluck()
    .all(`"${clientOrderRef}"`);
}

function orderRows(kit: EventsKit, clientOrderRef: string): number {
  return kit.core.db.prepare<[string], number>('SELECT count(*) FROM orders WHERE client_order_ref = ?').pluck().get(clientOrderRef) ?? 0;
}

describe('two profiles, one webhook listener', () => {
  it("a webhook for profile A's order reaches A's database only, B's order B's only, and A stopping leaves B receiving", async () => {
    const a = await createEventsKit(sandbox, { scale: SCALE, ttlSeconds: TTL, listener });
    kits.push(a);
    const b = await createEventsKit(sandbox, { scale: SCALE, ttlSeconds: TTL, listener });
    kits.push(b);
    expect(a.account.userId).not.toBe(b.account.userId);

    const urlA = (await a.events.start()).callbackUrl;
    const urlB = (await b.events.start()).callbackUrl;
    await Promise.all([a.events.settled(), b.events.settled()]);
    // One port, two paths: the listener's port behind each profile's own tunnel.
    const port = listener.port();
    lastPort = port;
    expect(new URL(urlA).port).toBe(String(port));
    expect(new URL(urlB).port).toBe(String(port));
    expect(new URL(urlA).pathname).not.toBe(new URL(urlB).pathname);
    expect(listener.stats().routes).toBe(2);
    // Each profile's probe through its public URL came back to its own receiver.
    expect(a.events.health().pathVerifiedAt).not.toBeNull();
    expect(b.events.health().pathVerifiedAt).not.toBeNull();
    expect(a.events.webhooksLive() && b.events.webhooksLive()).toBe(true);

    const refA = await placeOrder(a, card.productRef, a.events.callbackUrl());
    const refB = await placeOrder(b, card.productRef, b.events.callbackUrl());
    expect([orderRows(a, refB), orderRows(b, refA)]).toEqual([0, 0]);

    // A's order moves at the merchant: the webhook goes to A's URL and only A learns of it.
    await control(sandbox, 'POST', `/control/orders/${refA}/advance`, { to: 'processing' });
    await waitFor(() => storedOrderState(a, refA) === 'processing', "A's order to reach processing through its webhook");
    expect((await deliveriesTo(sandbox, urlA)).some((d) => d.eventType === 'order.changed' && d.ok)).toBe(true);
    expect(inboxEventsFor(a, refA)).toContain('order.changed');
    expect(inboxEventsFor(b, refA)).toEqual([]);
    expect(orderRows(b, refA)).toBe(0);
    expect(storedOrderState(b, refB)).toBe('pending');

    // And B's order reaches B only.
    await control(sandbox, 'POST', `/control/orders/${refB}/advance`, { to: 'processing' });
    await waitFor(() => storedOrderState(b, refB) === 'processing', "B's order to reach processing through its webhook");
    expect(inboxEventsFor(a, refB)).toEqual([]);
    expect(orderRows(a, refB)).toBe(0);

    // A stops (its path unmounted); the listener stays up for B, and B still receives.
    const receivedByA = a.events.health().events.received;
    await a.events.stop();
    expect(listener.stats()).toMatchObject({ listening: true, port, routes: 1 });
    await control(sandbox, 'POST', `/control/orders/${refB}/advance`, { to: 'completed' });
    await waitFor(() => storedOrderState(b, refB) === 'completed', "B's order to complete through its webhook while A is stopped");
    expect(inboxEventsFor(b, refB)).toEqual(expect.arrayContaining(['order.changed', 'order.credentials.ready']));
    expect(inboxEventsFor(a, refB)).toEqual([]);
    expect(a.events.health().events.received).toBe(receivedByA);

    // B's webhook side rebuilt from the settings with the same listener: it closed when B stopped (no
    // profile mounted), listens again on the same port, and B's path is the one its earlier order has.
    await b.services.detachWebhooks();
    expect(listener.stats()).toMatchObject({ listening: false, routes: 0 });
    const factory = webhookFactoryFromSettings({ webhookTunnel: 'loopback', webhookPort: 0 }, listener);
    if (factory === null) throw new Error('loopback is a webhook choice');
    const rebuilt = b.services.attachWebhooks(factory);
    expect((await rebuilt.start()).callbackUrl).toBe(urlB);
    await rebuilt.settled();
    expect(rebuilt.health().pathVerifiedAt).not.toBeNull();
    expect(listener.stats()).toMatchObject({ listening: true, port, routes: 1 });
    await rebuilt.stop();
  }, 60_000);
});
