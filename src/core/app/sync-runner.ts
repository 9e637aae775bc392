// The catalog sync as the UI runs it: in the background, one at a time (a second request while one
// runs just reports it), progress pushed as catalog.syncProgress and, while products arrive,
// catalog.changed (throttled) so an open list fills in. Stopping aborts it; the sync itself is
// resumable (core/catalog/catalog-sync.ts), so the next run continues where this one stopped. A sync
// the merchant told to wait (Retry-After beyond what a call sleeps through) resumes by itself at the
// time it named, instead of asking again before then (contract §8.1).
import type { SyncStatus } from '../../shared/ipc/views/catalog';
import type { Core, MerchantServices } from '../create-core';
import type { Logger } from '../logging/logger';
import { MerchantError, MerchantNotBeforeError } from '../merchant/merchant-errors';
import type { AppEvents } from './app-events';
import { toSyncStatus } from './view-mapping';

const CHANGED_EVERY_MS = 2000;

export interface SyncRunner {
  /** Starts a sync unless one runs, and answers at once; the sync goes on in the background. */
  start(services: MerchantServices): SyncStatus;
  status(): SyncStatus;
  /** Resolves when the running sync (if any) has ended. */
  stop(): Promise<void>;
  /** The running sync's end, for tests and for an orderly shutdown. */
  finished(): Promise<void>;
}

export function createSyncRunner(core: Core, events: AppEvents, logger: Logger): SyncRunner {
  let running: Promise<void> | null = null;
  let aborter: AbortController | null = null;
  let phase: string | null = null;
  let lastError: string | null = null;
  /** The pending automatic resume after a merchant's "not before", if any. */
  let resume: AbortController | null = null;

  const resumeAt = (services: MerchantServices, notBeforeMs: number): void => {
    resume?.abort();
    const controller = new AbortController();
    resume = controller;
    core.clock.sleep(Math.max(0, notBeforeMs - core.clock.nowMs()), controller.signal).then(
      () => {
        if (resume !== controller) return;
        resume = null;
        runner.start(services);
      },
      () => undefined,
    );
  };

  const status = (): SyncStatus => toSyncStatus(core.catalog.readSyncState(), { running: running !== null, phase, lastError }, core.catalog.counts().products);

  const runner: SyncRunner = {
    start(services) {
      if (running !== null) return status();
      resume?.abort();
      resume = null;
      aborter = new AbortController();
      const signal = aborter.signal;
      phase = 'categories';
      lastError = null;
      let lastChangedAt = 0;
      let outcome = 'done';
      running = (async () => {
        try {
          await services.syncCatalog({
            signal,
            onProgress: (progress) => {
              phase = progress.phase;
              events.emit('catalog.syncProgress', { phase: progress.phase, done: progress.done, total: progress.total, etaMs: progress.etaMs });
              if (Date.now() - lastChangedAt >= CHANGED_EVERY_MS) {
                lastChangedAt = Date.now();
                // Empty: "the catalog as a whole changed", so lists refresh without naming every product.
                events.emit('catalog.changed', { productRefs: [] });
              }
            },
          });
          logger.info('catalog sync finished', {});
        } catch (error) {
          if (signal.aborted) {
            outcome = 'stopped';
            lastError = null;
            logger.info('catalog sync stopped; it resumes next time', {});
          } else {
            outcome = 'failed';
            // Merchant errors carry codes and requestIds only; anything else is summarised by its name.
            lastError = error instanceof MerchantError ? error.message : `the sync stopped: ${error instanceof Error ? error.name : 'unknown failure'}`;
            if (error instanceof MerchantNotBeforeError) {
              lastError = `${error.message}; the sync resumes by itself then`;
              resumeAt(services, error.notBeforeMs);
            }
            logger.warn('catalog sync failed', { error: error instanceof Error ? error.message : 'unknown' });
          }
        } finally {
          running = null;
          aborter = null;
          phase = null;
          events.emit('catalog.syncProgress', { phase: outcome, done: 0, total: null, etaMs: null });
          events.emit('catalog.changed', { productRefs: [] });
        }
      })();
      return status();
    },
    status,
    async stop() {
      resume?.abort();
      resume = null;
      aborter?.abort(new Error('sync stopped'));
      await running;
    },
    async finished() {
      await running;
    },
  };
  return runner;
}
