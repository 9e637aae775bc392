// The catalog sync as the UI runs it: in the background, one at a time (a second request while one
// runs just reports it), progress pushed as catalog.syncProgress and, while products arrive,
// catalog.changed (throttled) so an open list fills in. Stopping aborts it; the sync itself is
// resumable (core/catalog/catalog-sync.ts), so the next run continues where this one stopped. A sync
// the merchant told to wait (Retry-After beyond what a call sleeps through) resumes by itself at the
// time it named, instead of asking again before then (contract §8.1).
// The runner also keeps, in memory, the category the buyer last searched in (catalog.search's
// catalogRef): the running sync reads it before each detail request, so that category's details come
// before the rest (core/catalog/detail-order.ts). The UI's sync fetches only wanted templates.
import { SYNC_WORK_PHASES, type SyncProgressView, type SyncStatus } from '../../shared/ipc/views/catalog';
import { syncFailureOf } from '../catalog/sync-failure';
import type { SyncFailure } from '../catalog/sync-state';
import type { Core, MerchantServices } from '../create-core';
import type { Logger } from '../logging/logger';
import { MerchantNotBeforeError } from '../merchant/merchant-errors';
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
  /** The catalogRef of the buyer's last catalog search (null: none named); a running sync follows it. */
  noteBrowsing(catalogRef: number | null): void;
}

/** `onEnded`: a run ended (done, stopped or failed); the app reads the balance after it. */
export function createSyncRunner(core: Core, events: AppEvents, logger: Logger, onEnded: () => void = () => undefined): SyncRunner {
  let running: Promise<void> | null = null;
  let aborter: AbortController | null = null;
  let progress: SyncProgressView | null = null;
  /** Why this process's last run failed (also stored by the sync; this covers a failure before it could store). */
  let failure: SyncFailure | null = null;
  /** The pending automatic resume after a merchant's "not before", if any. */
  let resume: AbortController | null = null;
  /** The category the buyer is looking at, from the last catalog search. */
  let focus: number | null = null;

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

  const status = (): SyncStatus => toSyncStatus(core.catalog.readSyncState(), { running: running !== null, progress, failure }, core.catalog.counts().products);

  const runner: SyncRunner = {
    start(services) {
      if (running !== null) return status();
      resume?.abort();
      resume = null;
      aborter = new AbortController();
      const signal = aborter.signal;
      progress = { phase: 'list', phaseIndex: 1, phaseCount: SYNC_WORK_PHASES.length, done: 0, total: null, fraction: null, etaMs: null, templateScope: 'wanted' };
      failure = null;
      let lastChangedAt = 0;
      let outcome = 'done';
      const startedAt = Math.floor(core.clock.nowMs() / 1000);
      running = (async () => {
        try {
          await services.syncCatalog({
            signal,
            templates: 'wanted',
            focus: () => focus,
            onProgress: (next) => {
              progress = next;
              events.emit('catalog.syncProgress', next);
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
            logger.info('catalog sync stopped; it resumes next time', {});
          } else {
            outcome = 'failed';
            // Codes, reasons and requestIds only: the screen says it in the buyer's language.
            // The failure this run stored is the one shown, so a restarted core reads the same; one
            // built here only when the sync failed before it could store anything.
            const stored = core.catalog.readSyncState()?.failure ?? null;
            failure = stored !== null && stored.at >= startedAt ? stored : syncFailureOf(error, Math.floor(core.clock.nowMs() / 1000));
            if (error instanceof MerchantNotBeforeError) resumeAt(services, error.notBeforeMs);
            logger.warn('catalog sync failed', { error: error instanceof Error ? error.message : 'unknown' });
          }
        } finally {
          running = null;
          aborter = null;
          progress = null;
          events.emit('catalog.syncProgress', { phase: outcome, phaseIndex: null, phaseCount: SYNC_WORK_PHASES.length, done: 0, total: null, fraction: null, etaMs: null, templateScope: 'wanted' });
          events.emit('catalog.changed', { productRefs: [] });
          onEnded();
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
    noteBrowsing(catalogRef) {
      focus = catalogRef;
    },
  };
  return runner;
}
