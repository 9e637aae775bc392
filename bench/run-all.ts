// `npm run bench`: every benchmark, one after the other, results as plain lines.
//   (c) snapshot upserts per second, which also fill (b)'s 100,000-product cache
//   (b) search p50/p95 over that cache, with the pinyin index and without it, for the mixed queries
//       and for pinyin queries (`npm run bench -- --search-only` stops after this one)
//   (a) full sync of a 1,000-product sandbox under real quotas, as a ratio to the quota bound
//   (i) the buyer's requests during that sync: their wait in merchant seconds (p95, max), the sync's
//       minutes with and without them
//   (d) webhook acknowledgement latency at 200 events/s with durable storage, then the highest
//       sustained events per second
//   (f) export of 10,000 cards from an on-disk vault to XLSX, ZIP and CSV, key derivation included
//   (h) the connect test's time to each named failure (refused, DNS, TLS, http, 404, 401/403, timeout)
//   (r) reconciliation of 1,000 orders: requests, merchant minutes against the quota bound
//   (j) the preview of a 1,000-row batch file (CSV in GB18030, XLSX), in ms
//   (l) hostile batch files (zip bomb, a million rows, XML entities, 50 MB CSV): each one's outcome
//       and the peak memory of the process reading it
//   (k) catalog.compare's search across two profiles of 50,000 products each, p50/p95
//   (g) the host's event-loop delay while core syncs, exports and takes webhooks at once, with core in
//       the host process and in its own process
import { seedCatalog } from '../src/sandbox/catalog/seed-catalog';
import { createBenchDatabase } from './bench-database';
import { benchBatchFileBounds } from './batch-file-bounds.bench';
import { benchBatchPreview } from './batch-preview.bench';
import { benchCatalogSync } from './catalog-sync.bench';
import { benchCompareSearch } from './compare-search.bench';
import { benchConnectFailures } from './connect-failures.bench';
import { benchExport } from './export.bench';
import { benchHostResponsiveness } from './host-responsiveness.bench';
import { benchInteractiveLatency } from './interactive-latency.bench';
import { benchPinyinSearch } from './pinyin-search.bench';
import { benchReconcile } from './reconcile.bench';
import { benchSnapshotUpserts } from './snapshot-upserts.bench';
import { benchUiCatalog } from './ui-catalog.bench';
import { benchWebhookAck } from './webhook-ack.bench';

const SEARCH_PRODUCTS = 100_000;

async function main(): Promise<void> {
  const cache = createBenchDatabase('search');
  try {
    const upserts = benchSnapshotUpserts(cache, SEARCH_PRODUCTS);
    for (const line of upserts.lines) console.log(line);
    const { categories } = seedCatalog({ products: 0, seed: 1, nowSeconds: 1_790_000_000 });
    benchPinyinSearch(cache.db, upserts.products, categories, (line) => console.log(line));
  } finally {
    cache.dispose();
  }
  if (process.argv.includes('--search-only')) return;
  for (const line of (await benchCompareSearch()).lines) console.log(line);
  for (const line of (await benchCatalogSync()).lines) console.log(line);
  for (const line of (await benchInteractiveLatency()).lines) console.log(line);
  for (const line of (await benchWebhookAck()).lines) console.log(line);
  for (const line of (await benchExport()).lines) console.log(line);
  for (const line of (await benchReconcile()).lines) console.log(line);
  for (const line of (await benchBatchPreview()).lines) console.log(line);
  for (const line of (await benchBatchFileBounds()).lines) console.log(line);
  for (const line of (await benchHostResponsiveness()).lines) console.log(line);
  for (const line of (await benchConnectFailures()).lines) console.log(line);
  // (e) the catalog screen at 100,000 products in the real UI (needs `npm run build:web`)
  for (const line of (await benchUiCatalog()).lines) console.log(line);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
