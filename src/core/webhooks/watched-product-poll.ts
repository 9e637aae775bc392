// Polling as the safety net for watched products: their product.changed webhooks need a
// working webhook path and a live subscription, and either can be missing (no tunnel, a tunnel down,
// three failed sends that cancelled the subscription). So every watched product is read by detail now
// and then, and applied like any snapshot: every 5 minutes while no webhook path works, every hour
// while webhooks are live. Long lists stretch the interval so this poll stays near 20 detail reads a
// minute (a sixth of the 120/minute product quota, leaving the rest to browsing and sync).
import type { CatalogRepository } from '../catalog/catalog-repository';
import type { Logger } from '../logging/logger';
import type { MerchantClient } from '../merchant/merchant-client';
import type { Clock } from '../platform/clock';
import { createWorkerLoop, type WorkerPause } from '../platform/worker-loop';
import { readProductsByDetail } from './catch-up';
import type { ProductWatchStore } from './product-watch-store';

const POLL_WITHOUT_WEBHOOKS_MS = 5 * 60_000;
const POLL_WITH_WEBHOOKS_MS = 60 * 60_000;
/** The poll's own budget: one product per this many ms on average. */
const MS_PER_PRODUCT = 3_000;
/** After an unreachable merchant, try again this much sooner than a full interval. */
const RETRY_MS = 60_000;
/** Longest sleep (clock ms): a change in webhook liveness is noticed within this. */
const MAX_SLEEP_MS = 60_000;

export interface WatchedProductPollDeps {
  readonly watches: Pick<ProductWatchStore, 'refs'>;
  readonly client: Pick<MerchantClient, 'getProduct' | 'getTemplate'>;
  readonly catalog: CatalogRepository;
  readonly clock: Clock;
  readonly logger: Logger;
  /** True while webhooks reach us (the poll is then rare). */
  readonly webhooksLive: () => boolean;
  /** The merchant's refusals and Retry-After holds: no passes meanwhile. */
  readonly pause?: WorkerPause;
  readonly intervalWithoutWebhooksMs?: number;
  readonly intervalWithWebhooksMs?: number;
}

export interface WatchedProductPoll {
  start(): void;
  stop(): Promise<void>;
  /** Reads every watched product now (a product was just watched, or a test). */
  poke(): void;
  /** Our clock, ms, of the last finished read; null before the first. */
  lastPolledAt(): number | null;
}

export function createWatchedProductPoll(deps: WatchedProductPollDeps): WatchedProductPoll {
  const { clock, logger } = deps;
  const without = deps.intervalWithoutWebhooksMs ?? POLL_WITHOUT_WEBHOOKS_MS;
  const withHooks = deps.intervalWithWebhooksMs ?? POLL_WITH_WEBHOOKS_MS;
  let lastAt: number | null = null;
  let lastComplete = true;
  let force = false;

  /** When the next read is due (our clock, ms), from the list's length and whether webhooks work now. */
  const dueAt = (count: number): number => {
    if (lastAt === null || force) return 0;
    if (!lastComplete) return lastAt + RETRY_MS;
    return lastAt + Math.max(deps.webhooksLive() ? withHooks : without, count * MS_PER_PRODUCT);
  };

  const loop = createWorkerLoop({
    clock,
    logger,
    name: 'watched-product poll',
    ...(deps.pause ? { pause: deps.pause } : {}),
    async pass(signal) {
      const refs = deps.watches.refs();
      if (refs.length === 0 || clock.nowMs() < dueAt(refs.length)) return;
      force = false;
      const report = await readProductsByDetail(deps, refs, signal);
      lastAt = clock.nowMs();
      lastComplete = report.complete;
      logger.info('watched products polled', { checked: report.checked, applied: report.applied, complete: report.complete });
    },
    // Re-checked at least every minute, so a change in webhook liveness moves the next read.
    waitMs: () => Math.min(MAX_SLEEP_MS, Math.max(1000, dueAt(deps.watches.refs().length) - clock.nowMs())),
  });

  return {
    start: () => loop.start(),
    stop: () => loop.stop(),
    poke(): void {
      force = true;
      loop.poke();
    },
    lastPolledAt: () => lastAt,
  };
}
