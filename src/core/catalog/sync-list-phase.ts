// The sync's list phase (issue 15): the catalog pages, which fill the offline catalog and its search
// index at once (contract §3's list carries name, type, brand, availability, price from, variant count
// and revision), and the categories only when category-refresh.ts says they are due — so a second sync
// of an unchanged catalog sends its list pages and nothing else.
// Paging is resumable (the page reached is stored with each page in one transaction) and guarded
// (paging-guard.ts): a listing that contradicts itself ends the run and pages from 1 next time, and only
// a run that listed every page marks unlisted products removed.
import type { CatalogItem, Category } from '../../shared/merchant/catalog';
import { runBounded } from '../platform/bounded-pool';
import { categoriesDue } from './category-refresh';
import { createPagingGuard } from './paging-guard';
import { report, type SyncRun } from './sync-run';

const CATEGORY_PAGE_SIZE = 100;

/** The list phase's requests: category pages (when fetched) and catalog pages, each answered and known. */
interface ListWork {
  categoriesDone: number;
  /** null while a category fetch has not learned its page count. */
  categoriesTotal: number | null;
  pagesDone: number;
  pagesTotal: number | null;
  /** The catalogRefs this run's pages named. */
  readonly listedCatalogRefs: Set<number>;
}

function reportList(run: SyncRun, work: ListWork, answered: boolean): void {
  const total = work.categoriesTotal === null || work.pagesTotal === null ? null : work.categoriesTotal + work.pagesTotal;
  report(run, 'list', { done: work.categoriesDone + work.pagesDone, total }, answered);
}

export async function syncList(run: SyncRun): Promise<void> {
  const { repo } = run;
  const work: ListWork = { categoriesDone: 0, categoriesTotal: 0, pagesDone: run.state.nextPage - 1, pagesTotal: null, listedCatalogRefs: new Set() };
  reportList(run, work, false);
  let categoriesFetched = false;
  // Before paging, the stored products stand for what the list names.
  if (categoriesDue(repo.categoryFacts(null), repo.nowSeconds())) {
    await syncCategories(run, work);
    categoriesFetched = true;
  }
  run.counts.pagesFetched = await syncPages(run, work);
  // Only a sync that listed every page may say what is gone.
  run.counts.removedProducts += repo.markUnlistedRemoved(run.state.startedAt);
  // A page named a category we do not hold (the merchant added one, or moved a product into it).
  if (!categoriesFetched && categoriesDue(repo.categoryFacts(work.listedCatalogRefs), repo.nowSeconds())) await syncCategories(run, work);
  run.save({ ...run.state, phase: 'details', itemsDone: 0, itemsTotal: null });
}

/** Every page of GET /categories, then the stored list replaced whole. */
async function syncCategories(run: SyncRun, work: ListWork): Promise<void> {
  const { client, signal } = run;
  work.categoriesTotal = null;
  reportList(run, work, false);
  const all: Category[] = [];
  const guard = createPagingGuard<Category>('category', CATEGORY_PAGE_SIZE, (c) => c.catalogRef);
  const { data: first } = await client.listCategories({ page: 1, pageSize: CATEGORY_PAGE_SIZE }, signal);
  const { pageSize: categoryPageSize, pageCount } = guard.begin(1, first);
  all.push(...first.list);
  work.categoriesDone += 1;
  work.categoriesTotal = work.categoriesDone - 1 + pageCount;
  reportList(run, work, true);
  for (let page = 2; page <= pageCount; page++) {
    const { data } = await client.listCategories({ page, pageSize: categoryPageSize }, signal);
    guard.check(page, data);
    all.push(...data.list);
    work.categoriesDone += 1;
    reportList(run, work, true);
  }
  guard.finish(true);
  run.repo.replaceCategories(all);
  run.counts.categories = all.length;
}

/**
 * The first page still missing is fetched alone (it gives the total), the rest with the pool.
 * Each page is stored together with the new cursor (the lowest page not yet stored), so pages
 * that finished out of order before a crash are the only ones fetched twice.
 */
async function syncPages(run: SyncRun, work: ListWork): Promise<number> {
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
    for (const item of items) {
      listedVariants?.set(item.productRef, item.variantCount);
      work.listedCatalogRefs.add(item.catalogRef);
    }
    fetched += 1;
    work.pagesDone = cursor - 1;
    work.pagesTotal = pageCount;
    reportList(run, work, true);
  };

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
