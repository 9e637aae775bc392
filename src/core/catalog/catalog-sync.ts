// The full catalog sync of interface v1 §4 "standard order of use", asking for less (issue 15): the
// list (catalog pages; the categories only when due), then the details in the order the buyer will need
// them, then templates only where wanted. It is
// - incremental: a detail is fetched only where the list shows a newer revision than stored (or none
//   is stored), a template only where the one rule of catalog-repository.ts (NEEDS_TEMPLATE) says so:
//   stale ones always, missing ones for watched products and variants ordered in the last 30 days, or
//   for every variant with `templates: 'all'` (the CLI's `sync --templates`);
// - resumable: the page reached is stored with each page in one transaction, and the later phases
//   read their remaining work from the data, so a crash (or an abort) resumes without refetching
//   what was stored;
// - guarded against paging anomalies (paging-guard.ts, sync-list-phase.ts);
// - quota-bound, not pool-bound: a few requests are kept in flight and the client's quota model
//   decides when each may go, so normal work never meets a 429.
import { SYNC_WORK_PHASES, type SyncWorkPhase, type TemplateScope } from '../../shared/ipc/views/catalog';
import type { PurchaseTemplate } from '../../shared/merchant/template';
import type { Clock } from '../platform/clock';
import type { CatalogRepository, TemplateNeed } from './catalog-repository';
import { CatalogPagingError } from './paging-guard';
import { runBounded } from '../platform/bounded-pool';
import { createWriteBatcher } from './write-batcher';
import { syncFailureOf } from './sync-failure';
import { createEtaTracker } from './sync-eta';
import { UNKNOWN_WORK, type SyncWork } from './sync-progress';
import type { SyncPhase } from './sync-state';
import { syncList } from './sync-list-phase';
import { syncDetails } from './sync-details-phase';
import { isNotVisible, report, WRITE_BATCH, type CatalogClient, type SyncCounts, type SyncProgress, type SyncRun } from './sync-run';

export type { CatalogClient, SyncProgress } from './sync-run';

export interface CatalogSyncOptions {
  readonly repository: CatalogRepository;
  readonly client: CatalogClient;
  readonly clock: Clock;
  /** Which missing templates to fetch: 'wanted' (watched or ordered in 30 days) or 'all'. */
  readonly templates: TemplateScope;
  /** The catalogRef the buyer is looking at, read before each detail request; none by default. */
  readonly focus?: () => number | null;
  /** Requests in flight at once; default 8. */
  readonly concurrency?: number;
  /** Catalog page size; default and maximum 100. */
  readonly pageSize?: number;
  readonly onProgress?: (progress: SyncProgress) => void;
  readonly signal?: AbortSignal;
}

export interface CatalogSyncSummary extends SyncCounts {
  /** The run continued an interrupted sync instead of starting a new one. */
  readonly resumed: boolean;
  readonly templateScope: TemplateScope;
  readonly startedAt: number;
  readonly finishedAt: number;
}

export const DEFAULT_SYNC_CONCURRENCY = 8;
export const CATALOG_PAGE_SIZE = 100;

