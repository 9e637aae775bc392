// One reconciliation of a range (contract §12.2): the merchant's order list paged into the run
// (order-list-pager.ts, resumable), the orders it must look up (reconcile-compare.ts planLookups: an
// unknown outcome or a card count in doubt is asked by GET /orders/{ref}, never assumed), the compare,
// and the balance check from the balance history (reconcile-balance.ts). The report is stored with the
// run; the screen and the CLI show it.
import type { Database } from 'better-sqlite3';
import type { BalanceCheck, ReconcileInput, ReconcileReport } from '../../shared/ipc/views/reconcile';
import type { SecretAwareLogger } from '../logging/logger';
import { MerchantApiError } from '../merchant/merchant-errors';
import { MERCHANT_ERROR } from '../../shared/merchant-error-codes';
import type { MerchantClient } from '../merchant/merchant-client';
import type { Clock } from '../platform/clock';
import { balanceAt, type BalanceOwner } from './balance-history';
import { orderFacts, pageOrderList, RECONCILE_PAGE_SIZE, type PagerProgress } from './order-list-pager';
import { balanceCheck, closingReading, freshReading, notKnownOpening, openingReading, reconcileVerdict, type BoundaryReading } from './reconcile-balance';
import { bookMoney, moneyTotals } from './book-money';
import { compareBooks, expectedAtMerchant, isCompletedCardOrder, planLookups, unknownStateCount, type LookupAnswer, type LocalBook } from './reconcile-compare';
import { readLocalBook } from './reconcile-local-book';
import { reconcileRange, type ReconcileRange } from './reconcile-range';
import { createReconcileRunStore, type ReconcileRun, type ReconcileRunStore } from './reconcile-run-store';

export interface ReconciliationDeps {
  readonly db: Database;
  readonly clock: Clock;
  readonly logger: SecretAwareLogger;
  readonly owner: BalanceOwner;
  /** The list pages and look-ups: request-priority.ts 'reconcile' (background: the buyer's other requests go first). */
  readonly listClient: MerchantClient;
  /** GET /account for a range that ends now: the buyer's, as the balance on the screen. */
  readonly accountClient: MerchantClient;
}

export class ReconcileBusyError extends Error {
  override readonly name = 'ReconcileBusyError';
}

export interface ReconcileOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: PagerProgress) => void;
  /** Test and bench hook: the list's page size (default 100, the most a page may hold). */
  readonly pageSize?: number;
}

export interface Reconciliation {
  /** Runs (or resumes) the range's reconciliation to its report. Throws the merchant's errors; the run stays resumable. */
  run(input: ReconcileInput, options?: ReconcileOptions): Promise<ReconcileReport>;
  /** The compare and balance of the latest finished run again, over the books as they are now (after an action). */
  recompare(signal?: AbortSignal): Promise<ReconcileReport | null>;
  latest(): ReconcileReport | null;
  readonly store: ReconcileRunStore;
  readonly owner: BalanceOwner;
}

/** An intent written a day before the range may be sent into it (queued offline); one that old is still looked at. */
const LOOK_BACK_SECONDS = 86_400;

