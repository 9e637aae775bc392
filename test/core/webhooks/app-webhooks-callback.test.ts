// An order's callback follows the current receiver as far as the interface allows. The merchant keeps
// the callback address an order got at its first submission (interface v1 §4.2 rule 1, §6.1; contract
// "callbackUrl"), so: (1) with the receiver's port left free, a key replacement restarts the webhook
// side on the same port and path, and an order placed before it still gets its webhooks at the current
// receiver (the sandbox's deliveries say where they went); (2) when the address does change (another
// port chosen), the open order is counted in the health view as polled, and still completes by polling.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goodCard, fen, type Catalog } from '../../support/orders-harness';
import { openConnectedApp, orderDetailWhen, waitFor, type AppKit, type Merchant } from '../app/app-kit';
import { createServer } from 'node:net';

const SCALE = 20;
let merchant: Merchant;
let kit: AppKit;
let catalog: Catalog;
let account: { userId: string; apiKey: string };

interface Delivery {
  eventType: string;
  url: string;
  ok: boolean;
}

beforeAll(async () => {
  ({ merchant, kit, catalog, account } = await openConnectedApp(SCALE, { autoAdvance: false }));
  await kit.ok('settings.set', { webhookTunnel: 'loopback', webhookPort: 0 });
}, 60_000);

afterAll(async () => {
  await kit?.close();
  await merchant?.stop();
});

const liveHealth = () =>
  waitFor('the receiver up and verified', async () => {
    const h = await kit.ok('events.health');
    return h.receiverUp && h.webhooksLive && h.callbackUrl !== null ? h : null;
  });

async function placeAccepted(): Promise<string> {
  const pick = catalog.claim((p, v) => goodCard(p, v), 'card that is supplied');
  const variantRef = pick.product.variants.length > 1 ? pick.variant.variantRef : 0;
  const placed = await kit.ok('orders.place', { productRef: pick.product.productRef, variantRef, units: 1, unitPriceFen: fen(pick.variant.price) });
  await orderDetailWhen(kit, placed.clientOrderRef, 'acceptance', (d) => d.intentStatus === 'accepted' && d.state === 'pending');
  return placed.clientOrderRef;
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

describe('an order placed before the receiver restarted', () => {
  it('a replaced key restarts the receiver on the same port and path: the earlier order gets its webhooks there', async () => {
    const before = await liveHealth();
    const ref = await placeAccepted();
    const rotated = await merchant.control<{ apiKey: string }>('POST', `/control/accounts/${account.userId}/rotate-key`);
    kit.secrets.push(rotated.apiKey);
    await kit.ok('connection.replaceKey', { apiKey: rotated.apiKey });
    const after = await liveHealth();
    expect(after.callbackUrl).toBe(before.callbackUrl);
    expect(after.ordersPolledElsewhere).toBe(0);

    await merchant.advance(ref, 'processing');
    const delivered = await waitFor('the order.changed delivery', async () => {
      const all = await merchant.control<Delivery[]>('GET', '/control/deliveries');
      return all.find((d) => d.eventType === 'order.changed' && d.ok) ?? null;
    });
    expect(delivered.url).toBe(after.callbackUrl);
    await waitFor('the webhook counted', async () => ((await kit.ok('events.health')).received > 0 ? true : null));
    // The last-received time and the count come from the same events: both set now.
    expect((await kit.ok('events.health')).lastEventAt).not.toBeNull();
    await merchant.advance(ref, 'completed');
    await orderDetailWhen(kit, ref, 'completion', (d) => d.state === 'completed');
  }, 90_000);

  it('a new callback address: the open order placed with the earlier one is counted as polled, and completes by polling', async () => {
    const first = await liveHealth();
    const ref = await placeAccepted();
    await kit.ok('settings.set', { webhookTunnel: 'loopback', webhookPort: await freePort() });
    const moved = await waitFor('the receiver on its new port', async () => {
      const h = await kit.ok('events.health');
      return h.receiverUp && h.callbackUrl !== null && h.callbackUrl !== first.callbackUrl ? h : null;
    });
    expect(moved.mode).toBe('webhooks');
    expect(moved.ordersPolledElsewhere).toBe(1);
    await merchant.advance(ref, 'processing');
    await merchant.advance(ref, 'completed');
    await orderDetailWhen(kit, ref, 'completion by polling', (d) => d.state === 'completed');
    expect((await kit.ok('events.health')).ordersPolledElsewhere).toBe(0);
  }, 90_000);

  it('polling mode is its own mode, with no receiver or webhook counts to show', async () => {
    await kit.ok('settings.set', { webhookTunnel: 'off' });
    const h = await waitFor('the webhook side stopped', async () => {
      const view = await kit.ok('events.health');
      return view.receiverUp ? null : view;
    });
    expect(h).toMatchObject({ mode: 'polling', lastEventAt: null, received: 0, ordersPolledElsewhere: 0 });
  }, 60_000);
});
