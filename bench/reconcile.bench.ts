// Benchmark (r): reconciliation of 1,000 orders (issue 16). A sandbox account holds 1,000 card orders
// of the day, seeded through the control API (no quota spent on seeding), and the app reconciles the day
// against it over HTTPS with both clocks 10× faster. Two cases:
//   list only: orders placed elsewhere (the app holds none): the list pages alone decide;
//   worst case: 1,000 completed card orders of the app whose vault holds no card (written into its
//     database as if the cards were never stored): every one is in doubt and looked up by GET /orders/{ref}.
// Reports the requests the run sent, the merchant minutes it took (the core clock, never the machine's)
// against the quota bound for those requests (orderRead: 120 a minute, of which background work takes
// at most 114 while leaving the buyer's reserve: contract §8.1.1), and the real seconds.
import { createAppKit, startMerchant } from '../test/core/app/app-kit';
import { goodCard, Catalog } from '../test/support/orders-harness';
import { localDay } from '../src/core/books/reconcile-range';

const ORDERS = 1000;
const TIME_SCALE = 10;
/** What background work may take of orderRead's 120 a minute (a twentieth left to the buyer). */
const BACKGROUND_PER_MINUTE = 114;

interface SeededOrder {
  clientOrderRef: string;
  platformOrderRef: string;
  productRef: number;
  unitPrice: number;
  totalAmount: number;
  createdAt: number;
}

async function scenario(worstCase: boolean): Promise<string> {
  // Core's clock first: the sandbox's, started later, runs behind it, so every order seeded is in the past for core.
  const kit = await createAppKit(TIME_SCALE);
  const merchant = await startMerchant({ timeScale: TIME_SCALE, autoAdvance: false, products: 40 });
  try {
    const account = await merchant.newAccount('1000000');
    const catalog = new Catalog(await merchant.products());
    const pick = catalog.find((p, v) => goodCard(p, v) && p.variants.length === 1, 'a single-variant card product');
    const seeded: SeededOrder[] = [];
    for (let i = 0; i < ORDERS; i++) {
      const ref = `BENCH-${worstCase ? 'W' : 'L'}-${i}`;
      seeded.push(await merchant.control<SeededOrder>('POST', `/control/accounts/${account.userId}/orders`, { clientOrderRef: ref, productRef: pick.product.productRef, units: 1 }));
      if (worstCase) {
        await merchant.advance(ref, 'processing');
        await merchant.advance(ref, 'completed');
      }
    }
    if (worstCase) {
      const now = Math.floor(kit.core.clock.nowMs() / 1000);
      const intent = kit.core.db.prepare("INSERT INTO order_intents (client_order_ref, product_ref, product_type, units, status, created_at, updated_at) VALUES (?, ?, 'card', 1, 'accepted', ?, ?)");
      const order = kit.core.db.prepare(
        "INSERT INTO orders (client_order_ref, platform_order_ref, product_ref, variant_ref, product_type, units, unit_price_fen, total_fen, state, revision, created_at, updated_at, detail_json, fetched_at) VALUES (?, ?, ?, 0, 'card', 1, ?, ?, 'completed', 3, ?, ?, '{}', ?)",
      );
      kit.core.db.transaction(() => {
        for (const o of seeded) {
          intent.run(o.clientOrderRef, o.productRef, o.createdAt, o.createdAt);
          order.run(o.clientOrderRef, o.platformOrderRef, o.productRef, Math.round(o.unitPrice * 100), Math.round(o.totalAmount * 100), o.createdAt, now, now);
        }
      })();
    }
    await kit.app.start();
    await kit.ok('connection.connect', { baseUrl: merchant.sandbox.baseUrl, userId: account.userId, apiKey: account.apiKey, caCertPem: merchant.caCertPem });
    const services = await kit.core.merchant();
    const startedMs = kit.core.clock.nowMs();
    const realStart = performance.now();
    const report = await services.reconciliation.run({ fromDay: localDay(startedMs) });
    const merchantMs = kit.core.clock.nowMs() - startedMs;
    const realMs = performance.now() - realStart;
    const pages = report.pagesRead;
    // Requests beyond the first window's share wait for slots to age out: at least this long.
    const boundMinutes = Math.max(0, Math.ceil(report.requests / BACKGROUND_PER_MINUTE) - 1);
    const what = worstCase ? 'worst case, every card count in doubt' : 'list only, all placed elsewhere';
    return `reconciliation of ${report.totals.merchantOrders} orders (${what}): ${report.requests} requests (${pages} list pages of 100, ${report.requests - pages} look-ups) in ${(merchantMs / 60_000).toFixed(2)} merchant min (quota bound for ${report.requests} orderRead requests at ${BACKGROUND_PER_MINUTE}/min: >= ${boundMinutes} min), ${(realMs / 1000).toFixed(1)} s real at --time-scale ${TIME_SCALE}; ${report.differences.length} differences`;
  } finally {
    await kit.close();
    await merchant.stop();
  }
}

export async function benchReconcile(): Promise<{ lines: string[] }> {
  return { lines: [await scenario(false), await scenario(true)] };
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