export function createReconciliation(deps: ReconciliationDeps): Reconciliation {
  const { db, clock, logger, owner } = deps;
  const store = createReconcileRunStore(db, owner);

  const lookUp = async (run: ReconcileRun, ref: string, signal?: AbortSignal): Promise<LookupAnswer> => {
    store.countRequest(run.id);
    try {
      const { data } = await deps.listClient.getOrder(ref, signal);
      return { found: true, order: orderFacts(data), cards: data.card_list === null ? null : data.card_list.length };
    } catch (error) {
      if (error instanceof MerchantApiError && error.code === MERCHANT_ERROR.ORDER_NOT_FOUND) return { found: false };
      throw error;
    }
  };

  const finishRun = async (run: ReconcileRun, resumed: boolean, signal?: AbortSignal): Promise<ReconcileReport> => {
    const listed = store.items(run.id);
    const book: LocalBook = readLocalBook(db, owner, run.createdFrom - LOOK_BACK_SECONDS);
    const inRange = (i: { clientOrderRef: string; createdAt: number }): boolean => {
      const order = book.orders.get(i.clientOrderRef);
      const at = order?.createdAt ?? i.createdAt;
      return at >= run.createdFrom && at <= run.createdTo;
    };
    const plan = planLookups(listed, book, inRange);
    const lookups = new Map<string, LookupAnswer>();
    for (const ref of [...plan.missing, ...plan.cards]) lookups.set(ref, await lookUp(run, ref, signal));
    const { differences, merchantOrders } = compareBooks(listed, book, lookups);
    const balance = await checkBalance(run, signal);
    const rangeMoney = moneyTotals(bookMoney(db, owner, run.createdFrom, run.createdTo).entries);
    const appIntents = [...book.intents.values()];
    const after = store.get(run.id);
    const report: ReconcileReport = {
      runId: run.id,
      fromDay: run.fromDay,
      toDay: run.toDay,
      createdFrom: run.createdFrom,
      createdTo: run.createdTo,
      finishedAtMs: clock.nowMs(),
      requests: after.requests,
      pagesRead: after.pagesRead,
      resumed,
      totals: {
        merchantOrders: merchantOrders.length,
        appOrders: appIntents.filter((i) => expectedAtMerchant(i) && inRange(i)).length,
        unknownStates: unknownStateCount(merchantOrders),
        completed: merchantOrders.filter((o) => o.state === 'completed').length,
        foreignRecorded: merchantOrders.filter((o) => book.foreign.has(o.clientOrderRef)).length,
        notSentYet: appIntents.filter((i) => !expectedAtMerchant(i) && inRange(i) && ['queued', 'needs_confirmation', 'price_changed', 'unavailable', 'needs_template', 'needs_key', 'account_suspended', 'access_denied'].includes(i.status)).length,
        merchantChargedFen: merchantOrders.reduce((sum, o) => sum + o.totalFen, 0),
        merchantRefundedFen: merchantOrders.reduce((sum, o) => sum + o.refundedFen, 0),
        bookChargedFen: rangeMoney.chargesFen,
        bookRefundedFen: rangeMoney.refundsFen,
        cardOrdersCompared: [...lookups.values()].filter((a) => a.found && a.cards !== null && isCompletedCardOrder(a.order)).length,
        differences: differences.length,
      },
      balance,
      verdict: reconcileVerdict(differences.length, balance),
      differences,
    };
    store.finish(run.id, report, clock.nowMs());
    logger.info('reconciliation finished', { runId: run.id, fromDay: run.fromDay, toDay: run.toDay, differences: differences.length, requests: after.requests });
    return report;
  };

  /** The opening and closing readings (reconcile-balance.ts); the closing asked fresh when the range ends now or no reading tells it. */
  const checkBalance = async (run: ReconcileRun, signal?: AbortSignal): Promise<BalanceCheck> => {
    const startMs = run.createdFrom * 1000;
    const endMs = (run.createdTo + 1) * 1000;
    const endsNow = run.createdTo >= Math.floor(run.startedAtMs / 1000);
    const fresh = async (): Promise<BoundaryReading | null> => {
      await deps.accountClient.getAccount(signal);
      const latest = balanceAt(db, owner, Number.MAX_SAFE_INTEGER);
      return latest.kind === 'between' && latest.before !== null ? freshReading(latest.before, endMs) : null;
    };
    let closing: BoundaryReading | null = null;
    if (endsNow) closing = await fresh();
    const startAt = balanceAt(db, owner, startMs);
    let opening = openingReading(startAt, startMs, closing?.balance.atMs ?? endMs);
    // The first reading of the range stands for its start only when no money moved before it.
    if (opening.inRange && bookMoney(db, owner, run.createdFrom, opening.second - 1).entries.length > 0) opening = notKnownOpening(startAt, startMs);
    if (closing === null) {
      closing = closingReading(balanceAt(db, owner, endMs), endMs, opening.balance.known ? opening.balance.atMs : null) ?? (await fresh());
    }
    if (opening.second === null || closing === null) {
      const end = closing?.balance ?? { known: false as const, atMs: endMs, before: null, after: null };
      return balanceCheck(opening.balance, end, { chargesFen: 0, refundsFen: 0 });
    }
    return balanceCheck(opening.balance, closing.balance, moneyTotals(bookMoney(db, owner, opening.second, closing.second).entries));
  };

  const startOrResume = (range: ReconcileRange, pageSize: number): { run: ReconcileRun; resumed: boolean } => {
    const open = store.unfinished(range);
    if (open !== null) return { run: open, resumed: open.pagesRead > 0 };
    // Orders placed while the run pages stay outside its list: the upper bound is fixed now.
    const createdTo = Math.min(range.createdTo, Math.floor(clock.nowMs() / 1000));
    return { run: store.begin(range, createdTo, pageSize, clock.nowMs()), resumed: false };
  };

  // One run at a time: a second press (a double click, the CLI beside the app) while one pages joins it
  // when it is the same range, and is refused otherwise, so no two runs ever read the same pages.
  let running: { key: string; promise: Promise<ReconcileReport> } | null = null;

  const runOnce = async (range: ReconcileRange, options: ReconcileOptions): Promise<ReconcileReport> => {
    const { run, resumed } = startOrResume(range, options.pageSize ?? RECONCILE_PAGE_SIZE);
    try {
      await pageOrderList(run.id, { client: deps.listClient, store, ...(options.signal ? { signal: options.signal } : {}), ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
      return await finishRun(store.get(run.id), resumed, options.signal);
    } catch (error) {
      store.fail(run.id, error instanceof Error ? error.message : String(error));
      throw error;
    }
  };

  return {
    store,
    owner,
    run(input, options = {}) {
      const range = reconcileRange(input, clock.nowMs());
      const key = `${range.fromDay}/${range.toDay}`;
      if (running !== null) {
        if (running.key === key) return running.promise;
        return Promise.reject(new ReconcileBusyError(`a reconciliation of ${running.key.replace('/', ' … ')} is running: wait for it`));
      }
      const promise = runOnce(range, options).finally(() => {
        running = null;
      });
      running = { key, promise };
      return promise;
    },
    async recompare(signal) {
      const latest = store.latestReport();
      if (latest === null) return null;
      return finishRun(store.get(latest.runId), latest.resumed, signal);
    },
    latest: () => store.latestReport(),
  };
}
