// books.reconcile*: reconciliation over the app's contract (contract §12.2). The run's paging is pushed as
// books.reconcileProgress; each action (refresh one of the app's orders, record a foreign order) answers
// the report compared again over the books as they are then. The export goes through table-export.ts.
import type { HandlersFor } from './handler-types';
import type { AppContext } from './app-context';
import { AppFailure } from './error-mapping';
import { ForeignOrderRefusedError, recordForeignOrder } from '../books/foreign-orders';
import { ReconcilePagingError } from '../books/order-list-pager';
import { ReconcileRangeError } from '../books/reconcile-range';
import { ReconcileBusyError } from '../books/reconciliation';
import { reconcileReportTable } from '../books/reconcile-report-table';
import { getIntent } from '../orders/order-intent-store';
import { exportTable } from './table-export';

type Channels = 'books.reconcile' | 'books.reconcileLatest' | 'books.recompare' | 'books.refreshOrder' | 'books.recordForeign' | 'books.exportReconcile';

function asFailure(error: unknown): unknown {
  if (error instanceof ReconcileRangeError) return new AppFailure('INVALID_INPUT', error.message, [{ path: error.field, message: error.message }]);
  if (error instanceof ForeignOrderRefusedError || error instanceof ReconcileBusyError) return new AppFailure('ACTION_NOT_ALLOWED', error.message);
  if (error instanceof ReconcilePagingError) return new AppFailure('MERCHANT_MALFORMED', error.message);
  return error;
}

const guarded = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    throw asFailure(error);
  }
};

export function reconcileHandlers(ctx: AppContext): HandlersFor<Channels> {
  return {
    'books.reconcile': (input) =>
      guarded(async () => {
        const services = await ctx.merchant();
        return services.reconciliation.run(input, { onProgress: (progress) => ctx.events.emit('books.reconcileProgress', progress) });
      }),

    'books.reconcileLatest': () => guarded(async () => (await ctx.merchant()).reconciliation.latest()),

    'books.recompare': () => guarded(async () => (await ctx.merchant()).reconciliation.recompare()),

    'books.refreshOrder': ({ clientOrderRef }) =>
      guarded(async () => {
        if (getIntent(ctx.core.db, clientOrderRef) === null) throw new AppFailure('NOT_FOUND', `${clientOrderRef} is not an order of this app`);
        const services = await ctx.merchant();
        try {
          // The buyer's authenticated read through the tracker: the list is never trusted for money.
          await services.tracker.refresh(clientOrderRef);
        } finally {
          ctx.changed();
        }
        return services.reconciliation.recompare();
      }),

    'books.recordForeign': ({ clientOrderRef }) =>
      guarded(async () => {
        const services = await ctx.merchant();
        const { data, requestId } = await services.client.getOrder(clientOrderRef);
        recordForeignOrder(ctx.core.db, services.reconciliation.owner, data, requestId, ctx.core.clock.nowMs());
        ctx.logger.info('foreign order recorded', { clientOrderRef, platformOrderRef: data.platformOrderRef });
        return services.reconciliation.recompare();
      }),

    'books.exportReconcile': ({ format, language }) =>
      guarded(async () => {
        const report = (await ctx.merchant()).reconciliation.latest();
        if (report === null) throw new AppFailure('NOT_FOUND', 'there is no reconciliation to export yet: reconcile first');
        const table = reconcileReportTable(report, language ?? 'zh-CN');
        const answer = await exportTable(ctx, `procure-desk-reconciliation-${report.fromDay}-${report.toDay}.${format}`, format, table, report.differences.length);
        if (answer.status === 'written') ctx.logger.info('reconciliation exported', { format, file: answer.fileName, differences: report.differences.length });
        return answer;
      }),
  };
}
