// Benchmark (a): a full catalog sync of a 1,000-product sandbox under the real quotas, both clocks
// 10× faster, compared with the lower bound the quotas imply for the requests it had to make.
//
// Why 10× and not faster: the client stamps a quota slot with the time its answer arrived (a safe
// choice: the merchant saw the request no later), so every quota minute costs one round trip more.
// At the real clock that is ~30 ms a minute; a faster clock multiplies the round trip into sandbox
// time (60× turns 30 ms into 1.8 s, 3% of every minute), which measures the bench, not the app.
//
// The bound: a group with a quota of q requests per sliding minute accepts its first q requests at
// once; every further q need one more minute to pass, so n requests of that group cannot finish in
// less than (n - q) / q minutes (0 when n <= q). The total quota (600/min over all endpoints)
// gives the same formula with q = 600. The sync can be no faster than the strictest of these:
//   bound = max over groups g of max(0, (n_g - q_g) / q_g), and max(0, (n - 600) / 600), in minutes.
// Burst limits (30/s total) only matter for the first second and are left out, which keeps the
// bound a true lower bound.
import { runCatalogSync } from '../src/core/catalog/catalog-sync';
import { createCatalogRepository } from '../src/core/catalog/catalog-repository';
import type { HttpPort } from '../src/core/merchant/http-port';
import { createMerchantClient } from '../src/core/merchant/merchant-client';
import { createNodeHttpsPort } from '../src/core/merchant/node-https-port';
import { createQuotaModel } from '../src/core/merchant/quota-model';
import { createRequestSender } from '../src/core/merchant/request-sender';
import { createScaledClock } from '../src/core/platform/clock';
import { GROUP_QUOTAS, MINUTE_WINDOW_MS, TOTAL_QUOTA, type QuotaGroup } from '../src/shared/merchant-quotas';
import { startSandbox } from '../test/support/sandbox-process';
import { createBenchDatabase } from './bench-database';

export const PRODUCTS = 1000;
const TIME_SCALE = 10;
const GOAL_RATIO = 1.05;

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** The quota group of an interface path (contract 8), for the bound. */
function groupOf(pathname: string): QuotaGroup {
  if (pathname.endsWith('/account') || pathname.endsWith('/categories')) return 'account';
  if (pathname.includes('/goods/subscriptions')) return 'subscriptions';
  if (pathname.includes('/goods/')) return 'catalog';
  throw new Error(`unexpected request during a sync: ${pathname}`);
}

/** Minutes the quotas force for these requests (see the comment at the top). */
export function quotaBoundMinutes(perGroup: ReadonlyMap<QuotaGroup, number>): number {
  let bound = 0;
  let total = 0;
  for (const [group, n] of perGroup) {
    const q = GROUP_QUOTAS[group].perMinute;
    bound = Math.max(bound, Math.max(0, (n - q) / q));
    total += n;
  }
  return Math.max(bound, Math.max(0, (total - TOTAL_QUOTA.perMinute) / TOTAL_QUOTA.perMinute));
}

export async function benchCatalogSync(): Promise<{ lines: string[]; ratio: number }> {
  const sandbox = await startSandbox(['--products', String(PRODUCTS), '--time-scale', String(TIME_SCALE)]);
  const target = createBenchDatabase('sync');
  const clock = createScaledClock(TIME_SCALE);
  const https = createNodeHttpsPort({ ca: sandbox.ca });
  const perGroup = new Map<QuotaGroup, number>();
  let requests = 0;
  let tooMany = 0;
  const port: HttpPort = async (request) => {
    requests += 1;
    const group = groupOf(new URL(request.url).pathname);
    perGroup.set(group, (perGroup.get(group) ?? 0) + 1);
    const response = await https(request);
    if (response.status === 429) tooMany += 1;
    return response;
  };
  try {
    const client = createMerchantClient(
      createRequestSender({
        baseUrl: sandbox.baseUrl,
        credentials: () => Promise.resolve({ userId: sandbox.userId, apiKey: sandbox.apiKey }),
        http: port,
        quota: createQuotaModel(clock),
        clock,
        logger: silent,
      }),
    );
    const repository = createCatalogRepository(target.db, clock);
    const started = clock.nowMs();
    const realStarted = performance.now();
    const summary = await runCatalogSync({ repository, client, clock });
    const minutes = (clock.nowMs() - started) / MINUTE_WINDOW_MS;
    const realSeconds = (performance.now() - realStarted) / 1000;
    const bound = quotaBoundMinutes(perGroup);
    const ratio = minutes / bound;
    const counts = repository.counts();
    const groups = [...perGroup].map(([g, n]) => `${g} ${n}`).join(', ');
    return {
      ratio,
      lines: [
        `catalog sync: ${counts.products} products, ${requests} requests, ${minutes.toFixed(2)} min sandbox time, bound ${bound.toFixed(2)} min, ratio ${ratio.toFixed(3)} (goal <= ${GOAL_RATIO}: ${ratio <= GOAL_RATIO ? 'met' : 'MISSED'}), 429s ${tooMany} (goal 0)`,
        `  requests by group: ${groups}; ${counts.variants} variants, ${counts.templates} templates, ${summary.detailsFetched} details; ${realSeconds.toFixed(1)} s real at --time-scale ${TIME_SCALE}`,
      ],
    };
  } finally {
    https.close();
    target.dispose();
    await sandbox.stop();
  }
}
