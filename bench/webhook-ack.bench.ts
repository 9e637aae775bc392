// Benchmark (d): webhook acknowledgement latency of the real receiver (src/core/webhooks) with
// durable storage: every event is committed to the inbox of an on-disk SQLite database (WAL,
// synchronous=FULL) before `OK` is written, exactly as in the app (bodies completed in the same
// event-loop turn share one commit, so a burst costs one fsync per turn rather than per event).
//   steady: 200 events/s for 30 s; p50/p99 of the time from an event's scheduled send to its
//           complete OK (goal p99 <= 20 ms, against the merchant's 3,000 ms budget)
//   ramp:   the rate grows by half each 5 s step until p99 exceeds 100 ms, any event fails, or the
//           generator cannot keep the rate (a step failing on p99 alone is run once more); two steps
//           between the last rate that held (the steady 200/s included) and the first that did not
//           narrow it down; the highest rate that held is the sustained maximum
// The load comes from a worker thread (its own event loop, so the receiver's synchronous commits do
// not skew the clock that measures them): keep-alive HTTP clients on loopback, open-loop (a slow
// answer delays nothing that follows, so queueing shows in the numbers), bounded in connections,
// requests in flight, per-request time and the whole run. Bodies are product.changed events built
// from the sandbox's seeded catalog (about 1 KB), each with its own eventId; the inbox is checked to
// hold every acknowledged event. The inbox processor is not running: this measures the answer.
// For scale, two floors are measured first: the disk (one committed INSERT into the inbox table per
// 5 ms, no HTTP: what synchronous=FULL costs by itself) and loopback HTTP (the same generator against
// a bare node:http server that answers OK without storing anything); the lines carry the machine's
// CPU count and load: on a shared two-CPU box another process's work shows up in every p99.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { createWebhookReceiver } from '../src/core/webhooks/webhook-receiver';
import { RedactingLogger } from '../src/core/logging/redacting-logger';
import { systemClock } from '../src/core/platform/clock';
import { MemorySecretStore } from '../src/core/secrets/memory-secret-store';
import { CardCipher } from '../src/core/vault/card-cipher';
import { seedCatalog } from '../src/sandbox/catalog/seed-catalog';
import { productSnapshot } from '../src/sandbox/domain/catalog-wire';
import { createBenchDatabase, quantile, type BenchDatabase } from './bench-database';
import { describeLatency, EVENT_ID_MARKER, startLoadGenerator, type PhaseResult } from './webhook-load';

const STEADY_RATE = 200;
const STEADY_SECONDS = 30;
const RAMP_START = 300;
const RAMP_FACTOR = 1.5;
const RAMP_STEP_SECONDS = 5;
const RAMP_MAX_STEPS = 14;
const RAMP_P99_LIMIT_MS = 100;
const REFINE_STEPS = 2;
const SOCKETS = 32;
const MAX_IN_FLIGHT = 4000;
const REQUEST_TIMEOUT_MS = 5000;
const FLOOR_SECONDS = 10;

function bodies(): string[] {
  const nowSeconds = Math.floor(Date.now() / 1000);
  const { products } = seedCatalog({ products: 200, seed: 1, nowSeconds });
  return products.map((product) =>
    JSON.stringify({
      eventId: EVENT_ID_MARKER,
      eventType: 'product.changed',
      occurredAt: nowSeconds,
      productRef: product.productRef,
      revision: product.revision,
      changedProperties: ['price', 'remainingUnits'],
      productSnapshot: productSnapshot(product),
    }),
  );
}

const ms = (value: number): string => `${value.toFixed(1)} ms`;

