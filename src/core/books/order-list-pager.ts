// Pages the merchant's order list (GET /orders, contract §7.5) for a reconciliation run, resumably:
// each page's items are stored with the next page number (reconcile-run-store.ts), so an interrupted
// run goes on at the page after the last one stored, and a stored page is never asked again.
//
// The rule for a list that moves while it is paged (contract §12.2), after paging-guard.ts:
// - The list is asked up to createdTo fixed when the run began, so orders placed meanwhile are outside
//   it. One placed in that very second (or a merchant that lists late) can still push items down: the
//   total grows, an item shows up again on the next page. That is tolerated: the item is kept once at
//   its highest revision and the page count follows the larger total.
// - A total that shrinks means an order left the list and items moved up onto pages already read, where
//   they would be missed: the run lists again from page 1, once; a second shrink stops it with
//   ReconcilePagingError (resumed from page 1 next time).
// - Every page before the last must be full, the page size is the one the merchant answers with, and
//   the number of pages is bounded by the largest total seen (never open-ended). Items outside the
//   range (a merchant ignoring the filter) are not counted.
import type { Order } from '../../shared/merchant/order';
import type { MerchantClient } from '../merchant/merchant-client';
import type { MerchantOrderFacts } from './reconcile-compare';
import type { ReconcileRun, ReconcileRunStore } from './reconcile-run-store';

export class ReconcilePagingError extends Error {
  override readonly name = 'ReconcilePagingError';
}

/** The most a page may hold (contract §0): fewer requests for 1,000 orders. */
export const RECONCILE_PAGE_SIZE = 100;
const MAX_PAGES = 10_000;

export function orderFacts(order: Order): MerchantOrderFacts {
  return {
    clientOrderRef: order.clientOrderRef,
    platformOrderRef: order.platformOrderRef,
    productName: order.productName,
    productType: order.productType,
    units: order.units,
    totalFen: order.totalAmount,
    refundedFen: order.refundedAmount,
    state: order.state,
    createdAt: order.createdAt,
    revision: order.revision,
    refunds: order.refunds.map((r) => ({ refundRef: r.refundRef, amountFen: r.amount, state: r.state })),
  };
}

export interface PagerProgress {
  readonly pagesRead: number;
  readonly pageCount: number | null;
  readonly requests: number;
}

export interface PageListOptions {
  readonly client: MerchantClient;
  readonly store: ReconcileRunStore;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: PagerProgress) => void;
}

/** Reads the run's list from its next page to the end. Throws the client's errors (the run stays resumable) or ReconcilePagingError. */
export async function pageOrderList(runId: number, options: PageListOptions): Promise<void> {
  const { client, store, signal } = options;
  let restarted = false;
  let largestTotal = store.get(runId).firstTotal ?? 0;
  for (;;) {
    const run: ReconcileRun = store.get(runId);
    const page = run.nextPage;
    if (page > MAX_PAGES) throw new ReconcilePagingError(`the merchant's order list did not end within ${MAX_PAGES} pages`);
    const { data } = await client.listOrders({ page, pageSize: run.pageSize, createdFrom: run.createdFrom, createdTo: run.createdTo }, signal);
    if (data.pageSize < 1 || data.pageSize > 100 || data.list.length > data.pageSize) {
      throw new ReconcilePagingError(`page ${page} of the merchant's order list holds ${data.list.length} items for a page size of ${data.pageSize}`);
    }
    if (run.firstTotal !== null && data.total < run.firstTotal) {
      if (restarted) throw new ReconcilePagingError(`the merchant's order list shrank again while it was paged (from ${run.firstTotal} to ${data.total}); reconcile again`);
      // An order left the list: items moved onto pages already read. Read it all again, once.
      restarted = true;
      store.restart(runId);
      largestTotal = 0;
      continue;
    }
    largestTotal = Math.max(largestTotal, data.total);
    const pageSize = run.firstTotal === null ? data.pageSize : run.pageSize;
    if (data.pageSize !== pageSize) throw new ReconcilePagingError(`page ${page} says page size ${data.pageSize}, page 1 said ${pageSize}`);
    const pageCount = Math.ceil(largestTotal / pageSize);
    if (page < pageCount && data.list.length < pageSize) throw new ReconcilePagingError(`page ${page} of ${pageCount} holds ${data.list.length} items, not ${pageSize}`);
    const items = data.list.filter((o) => o.createdAt >= run.createdFrom && o.createdAt <= run.createdTo).map(orderFacts);
    store.storePage(runId, page, items, data.total, pageSize);
    const after = store.get(runId);
    options.onProgress?.({ pagesRead: after.pagesRead, pageCount, requests: after.requests });
    if (page >= pageCount || data.list.length < pageSize) return;
  }
}
