// The full catalog sync of interface v1 §4 "standard order of use": categories → catalog pages → product
// details → one template per variant. It is
// - incremental: a detail is fetched only where the list shows a newer revision than stored (or none
//   is stored), a template only where it is missing or its purchaseSchemaRevision changed;
// - resumable: the page reached is stored with each page in one transaction, and the later phases
//   read their remaining work from the data, so a crash (or an abort) resumes without refetching
//   what was stored;
// - guarded against paging anomalies (paging-guard.ts): a total that changes, duplicates, a short or
//   empty page before the end, an ignored pageSize end the sync with a clear error and list again from
//   page 1 next time, never loop and never mark a product removed on a partial listing;
// - quota-bound, not pool-bound: a few requests are kept in flight and the client's quota model
//   decides when each may go, so normal work never meets a 429.
import { SYNC_WORK_PHASES, type SyncProgressView, type SyncWorkPhase } from '../../shared/ipc/views/catalog';
import type { CatalogItem, Category, ProductDetail } from '../../shared/merchant/catalog';
import type { PurchaseTemplate } from '../../shared/merchant/template';
import type { MerchantClient } from '../merchant/merchant-client';
import { MerchantApiError } from '../merchant/merchant-errors';
import type { Clock } from '../platform/clock';
import type { CatalogRepository, TemplateNeed } from './catalog-repository';
import { CatalogPagingError, createPagingGuard } from './paging-guard';
import type { SyncState } from './sync-state';
import { runBounded } from '../platform/bounded-pool';
import { createWriteBatcher } from './write-batcher';
import { MERCHANT_ERROR } from '../../shared/merchant-error-codes';
import { syncFailureOf } from './sync-failure';
import { createEtaTracker, type EtaTracker } from './sync-eta';
import { nextFraction, phaseIndexOf, remainingRequests, UNKNOWN_WORK, type PhaseWork, type SyncWork } from './sync-progress';

export type CatalogClient = Pick<MerchantClient, 'listCategories' | 'listCatalog' | 'getProduct' | 'getTemplate'>;

/** A work phase's progress, or 'done' with the whole run's (see shared/ipc/views/catalog.ts). */
export type SyncProgress = SyncProgressView & { readonly phase: SyncWorkPhase | 'done' };

export interface CatalogSyncOptions {
  readonly repository: CatalogRepository;
  readonly client: CatalogClient;
  readonly clock: Clock;
  /** Requests in flight at once; default 8. */
  readonly concurrency?: number;
  /** Catalog page size; default and maximum 100. */
  readonly pageSize?: number;
  readonly onProgress?: (progress: SyncProgress) => void;
  readonly signal?: AbortSignal;
}

export interface CatalogSyncSummary {
  /** The run continued an interrupted sync instead of starting a new one. */
  readonly resumed: boolean;
  readonly categories: number;
  readonly pagesFetched: number;
  readonly detailsFetched: number;
  /** Details older than what a webhook stored meanwhile: ignored. */
  readonly staleDetails: number;
  readonly templatesFetched: number;
  /** Products marked removed: not listed any more, or 404 on their detail. */
  readonly removedProducts: number;
  readonly startedAt: number;
  readonly finishedAt: number;
}

export const DEFAULT_SYNC_CONCURRENCY = 8;
export const CATALOG_PAGE_SIZE = 100;
const CATEGORY_PAGE_SIZE = 100;
/** At most this many fetched items, or this much client time, between two commits (see write-batcher). */
const WRITE_BATCH = { maxItems: 25, maxAgeMs: 2000 };
/** RESOURCE_NOT_VISIBLE: the product or variant went away between the list and this request. */

function isNotVisible(error: unknown): boolean {
  return error instanceof MerchantApiError && error.code === MERCHANT_ERROR.RESOURCE_NOT_VISIBLE;
}

/** One sync run: its dependencies, where it stands (saved with each step), and what it did so far. */
interface SyncRun {
  readonly repo: CatalogRepository;
  readonly client: CatalogClient;
  readonly clock: Clock;
  readonly signal: AbortSignal | undefined;
  readonly concurrency: number;
  readonly pageSize: number;
  emit(progress: SyncProgress): void;
  /** Each phase's requests, done and known (or bounded) so far; the fraction shown; the pace. */
  work: SyncWork;
  fraction: number | null;
  readonly eta: EtaTracker;
  /** variantCount of each product listed by this run's pages (null when this run did not page): bounds the templates. */
  listedVariants: Map<number, number> | null;
  /** Where the sync stands; `save` also writes it, so a crash resumes from there. */
  state: SyncState;
  save(next: SyncState): void;
  /** The summary's counts, added to by each phase. */
  readonly counts: { categories: number; pagesFetched: number; detailsFetched: number; staleDetails: number; templatesFetched: number; removedProducts: number };
}