export async function runCatalogSync(options: CatalogSyncOptions): Promise<CatalogSyncSummary> {
  const { repository: repo } = options;
  const previous = repo.readSyncState();
  const resumed = previous !== null && previous.phase !== 'done';
  const lastSuccessAt = previous?.lastSuccessAt ?? null;
  const run: SyncRun = {
    repo,
    templateScope: options.templates,
    focus: options.focus ?? (() => null),
    client: options.client,
    clock: options.clock,
    signal: options.signal,
    concurrency: options.concurrency ?? DEFAULT_SYNC_CONCURRENCY,
    pageSize: Math.min(options.pageSize ?? CATALOG_PAGE_SIZE, CATALOG_PAGE_SIZE),
    emit: (progress) => options.onProgress?.(progress),
    work: UNKNOWN_WORK,
    fraction: null,
    eta: createEtaTracker(),
    listedVariants: null,
    state:
      previous !== null && resumed
        ? { ...previous, failure: null }
        : {
            phase: 'list',
            nextPage: 1,
            itemsDone: 0,
            itemsTotal: null,
            startedAt: repo.nowSeconds(),
            updatedAt: repo.nowSeconds(),
            finishedAt: null,
            lastSuccessAt,
            failure: null,
          },
    save: (next) => {
      run.state = next;
      repo.writeSyncState(next);
    },
    counts: { categories: 0, pagesFetched: 0, detailsFetched: 0, detailsAlreadyStored: 0, staleDetails: 0, templatesFetched: 0, removedProducts: 0 },
  };
  run.save(run.state);
  // Phases an earlier run finished count as done, weighed by the requests they took (read back from
  // what they stored), so a resumed sync's bar starts where the interrupted one stood, not at 0 %.
  const stored = repo.counts().products;
  run.work = finishedWork(run.state.phase, stored, run.pageSize);

  try {
    if (run.state.phase === 'list') await syncList(run);
    if (run.state.phase === 'details') await syncDetails(run);
    if (run.state.phase === 'templates') await syncTemplates(run);
  } catch (error) {
    // A listing that contradicted itself is not resumed where it broke: the next run pages from 1.
    const restart = error instanceof CatalogPagingError && run.state.phase === 'list' ? { nextPage: 1, itemsDone: 0 } : {};
    // A stop asked for is no failure: the next run resumes, and the screen says nothing went wrong.
    run.save({ ...run.state, ...restart, failure: options.signal?.aborted === true ? null : syncFailureOf(error, repo.nowSeconds()) });
    throw error;
  }

  return { resumed, templateScope: options.templates, ...run.counts, startedAt: run.state.startedAt, finishedAt: run.state.finishedAt ?? repo.nowSeconds() };
}

/** Phases before `phase` as done, weighed by the requests they took (read back from what they stored). */
function finishedWork(phase: SyncPhase, storedProducts: number, pageSize: number): SyncWork {
  const finished: Record<SyncWorkPhase, number> = { list: Math.max(1, Math.ceil(storedProducts / pageSize)), details: storedProducts, templates: 0 };
  let work = UNKNOWN_WORK;
  for (const earlier of SYNC_WORK_PHASES) {
    if (earlier === phase || phase === 'done') break;
    work = { ...work, [earlier]: { done: finished[earlier], total: finished[earlier] } };
  }
  return work;
}

/** A template for each variant the rule names (NEEDS_TEMPLATE): stale ones, and missing ones the scope wants. */
async function syncTemplates(run: SyncRun): Promise<void> {
  const { repo, client, clock, signal } = run;
  const needs = repo.variantsNeedingTemplate(run.templateScope);
  let done = 0;
  report(run, 'templates', { done, total: needs.length }, false);
  run.save({ ...run.state, itemsDone: 0, itemsTotal: needs.length });
  const batch = createWriteBatcher<PurchaseTemplate>(
    (templates) => {
      run.counts.templatesFetched += repo.upsertTemplates(templates);
    },
    { ...WRITE_BATCH, nowMs: () => clock.nowMs() },
  );
  try {
    await runBounded(
      needs,
      async (need: TemplateNeed) => {
        try {
          const { data } = await client.getTemplate(need.productRef, need.variantRef, signal);
          batch.add(data);
        } catch (error) {
          // The variant left the product meanwhile; the next detail or event says so.
          if (!isNotVisible(error)) throw error;
        }
        done += 1;
        report(run, 'templates', { done }, true);
      },
      { concurrency: run.concurrency, signal },
    );
  } finally {
    batch.flush();
  }
  const finishedAt = repo.nowSeconds();
  run.save({ ...run.state, phase: 'done', itemsDone: needs.length, finishedAt, lastSuccessAt: finishedAt, failure: null });
  run.emit({ phase: 'done', phaseIndex: null, phaseCount: SYNC_WORK_PHASES.length, done: needs.length, total: needs.length, fraction: 1, etaMs: 0, templateScope: run.templateScope });
}
