// books.spend / books.exportSpend: the dashboard's report (core/books/spend-report.ts) and one chart's
// data written as CSV or XLSX through table-export.ts.
import { LocalDayError } from '../books/local-days';
import { spendReportForConnection } from '../books/spend-books';
import { spendFileName, spendTable } from '../books/spend-export';
import type { AppContext } from './app-context';
import { AppFailure } from './error-mapping';
import type { HandlersFor } from './handler-types';
import { exportTable } from './table-export';

type Channels = 'books.spend' | 'books.exportSpend';

function asInputFailure(error: unknown): unknown {
  if (error instanceof LocalDayError) return new AppFailure('INVALID_INPUT', error.message, [{ path: 'query', message: error.message }]);
  return error;
}

export function spendHandlers(ctx: AppContext): HandlersFor<Channels> {
  const report = (query: Parameters<typeof spendReportForConnection>[1]) => {
    try {
      return spendReportForConnection(ctx.core.db, query);
    } catch (error) {
      throw asInputFailure(error);
    }
  };
  return {
    'books.spend': (query) => report(query),
    'books.exportSpend': async ({ query, chart, format, language }) => {
      const spend = report(query);
      const table = spendTable(spend, chart, language ?? 'zh-CN');
      return exportTable(ctx, spendFileName(spend, chart, format), format, table, table.rows.length);
    },
  };
}