/**
 * Records a phase's work (and, when `answered`, one more answered request for the pace) and tells
 * the listener where the whole run stands.
 */
function report(run: SyncRun, phase: SyncWorkPhase, work: Partial<PhaseWork>, answered: boolean): void {
  const now = run.clock.nowMs();
  run.work = { ...run.work, [phase]: { ...run.work[phase], ...work } };
  if (answered) run.eta.answered(now);
  run.fraction = nextFraction(run.fraction, run.work);
  const { done, total } = run.work[phase];
  run.emit({
    phase,
    phaseIndex: phaseIndexOf(phase),
    phaseCount: SYNC_WORK_PHASES.length,
    done,
    total,
    fraction: run.fraction,
    etaMs: run.eta.estimate(now, remainingRequests(run.work)),
  });
}

export async function runCatalogSync(options: CatalogSyncOptions): Promise<CatalogSyncSummary> {
  const { repository: repo } = options;
  const previous = repo.readSyncState();
  const resumed = previous !== null && previous.phase !== 'done';
  const lastSuccessAt = previous?.lastSuccessAt ?? null;
  const run: SyncRun = {
    repo,
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
            phase: 'categories',
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
    counts: { categories: 0, pagesFetched: 0, detailsFetched: 0, staleDetails: 0, templatesFetched: 0, removedProducts: 0 },
  };
  run.save(run.state);
  // Phases an earlier run finished count as done, weighed by the requests they took (read back from
  // what they stored), so a resumed sync's bar starts where the interrupted one stood, not at 0 %.
  const stored = repo.counts().products;
  const finished: Record<SyncWorkPhase, number> = { categories: 1, pages: Math.max(1, Math.ceil(stored / run.pageSize)), details: stored, templates: 0 };
  for (const phase of SYNC_WORK_PHASES) {
    if (phase === run.state.phase || run.state.phase === 'done') break;
    run.work = { ...run.work, [phase]: { done: finished[phase], total: finished[phase] } };
  }

  try {
    if (run.state.phase === 'categories') await syncCategories(run);
    if (run.state.phase === 'pages') {
      run.counts.pagesFetched = await syncPages(run);
      // Only a sync that listed every page may say what is gone.
      run.counts.removedProducts += repo.markUnlistedRemoved(run.state.startedAt);
      run.save({ ...run.state, phase: 'details', itemsDone: 0, itemsTotal: null });
    }
    if (run.state.phase === 'details') await syncDetails(run);
    if (run.state.phase === 'templates') await syncTemplates(run);
  } catch (error) {
    // A listing that contradicted itself is not resumed where it broke: the next run pages from 1.
    const restart = error instanceof CatalogPagingError && run.state.phase === 'pages' ? { nextPage: 1, itemsDone: 0 } : {};
    // A stop asked for is no failure: the next run resumes, and the screen says nothing went wrong.
    run.save({ ...run.state, ...restart, failure: options.signal?.aborted === true ? null : syncFailureOf(error, repo.nowSeconds()) });
    throw error;
  }

  return { resumed, ...run.counts, startedAt: run.state.startedAt, finishedAt: run.state.finishedAt ?? repo.nowSeconds() };
}

/** Every page of GET /categories, then the stored list replaced whole. */
async function syncCategories(run: SyncRun): Promise<void> {
  const { client, signal } = run;
  report(run, 'categories', { done: 0, total: null }, false);
  const all: Category[] = [];
  const guard = createPagingGuard<Category>('category', CATEGORY_PAGE_SIZE, (c) => c.catalogRef);
  const { data: first } = await client.listCategories({ page: 1, pageSize: CATEGORY_PAGE_SIZE }, signal);
  const { pageSize: categoryPageSize, pageCount } = guard.begin(1, first);
  all.push(...first.list);
  report(run, 'categories', { done: 1, total: pageCount }, true);
  for (let page = 2; page <= pageCount; page++) {
    const { data } = await client.listCategories({ page, pageSize: categoryPageSize }, signal);
    guard.check(page, data);
    all.push(...data.list);
    report(run, 'categories', { done: page }, true);
  }
  guard.finish(true);
  run.repo.replaceCategories(all);
  run.counts.categories = all.length;
  run.save({ ...run.state, phase: 'pages', nextPage: 1, itemsDone: 0, itemsTotal: null });
}

/**
 * The first page still missing is fetched alone (it gives the total), the rest with the pool.
 * Each page is stored together with the new cursor (the lowest page not yet stored), so pages
 * that finished out of order before a crash are the only ones fetched twice.
 */
