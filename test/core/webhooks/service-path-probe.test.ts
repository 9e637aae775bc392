// A path that breaks while the tunnel says it is up: a user-run reverse proxy (the `url:` tunnel)
// that stops forwarding. Only the probe through the public URL can see it. The merchant's sends fail
// meanwhile and three failed product.changed sends cancel the subscription (interface v1 §6.4.6–8), so when a
// probe comes back the service must subscribe again and catch up, exactly as after a tunnel outage;
// while it is broken, webhooks are not counted as live.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tunnel } from '../../../src/core/webhooks/tunnels/tunnel';
import { TunnelState } from '../../../src/core/webhooks/tunnels/tunnel-state';
import { changeProduct, controlProducts, isOrderableCard, type ControlProduct } from '../../support/control-catalog';
import { startSandbox, type RunningSandbox } from '../../support/sandbox-process';
import { createEventsKit, deliveriesTo, subscribedOnMerchant, subscriptionCalls, waitFor } from './service-kit';

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

/** A reverse proxy on loopback in front of the receiver that the test can break (502) and mend. */
interface ProxyTunnel extends Tunnel {
  broken: boolean;
}

function proxyTunnel(): ProxyTunnel {
  const state = new TunnelState('url', { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined });
  let server: Server | null = null;
  const tunnel: ProxyTunnel = {
    kind: 'url',
    broken: false,
    async start(localPort) {
      server = createServer((req, res) => {
        if (tunnel.broken) {
          req.resume();
          res.writeHead(502, { 'content-type': 'text/plain' }).end('Bad Gateway');
          return;
        }
        const upstream = request({ host: '127.0.0.1', port: localPort, method: req.method, path: req.url, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        upstream.on('error', () => res.writeHead(502).end());
        req.pipe(upstream);
      });
      const listening = server;
      await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
      const base = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
      state.update({ up: true, publicUrl: base, lastError: null });
      return base;
    },
    async stop() {
      const closing = server;
      server = null;
      if (closing !== null) {
        closing.closeAllConnections();
        await new Promise<void>((resolve) => closing.close(() => resolve()));
      }
      state.update({ up: false, publicUrl: null });
    },
    status: () => state.snapshot(),
    onChange: (listener) => state.subscribe(listener),
  };
  return tunnel;
}

describe('a path that breaks behind a tunnel that stays up', () => {
  it('a failed probe ends "live"; when the probe comes back, watched products are subscribed again and caught up', async () => {
    const proxy = proxyTunnel();
    // Core clock ms (20× faster): a probe after 3 s of real silence, again every 3 s while failing.
    const kit = await createEventsKit(sandbox, { scale: SCALE, ttlSeconds: TTL, service: { tunnel: () => proxy, verifyEveryMs: 60_000, liveWindowMs: 30_000 } });
    try {
      const watched = products[0]?.productRef;
      if (watched === undefined) throw new Error('no orderable product');
      kit.events.watch([watched]);
      const { callbackUrl } = await kit.events.start();
      await kit.events.settled();
      await waitFor(() => kit.events.health().pathVerifiedAt !== null, 'the first probe to come back');
      expect(kit.events.webhooksLive()).toBe(true);
      expect(await subscribedOnMerchant(sandbox, kit.account)).toContain(watched);
      const catchUps = (): number => kit.logLines.filter((line) => line.includes('catch-up finished')).length;
      const catchUpsBefore = catchUps();
      const callsBefore = subscriptionCalls(kit.exchanges).length;

      // The proxy stops forwarding; the tunnel still says up with the same URL.
      proxy.broken = true;
      const change = await changeProduct(sandbox, watched, { availability: 'unavailable' });
      const allFailed = async (): Promise<boolean> =>
        (await deliveriesTo(sandbox, callbackUrl)).some((d) => d.eventType === 'product.changed' && d.attempt === 3 && !d.ok);
      await waitFor(allFailed, 'three failed sends of product.changed', 15_000);
      expect(await subscribedOnMerchant(sandbox, kit.account)).not.toContain(watched);
      await waitFor(() => kit.events.health().pathVerifiedAt === null, 'a probe to fail', 15_000);
      expect(kit.events.webhooksLive()).toBe(false);
      expect(kit.events.health().tunnel.up).toBe(true);
      expect(kit.events.callbackUrl()).toBe(callbackUrl);

      // Mended: the next probe comes back, and what was lost is redone.
      proxy.broken = false;
      await waitFor(() => kit.events.health().pathVerifiedAt !== null, 'a probe to come back', 15_000);
      await kit.events.settled();
      expect(subscriptionCalls(kit.exchanges).slice(callsBefore)).toEqual([expect.objectContaining({ productRefs: [watched], callbackUrl, status: 200 })]);
      expect(await subscribedOnMerchant(sandbox, kit.account)).toContain(watched);
      expect(catchUps()).toBe(catchUpsBefore + 1);
      const product = kit.core.db.prepare<[number], { revision: number; availability: string }>('SELECT revision, availability FROM products WHERE product_ref = ?').get(watched);
      expect(product).toEqual({ revision: change.revision, availability: 'unavailable' });
      expect(kit.events.webhooksLive()).toBe(true);
    } finally {
      await kit.events.stop();
      await kit.close();
    }
  }, 90_000);
});
