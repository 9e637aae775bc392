// Benchmark (i): the buyer first (issue 15 point 3, contract §8.1). A full sync of a 1,000-product sandbox
// (whatever the sync on this branch fetches), both clocks 10× faster, run twice on fresh accounts:
// alone, then with 50 product opens and 20 template fetches made during it, evenly in merchant time
// over the first run's duration (a fixed schedule: of every seven, five opens and two templates).
// Reports each buyer request's wait from the call to its sending in merchant seconds (p95 and max;
// goal p95 <= 1 s), the 429s of both runs (goal 0), and the sync's merchant minutes with and without
// the buyer's load. Waits are read from the scaled clock, never from the machine's real time.
import { createCatalogRepository } from '../src/core/catalog/catalog-repository';
import { startSandbox } from '../test/support/sandbox-process';
import { evenBuyerLoad, percentile, syncUnderLoad, type SyncUnderLoad } from '../test/support/sync-under-load';
import { createBenchDatabase } from './bench-database';

const PRODUCTS = 1000;
const TIME_SCALE = 10;
const OPENS = 50;
const TEMPLATES = 20;
const GOAL_P95_S = 1;

export async function benchInteractiveLatency(): Promise<{ lines: string[]; p95Seconds: number }> {
  const sandbox = await startSandbox(['--products', String(PRODUCTS), '--time-scale', String(TIME_SCALE)]);
  const run = async (load: ReturnType<typeof evenBuyerLoad>): Promise<SyncUnderLoad> => {
    const target = createBenchDatabase('interactive');
    try {
      return await syncUnderLoad({ sandbox, scale: TIME_SCALE, repository: (clock) => createCatalogRepository(target.db, clock), load });
    } finally {
      target.dispose();
    }
  };
  try {
    const alone = await run(evenBuyerLoad(0, 0));
    const load = evenBuyerLoad(OPENS + TEMPLATES, alone.syncMs);
    const loaded = await run(load);
    const waits = loaded.waits.map((w) => w.waitMs / 1000);
    const p95 = percentile(waits, 95);
    const max = Math.max(...waits);
    const during = loaded.waits.filter((w) => w.askedAtMs < loaded.syncMs).length;
    const opens = loaded.waits.filter((w) => w.kind === 'product').length;
    const minutes = (ms: number): string => (ms / 60_000).toFixed(2);
    const slower = (loaded.syncMs / alone.syncMs - 1) * 100;
    return {
      p95Seconds: p95,
      lines: [
        `interactive latency during a sync: ${opens} product opens + ${waits.length - opens} template fetches (${during} made while the sync ran), wait p95 ${p95.toFixed(2)} s, max ${max.toFixed(2)} s merchant time (goal p95 <= ${GOAL_P95_S} s: ${p95 <= GOAL_P95_S ? 'met' : 'MISSED'}), 429s ${alone.tooMany + loaded.tooMany} (goal 0)`,
        `  sync of ${PRODUCTS} products: ${minutes(alone.syncMs)} min alone (${alone.requests} requests), ${minutes(loaded.syncMs)} min with the buyer's load (${loaded.requests} requests, ${slower >= 0 ? '+' : ''}${slower.toFixed(1)} %); --time-scale ${TIME_SCALE}`,
      ],
    };
  } finally {
    await sandbox.stop();
  }
}
