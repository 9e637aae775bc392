// Polling as the safety net for watched products: with no webhook path a change on the merchant
// reaches the cache by a detail read within the interval; while webhooks are live the poll is rare,
// and once they stop working it reads again soon. Against the sandbox over HTTPS, SQLite on disk.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProductWatchStore } from '../../../src/core/webhooks/product-watch-store';
import { createWatchedProductPoll } from '../../../src/core/webhooks/watched-product-poll';
import { changeProduct, controlProducts, isOrderableCard, type ControlProduct } from '../../support/control-catalog';
import { startSandbox, type RunningSandbox } from '../../support/sandbox-process';
import { createEventsKit, waitFor, type EventsKit } from './service-kit';

const SCALE = 20;
let sandbox: RunningSandbox;
let products: ControlProduct[];
let kit: EventsKit;

beforeAll(async () => {
  sandbox = await startSandbox(['--time-scale', String(SCALE)]);
  products = (await controlProducts(sandbox, 200)).filter(isOrderableCard);
  kit = await createEventsKit(sandbox, { scale: SCALE, ttlSeconds: 604_800 });
}, 60_000);

afterAll(async () => {
  await kit?.close();
  await sandbox?.stop();
});

const detailReads = (productRef: number): number => kit.exchanges.filter((e) => e.method === 'GET' && new URL(e.url).pathname.endsWith(`/goods/${productRef}`)).length;
const cached = (productRef: number): { revision: number; availability: string } | undefined =>
  kit.core.db.prepare<[number], { revision: number; availability: string }>('SELECT revision, availability FROM products WHERE product_ref = ?').get(productRef);

describe('watched-product poll', () => {
  it('reads watched products by detail while no webhook path works, rarely while webhooks are live', async () => {
    const [one, two] = products;
    if (one === undefined || two === undefined) throw new Error('no orderable cards');
    const watches = createProductWatchStore(kit.core.db);
    watches.add([one.productRef, two.productRef], Math.floor(kit.clock.nowMs() / 1000));
    let live = false;
    // 20 s / 30 min of sandbox time: 1 s / 90 s real at this scale. Two products stay inside the budget.
    const poll = createWatchedProductPoll({
      watches,
      client: kit.services.client,
      catalog: kit.core.catalog,
      clock: kit.clock,
      logger: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
      webhooksLive: () => live,
      intervalWithoutWebhooksMs: 20_000,
      intervalWithWebhooksMs: 30 * 60_000,
    });
    poll.start();
    try {
      // The first read fills the cache at once.
      await waitFor(() => cached(one.productRef) !== undefined && cached(two.productRef) !== undefined, 'the first read');
      const change = await changeProduct(sandbox, one.productRef, { availability: 'unavailable' });
      await waitFor(() => cached(one.productRef)?.availability === 'unavailable', 'the change read by the poll', 15_000);
      expect(cached(one.productRef)?.revision).toBe(change.revision);

      // Webhooks live: no read for many "without" intervals.
      live = true;
      const readsWhileLive = detailReads(one.productRef);
      await changeProduct(sandbox, one.productRef, { availability: 'available' });
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      expect(detailReads(one.productRef)).toBe(readsWhileLive);
      expect(cached(one.productRef)?.availability).toBe('unavailable');

      // The webhook path broke: the next read comes within a "without" interval and the sleep cap.
      live = false;
      await waitFor(() => cached(one.productRef)?.availability === 'available', 'a read soon after webhooks stopped', 15_000);
    } finally {
      await poll.stop();
    }
  }, 60_000);

  it('runs among the merchant services\' workers', async () => {
    expect(kit.services.watchedProducts.lastPolledAt()).toBeNull();
    kit.services.startWorkers();
    try {
      await waitFor(() => kit.services.watchedProducts.lastPolledAt() !== null, 'the services\' poll to read the watched products');
    } finally {
      await kit.services.stopWorkers();
    }
  }, 30_000);
});
