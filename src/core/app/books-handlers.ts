// books.spend / books.exportSpend: the dashboard's report (core/books/spend-report.ts) and one chart's
// data written as CSV or XLSX where the host says (Electron's save dialog; the web host's one-time
// download, which recognises the 'written' answer as it does the vault export's).
import { stageFile } from '../export/atomic-file-write';
import { csvBytes } from '../export/csv-writer';
import { withExtension } from '../export/export-file-name';
import { xlsxBytes } from '../export/xlsx-writer';
import { LocalDayError } from '../books/local-days';
import { spendReportForConnection } from '../books/spend-books';
import { spendFileName, spendTable } from '../books/spend-export';
import type { AppContext } from './app-context';
import { AppFailure } from './error-mapping';
import type { HandlersFor } from './handler-types';

type Channels = 'books.spend' | 'books.exportSpend';

function asInputFailure(error: unknown): unknown {
  if (error instanceof LocalDayError) return new AppFailure('INVALID_INPUT', error.message, [{ path: 'query', message: error.message }]);
  return error;
}

export function booksHandlers(ctx: AppContext): HandlersFor<Channels> {
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
      const choose = ctx.host.chooseExportPath?.bind(ctx.host);
      if (choose === undefined) throw new AppFailure('INTERNAL', 'this host cannot save files, so it cannot export');
      const spend = report(query);
      const table = spendTable(spend, chart, language ?? 'zh-CN');
      const bytes = format === 'csv' ? csvBytes(table) : await xlsxBytes(table);
      const chosen = await choose(spendFileName(spend, chart, format));
      if (chosen === null) return { status: 'cancelled' as const };
      const path = withExtension(chosen, format);
      const staged = await stageFile(path, bytes);
      try {
        staged.commit();
      } catch (error) {
        await staged.discard();
        throw error;
      }
      const fileName = path.split(/[\\/]/).pop() ?? path;
      return { status: 'written' as const, path, fileName, count: table.rows.length, format };
    },
  };
}
