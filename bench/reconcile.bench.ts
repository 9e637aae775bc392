// Benchmark (r): reconciliation of 1,000 orders (issue 16). A sandbox account holds 1,000 card orders
// of the day, placed in the merchant's own shop (control API, so seeding costs no quota), and the app
// reconciles the day against it over HTTPS with both clocks 10× faster. Reports the requests the run
// sent (list pages of 100, look-ups), the merchant minutes it took (the core clock, never the machine's)
// against the quota bound for those requests (orderRead: 120 a minute, of which background work takes
// at most 114: contract §8.1.1), and the real seconds.
import { createAppKit, startMerchant } from '../test/core/app/app-kit';
import { goodCard, Catalog } from '../test/support/orders-harness';
import { localDay } from '../src/core/books/reconcile-range';

const ORDERS = 1000;
const TIME_SCALE = 10;
/** What background work may take of orderRead's 120 a minute (a twentieth left to the buyer). */
const BACKGROUND_PER_MINUTE = 114;

export async function benchReconcile(): Promise<{ lines: string[] }> {
  // Core's clock first: the sandbox's, started later, runs behind it, so every order seeded is in the past for core.
  const kit = await createAppKit(TIME_SCALE);
  const merchant = await startMerchant({ timeScale: TIME_SCALE, autoAdvance: false, products: 40 });
  try {
    const account = await merchant.newAccount('1000000');
    const catalog = new Catalog(await merchant.products());
    const pick = catalog.find((p, v) => goodCard(p, v) && p.variants.length === 1, 'a single-variant card product');
    for (let i = 0; i < ORDERS; i++) {
      await merchant.control('POST', `/control/accounts/${account.userId}/orders`, { clientOrderRef: `BENCH-${i}`, productRef: pick.product.productRef, units: 1 });
    }
    await kit.app.start();
    await kit.ok('connection.connect', { baseUrl: merchant.sandbox.baseUrl, userId: account.userId, apiKey: account.apiKey, caCertPem: merchant.caCertPem });
    const services = await kit.core.merchant();
    const startedMs = kit.core.clock.nowMs();
    const realStart = performance.now();
    const report = await services.reconciliation.run({ fromDay: localDay(startedMs) });
    const merchantMs = kit.core.clock.nowMs() - startedMs;
    const realMs = performance.now() - realStart;
    const pageRequests = kit.requests.filter((r) => r.method === 'GET' && new URL(r.url).pathname.endsWith('/orders')).length;
    // Requests beyond the first window's share wait for slots to age out: at least this long.
    const boundMinutes = Math.max(0, Math.ceil(report.requests / BACKGROUND_PER_MINUTE) - 1);
    return {
      lines: [
        `reconciliation of ${report.totals.merchantOrders} orders: ${report.requests} requests (${pageRequests} list pages of 100, ${report.requests - pageRequests} look-ups) in ${(merchantMs / 60_000).toFixed(2)} merchant min (quota bound for ${report.requests} orderRead requests at ${BACKGROUND_PER_MINUTE}/min: >= ${boundMinutes} min), ${(realMs / 1000).toFixed(2)} s real at --time-scale ${TIME_SCALE}; ${report.differences.length} differences (all placed elsewhere)`,
      ],
    };
  } finally {
    await kit.close();
    await merchant.stop();
  }
}

if (process.argv[1]?.endsWith('reconcile.bench.ts') === true) {
  benchReconcile().then(
    ({ lines }) => {
      for (const line of lines) console.log(line);
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
