// A catalog sync against the sandbox with the buyer's requests made during it, wired as core wires them:
// one quota model for the key, the sync's client and the buyer's client with the priorities of
// request-priority.ts. Each buyer request's wait is measured in merchant time (the scaled clock): from
// the call to the moment its first attempt is handed to the transport. Shared by the priority test
// (test/core/merchant/buyer-first.sandbox.test.ts) and bench/interactive-latency.bench.ts.
import { runCatalogSync, type CatalogSyncSummary } from '../../src/core/catalog/catalog-sync';
import type { CatalogRepository } from '../../src/core/catalog/catalog-repository';
import type { Logger } from '../../src/core/logging/logger';
import type { HttpPort } from '../../src/core/merchant/http-port';
import { createMerchantClient, type MerchantClient } from '../../src/core/merchant/merchant-client';
import { createNodeHttpsPort } from '../../src/core/merchant/node-https-port';
import { createQuotaModel } from '../../src/core/merchant/quota-model';
import { CALLER_PRIORITY } from '../../src/core/merchant/request-priority';
import { createRequestSender } from '../../src/core/merchant/request-sender';
import { createScaledClock, type Clock } from '../../src/core/platform/clock';
import { controlProducts } from './control-catalog';
import { control } from './merchant-http';
import type { RunningSandbox } from './sandbox-process';

const silent: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** One buyer request of the schedule: a product opened, or a template fetched (an order dialog). */
export type BuyerRequest = 'product' | 'template';

export interface BuyerLoad {
  /** Merchant ms after the sync starts at which each request is made, in order. */
  readonly atMs: readonly number[];
  /** What each request is, in the same order. */
  readonly kinds: readonly BuyerRequest[];
}

export interface BuyerWait {
  readonly kind: BuyerRequest;
  /** Merchant ms after the sync's start when the buyer asked. */
  readonly askedAtMs: number;
  /** Merchant ms from the call to the first attempt leaving for the merchant. */
  readonly waitMs: number;
}

export interface SyncUnderLoad {
  readonly summary: CatalogSyncSummary;
  /** Merchant ms the sync took. */
  readonly syncMs: number;
  /** Every request that went over the wire (sync and buyer), and how many met a 429. */
  readonly requests: number;
  readonly tooMany: number;
  readonly waits: readonly BuyerWait[];
}

/**
 * `n` buyer requests spread evenly over `spanMs` of merchant time, by a fixed pattern: of every
 * seven, five product opens and two template fetches (50 + 20 for n = 70).
 */
export function evenBuyerLoad(n: number, spanMs: number): BuyerLoad {
  const atMs = Array.from({ length: n }, (_, i) => Math.round(((i + 1) * spanMs) / (n + 1)));
  const kinds = atMs.map((_, i): BuyerRequest => (i % 7 === 2 || i % 7 === 5 ? 'template' : 'product'));
  return { atMs, kinds };
}

interface Target {
  productRef: number;
  variantRef: number | null;
}

/** Products to open and variants whose template to fetch, from the sandbox's control view. */
async function targetsOf(sandbox: RunningSandbox): Promise<Target[]> {
  const products = await controlProducts(sandbox, 5000);
  return products.flatMap((p) => p.variants.slice(0, 1).map((v) => ({ productRef: p.productRef, variantRef: v.variantRef === 0 ? null : v.variantRef })));
}

export interface SyncUnderLoadOptions {
  readonly sandbox: RunningSandbox;
  /** The sandbox's --time-scale. */
  readonly scale: number;
  readonly repository: (clock: Clock) => CatalogRepository;
  readonly load: BuyerLoad;
}

export async function syncUnderLoad(options: SyncUnderLoadOptions): Promise<SyncUnderLoad> {
  // A fresh account: its quota windows start empty, as the model's do.
  const account = await control<{ userId: string; apiKey: string }>(options.sandbox, 'POST', '/control/accounts', { balance: '1000' });
  const targets = await targetsOf(options.sandbox);
  const clock = createScaledClock(options.scale);
  const https = createNodeHttpsPort({ ca: options.sandbox.ca });
  let requests = 0;
  let tooMany = 0;
  const counted: HttpPort = async (request) => {
    requests += 1;
    const response = await https(request);
    if (response.status === 429) tooMany += 1;
    return response;
  };
  const common = { baseUrl: options.sandbox.baseUrl, credentials: () => Promise.resolve(account), quota: createQuotaModel(clock), clock, logger: silent };
  const syncClient = createMerchantClient(createRequestSender({ ...common, http: counted }), undefined, CALLER_PRIORITY.catalogSync);
  /** The buyer's client for one call, whose transport notes when the call's first attempt leaves. */
  const buyerClient = (sent: (atMs: number) => void): MerchantClient =>
    createMerchantClient(
      createRequestSender({
        ...common,
        http: (request) => {
          sent(clock.nowMs());
          return counted(request);
        },
      }),
      undefined,
      CALLER_PRIORITY.buyer,
    );
  const start = clock.nowMs();
  const waits: BuyerWait[] = [];
  const ask = async (kind: BuyerRequest, target: Target): Promise<void> => {
    const askedAt = clock.nowMs();
    let firstSent: number | null = null;
    const client = buyerClient((at) => {
      firstSent ??= at;
    });
    if (kind === 'product') await client.getProduct(target.productRef);
    else await client.getTemplate(target.productRef, target.variantRef);
    if (firstSent === null) throw new Error('a buyer request was answered without being sent');
    waits.push({ kind, askedAtMs: askedAt - start, waitMs: firstSent - askedAt });
  };
  const buyer = (async (): Promise<void> => {
    const calls: Promise<void>[] = [];
    for (const [i, atMs] of options.load.atMs.entries()) {
      const due = start + atMs - clock.nowMs();
      if (due > 0) await clock.sleep(due);
      const target = targets[(i * 7) % targets.length];
      const kind = options.load.kinds[i];
      if (target === undefined || kind === undefined) throw new Error('no product to ask for');
      // Made at its time whatever the earlier ones are doing, as a buyer clicking would.
      calls.push(ask(kind, target));
    }
    await Promise.all(calls);
  })();
  try {
    const summary = await runCatalogSync({ repository: options.repository(clock), client: syncClient, clock, templates: 'wanted' });
    const syncMs = clock.nowMs() - start;
    await buyer;
    return { summary, syncMs, requests, tooMany, waits };
  } finally {
    await buyer.catch(() => undefined);
    https.close();
  }
}

/** The p-th percentile (0–100) of the values, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] ?? Number.NaN;
}