/** Commit latency of the inbox's INSERT alone (WAL, synchronous=FULL), one every 5 ms. */
async function diskFloor(target: BenchDatabase, seconds: number): Promise<{ p50: number; p99: number; max: number }> {
  const insert = target.db.prepare(
    "INSERT INTO webhook_inbox (event_id, event_type, occurred_at, received_at, body_json) VALUES (?, 'bench.floor', 1, 1, ?)",
  );
  const body = JSON.stringify({ padding: 'x'.repeat(600) });
  const times: number[] = [];
  const end = performance.now() + seconds * 1000;
  for (let i = 0; performance.now() < end; i++) {
    const started = performance.now();
    insert.run(`floor_${i}`, body);
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  target.db.prepare("DELETE FROM webhook_inbox WHERE event_type = 'bench.floor'").run();
  const sorted = times.sort((a, b) => a - b);
  return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted.at(-1) ?? Number.NaN };
}

export async function benchWebhookAck(): Promise<{ lines: string[] }> {
  const lines: string[] = [];
  const target = createBenchDatabase('webhooks');
  const cipher = await CardCipher.open(new MemorySecretStore());
  const logger = new RedactingLogger({ sink: () => undefined, level: 'warn' });
  const receiver = createWebhookReceiver({ db: target.db, cipher, logger, clock: systemClock });
  const { port, path } = await receiver.start();
  // The loopback floor: a server that only answers OK.
  const floor: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('OK');
    });
  });
  await new Promise<void>((resolve) => floor.listen(0, '127.0.0.1', resolve));
  const floorPort = (floor.address() as AddressInfo).port;
  const eventBodies = bodies();
  const averageBytes = Math.round(eventBodies.reduce((sum, b) => sum + Buffer.byteLength(b), 0) / eventBodies.length);
  // In a worker thread: its own event loop, so the receiver's synchronous commits do not skew the clock that measures them.
  const generator = startLoadGenerator('worker', {
    bodies: eventBodies,
    sockets: SOCKETS,
    maxInFlight: MAX_IN_FLIGHT,
    timeoutMs: REQUEST_TIMEOUT_MS,
  });
  let phaseNumber = 0;
  /** target 0: the receiver; 1: the loopback floor. */
  const urls = [`http://127.0.0.1:${port}${path}`, `http://127.0.0.1:${floorPort}/`] as const;
  const run = (rate: number, seconds: number, target: 0 | 1 = 0): Promise<PhaseResult> => generator.run(rate, seconds, `evt_bench_${++phaseNumber}`, urls[target]);
  const load = (): string => `load ${loadavg().map((n) => n.toFixed(1)).join('/')} on ${availableParallelism()} CPUs`;
  const stored = (): number => target.db.prepare<[], number>("SELECT count(*) FROM webhook_inbox WHERE event_id LIKE 'evt_bench_%'").pluck().get() ?? 0;

  try {
    lines.push(
      `webhook ack: receiver on 127.0.0.1, inbox in SQLite on disk (WAL, synchronous=${String(target.db.pragma('synchronous', { simple: true }))}), ` +
        `${averageBytes}-byte product.changed bodies, ${SOCKETS} keep-alive clients; ${load()}`,
    );
    // A short warm-up (JIT, first pages of the database), not counted.
    await run(100, 2);
    await run(100, 1, 1);
    const warm = stored();

    const disk = await diskFloor(target, FLOOR_SECONDS);
    lines.push(`  disk floor (one committed INSERT every 5 ms for ${FLOOR_SECONDS} s, no HTTP): p50 ${ms(disk.p50)}, p99 ${ms(disk.p99)}, max ${ms(disk.max)}`);
    const bare = describeLatency(await run(STEADY_RATE, FLOOR_SECONDS, 1));
    lines.push(
      `  loopback floor (a bare server answering OK, ${STEADY_RATE} events/s for ${FLOOR_SECONDS} s): p50 ${ms(bare.p50)}, p99 ${ms(bare.p99)} (p99 from the actual write ${ms(bare.wireP99)})`,
    );

    const steady = await run(STEADY_RATE, STEADY_SECONDS);
    const s = describeLatency(steady);
    const steadyStored = stored() - warm;
    lines.push(
      `webhook ack at ${STEADY_RATE} events/s for ${STEADY_SECONDS} s: p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, max ${ms(s.max)}, p99 from the actual write ${ms(s.wireP99)} ` +
        `(${steady.latencies.length}/${steady.sent} OK, ${steady.errors} errors, ${steadyStored} stored; goal p99 <= 20 ms of the 3,000 ms budget: ${s.p99 <= 20 ? 'met' : 'NOT met'}; ${load()})`,
    );

    /** One ramp step: whether it held (no error, p99 within the limit, the rate kept), and if not why. */
    const step = async (stepRate: number, label: string): Promise<{ held: boolean; p99: number; reason: string }> => {
      const before = stored();
      const result = await run(stepRate, RAMP_STEP_SECONDS);
      const r = describeLatency(result);
      const achieved = result.latencies.length / result.elapsed;
      lines.push(
        `  ${label} ${stepRate} events/s: p50 ${ms(r.p50)}, p99 ${ms(r.p99)}, ${result.errors} errors, ${Math.round(achieved)} acknowledged/s, ${stored() - before} stored`,
      );
      if (result.errors > 0) return { held: false, p99: r.p99, reason: `errors at ${stepRate} events/s` };
      if (r.p99 > RAMP_P99_LIMIT_MS) return { held: false, p99: r.p99, reason: `p99 above ${RAMP_P99_LIMIT_MS} ms at ${stepRate} events/s` };
      if (achieved < stepRate * 0.9) return { held: false, p99: r.p99, reason: `only ${Math.round(achieved)} of ${stepRate} events/s acknowledged` };
      return { held: true, p99: r.p99, reason: '' };
    };

    // The steady phase is the first rate that held (when it did): a ramp whose first step fails then
    // still narrows the maximum down between the two instead of only saying "below".
    const steadyHeld = steady.errors === 0 && s.p99 <= RAMP_P99_LIMIT_MS && steady.latencies.length / steady.elapsed >= STEADY_RATE * 0.9;
    let best: { rate: number; p99: number } | null = steadyHeld ? { rate: STEADY_RATE, p99: s.p99 } : null;
    /** A step that failed on p99 alone is run once more: on a shared box one burst of another process's work decides nothing. */
    const stepTwice = async (stepRate: number, label: string): Promise<{ held: boolean; p99: number; reason: string }> => {
      const first = await step(stepRate, label);
      if (first.held || !first.reason.startsWith('p99 above')) return first;
      return step(stepRate, `${label} (again)`);
    };
    let failedAt: number | null = null;
    let stopReason = `stopped after ${RAMP_MAX_STEPS} steps`;
    let rate = RAMP_START;
    for (let i = 0; i < RAMP_MAX_STEPS; i++) {
      const outcome = await stepTwice(Math.round(rate), 'ramp');
      if (!outcome.held) {
        failedAt = Math.round(rate);
        stopReason = outcome.reason;
        break;
      }
      best = { rate: Math.round(rate), p99: outcome.p99 };
      rate *= RAMP_FACTOR;
    }
    // Two steps between the last rate that held and the first that did not (geometric midpoints).
    for (let i = 0; i < REFINE_STEPS && best !== null && failedAt !== null; i++) {
      const middle = Math.round(Math.sqrt(best.rate * failedAt));
      if (middle <= best.rate || middle >= failedAt) break;
      const outcome = await stepTwice(middle, 'refine');
      if (outcome.held) best = { rate: middle, p99: outcome.p99 };
      else failedAt = middle;
    }
    lines.push(
      best === null
        ? `webhook ack sustained maximum: below ${STEADY_RATE} events/s (the steady phase did not hold either; ${stopReason})`
        : `webhook ack sustained maximum: ${best.rate} events/s with p99 ${ms(best.p99)} and no errors (ramp stopped: ${stopReason}${failedAt === null ? '' : `; ${failedAt} events/s did not hold`})`,
    );
  } finally {
    await generator.close();
    await receiver.stop();
    await new Promise<void>((resolve) => {
      floor.close(() => resolve());
      floor.closeAllConnections();
    });
    cipher.dispose();
    target.dispose();
  }
  return { lines };
}

// `tsx bench/webhook-ack.bench.ts` runs this benchmark alone.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  benchWebhookAck().then(
    ({ lines }) => {
      for (const line of lines) console.log(line);
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
