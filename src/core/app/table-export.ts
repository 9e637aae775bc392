// One chosen file for a table of the books (a reconciliation report, a chart's data): the host picks the
// place (Electron's save dialog; the web host's one-time download, which recognises the 'written'
// answer as it does the vault export's), the bytes are staged beside it and renamed into it whole, so
// a failure leaves no half-written file.
import { basename, isAbsolute } from 'node:path';
import { stageFile } from '../export/atomic-file-write';
import { csvBytes } from '../export/csv-writer';
import type { ExportTable } from '../export/export-table';
import { withExtension } from '../export/export-file-name';
import { xlsxBytes } from '../export/xlsx-writer';
import type { AppContext } from './app-context';
import { AppFailure } from './error-mapping';

export type TableExportAnswer =
  | { readonly status: 'cancelled' }
  | { readonly status: 'written'; readonly path: string; readonly fileName: string; readonly count: number; readonly format: 'csv' | 'xlsx' };

export async function exportTable(ctx: AppContext, suggestedName: string, format: 'csv' | 'xlsx', table: ExportTable, count: number): Promise<TableExportAnswer> {
  const choose = ctx.exportPathChooser();
  if (choose === undefined) throw new AppFailure('INTERNAL', 'this host cannot save files, so it cannot export');
  const bytes = format === 'csv' ? csvBytes(table) : await xlsxBytes(table);
  const chosen = await choose(suggestedName);
  if (chosen === null) return { status: 'cancelled' };
  if (!isAbsolute(chosen)) throw new Error('the host answered a relative path for the export');
  const path = withExtension(chosen, format);
  const staged = await stageFile(path, bytes);
  try {
    staged.commit();
  } catch (error) {
    await staged.discard();
    throw error;
  }
  return { status: 'written', path, fileName: basename(path), count, format };
}