async function syncPages(run: SyncRun): Promise<number> {
  const { client, signal, repo } = run;
  let fetched = 0;
  const stored = new Set<number>();
  let cursor = run.state.nextPage;
  let pageCount: number | null = null;
  // Only a run that pages from page 1 sees every product's variantCount (the templates' bound).
  const listedVariants = cursor === 1 ? new Map<number, number>() : null;

  const record = (page: number, items: readonly CatalogItem[]): void => {
    stored.add(page);
    while (stored.has(cursor)) cursor += 1;
    run.state = { ...run.state, nextPage: cursor, itemsDone: cursor - 1, itemsTotal: pageCount };
    repo.recordCatalogPage(items, run.state);
    for (const item of items) listedVariants?.set(item.productRef, item.variantCount);
    fetched += 1;
    report(run, 'pages', { done: cursor - 1, total: pageCount }, true);
  };

  report(run, 'pages', { done: cursor - 1, total: null }, false);
  const first = cursor;
  const guard = createPagingGuard<CatalogItem>('catalog', run.pageSize, (item) => item.productRef);
  const { data } = await client.listCatalog({ page: first, pageSize: run.pageSize }, signal);
  // The merchant's page size from here on: a merchant that ignores ours is paged by its own.
  const paging = guard.begin(first, data);
  pageCount = paging.pageCount;
  // Every listed product may need its detail: a bound until the pages are stored.
  run.work = { ...run.work, details: { done: 0, total: data.total } };
  record(first, data.list);
  if (data.list.length === 0) {
    guard.finish(first === 1);
    return fetched;
  }

  const rest: number[] = [];
  for (let page = first + 1; page <= pageCount; page++) rest.push(page);
  await runBounded(
    rest,
    async (page) => {
      const result = await client.listCatalog({ page, pageSize: paging.pageSize }, signal);
      guard.check(page, result.data);
      record(page, result.data.list);
    },
    { concurrency: run.concurrency, signal },
  );
  guard.finish(first === 1);
  run.listedVariants = listedVariants;
  return fetched;
}

/**
 * At most this many templates are needed after the details: the variants needing one now, and every
 * variant the list announced for a product whose detail is still to come. Null without the list's counts.
 */
function templatesBound(run: SyncRun, refs: readonly number[]): number | null {
  const listed = run.listedVariants;
  if (listed === null) return null;
  let bound = run.repo.variantsNeedingTemplate().length;
  for (const ref of refs) {
    const count = listed.get(ref);
    if (count === undefined) return null;
    bound += count;
  }
  return bound;
}

/** The detail of every product whose stored one is missing or older than the list says. */
async function syncDetails(run: SyncRun): Promise<void> {
  const { repo, client, clock, signal } = run;
  const refs = repo.productsNeedingDetail();
  let done = 0;
  run.work = { ...run.work, templates: { done: 0, total: templatesBound(run, refs) } };
  report(run, 'details', { done, total: refs.length }, false);
  run.save({ ...run.state, itemsDone: 0, itemsTotal: refs.length });
  const batch = createWriteBatcher<ProductDetail>(
    (details) => {
      const outcomes = repo.applyProductSnapshots(details.map((detail) => ({ from: 'detail', detail })));
      run.counts.staleDetails += outcomes.filter((outcome) => outcome.kind === 'stale').length;
    },
    { ...WRITE_BATCH, nowMs: () => clock.nowMs() },
  );
  try {
    await runBounded(
      refs,
      async (productRef) => {
        try {
          const { data } = await client.getProduct(productRef, signal);
          batch.add(data);
          run.counts.detailsFetched += 1;
        } catch (error) {
          if (!isNotVisible(error)) throw error;
          repo.markProductRemoved(productRef);
          run.counts.removedProducts += 1;
        }
        done += 1;
        report(run, 'details', { done }, true);
      },
      { concurrency: run.concurrency, signal },
    );
  } finally {
    // Also on failure or abort: what was fetched is kept, so a resumed sync does not ask again.
    batch.flush();
  }
  run.save({ ...run.state, phase: 'templates', itemsDone: 0, itemsTotal: null });
}

/** One template per variant whose stored one is missing or has another purchaseSchemaRevision. */
async function syncTemplates(run: SyncRun): Promise<void> {
  const { repo, client, clock, signal } = run;
  const needs = repo.variantsNeedingTemplate();
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
  run.emit({ phase: 'done', phaseIndex: null, phaseCount: SYNC_WORK_PHASES.length, done: needs.length, total: needs.length, fraction: 1, etaMs: 0 });
}
