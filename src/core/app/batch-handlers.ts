// batch.*: orders from a CSV or XLSX file (contract §13) over core/batch, the same code the CLI's
// `batch` runs. The file comes as base64 within the contract's bound on every call that needs it;
// a file that is not a readable table is INVALID_INPUT on field `file` with the problem's code, which
// the screen words. Row status reaches the screen through orders.changed (the change watch pushes it
// for every intent the outbox moves), and batch.status answers it per row with the ETA.
import type { BatchStatusView } from '../../shared/ipc/views/batch';
import { BatchFileError } from '../batch/batch-file-error';
import { batchStatus, confirmBatchPrice, placeBatch, prepareBatch, retryFailedRows, type BatchDeps, type BatchFile } from '../batch/batch-orders';
import { parsePastedRows } from '../batch/batch-paste';
import { batchResults } from '../batch/batch-results';
import { AppFailure } from './error-mapping';
import type { AppContext } from './app-context';
import type { HandlersFor } from './handler-types';

type Channels = 'batch.preview' | 'batch.place' | 'batch.status' | 'batch.parsePaste' | 'batch.retryFailed' | 'batch.confirmPrice' | 'batch.exportResults';

export const fileOf = (input: { fileName: string; dataBase64: string }): BatchFile => ({ fileName: input.fileName, bytes: new Uint8Array(Buffer.from(input.dataBase64, 'base64')) });

/** A file that is not a table: INVALID_INPUT naming the problem (the screen words it). */
export async function readable<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BatchFileError) {
      // The problem's facts (invalid bytes: where, how many rows) as `file.KEY` for the screen's words.
      const facts = Object.entries(error.detail).map(([key, value]) => ({ path: `file.${key}`, message: String(value) }));
      throw new AppFailure('INVALID_INPUT', error.message, [{ path: 'file', message: error.problem }, ...facts]);
    }
    throw error;
  }
}

export function batchHandlers(ctx: AppContext): HandlersFor<Channels> {
  const deps = async (): Promise<BatchDeps> => {
    const services = await ctx.merchant();
    return { db: ctx.core.db, clock: ctx.core.clock, logger: ctx.logger, placement: services.placement, intents: services.intents, outbox: services.outbox, vault: ctx.core.vault };
  };
  const status = (batchId: string): BatchStatusView => batchStatus({ db: ctx.core.db, clock: ctx.core.clock }, batchId);

  return {
    'batch.preview': (input) =>
      readable(async () => {
        const prepared = await prepareBatch(await deps(), {
          file: fileOf(input.file),
          productRef: input.productRef,
          variantRef: input.variantRef,
          mapping: input.mapping,
          ...(input.defaultUnits === undefined ? {} : { defaultUnits: input.defaultUnits }),
          ...(input.invalidBytes === undefined ? {} : { invalidBytes: input.invalidBytes }),
        });
        return prepared.view;
      }),

    'batch.place': (input) =>
      readable(async () => {
        const { batchId } = await placeBatch(await deps(), {
          file: fileOf(input.file),
          productRef: input.productRef,
          variantRef: input.variantRef,
          mapping: input.mapping,
          unitPriceFen: input.unitPriceFen,
          confirmedTotalFen: input.confirmedTotalFen,
          confirmedRows: input.confirmedRows,
          draftRef: input.draftRef,
          ...(input.defaultUnits === undefined ? {} : { defaultUnits: input.defaultUnits }),
          ...(input.duplicates === undefined ? {} : { duplicates: input.duplicates }),
          ...(input.invalidBytes === undefined ? {} : { invalidBytes: input.invalidBytes }),
        });
        ctx.changed();
        return status(batchId);
      }),

    'batch.status': ({ batchId }) => status(batchId),

    'batch.parsePaste': ({ text, fieldCount }) => readable(() => Promise.resolve({ rows: parsePastedRows(text, fieldCount) })),

    'batch.retryFailed': ({ batchId, file }) =>
      readable(async () => {
        const outcome = await retryFailedRows(await deps(), batchId, fileOf(file));
        ctx.changed();
        return { ...outcome, status: status(batchId) };
      }),

    'batch.confirmPrice': async ({ batchId, unitPriceFen }) => {
      confirmBatchPrice(await deps(), batchId, unitPriceFen);
      ctx.changed();
      return status(batchId);
    },

    'batch.exportResults': ({ batchId, file, format, language }) =>
      readable(async () => {
        const result = await batchResults(await deps(), batchId, fileOf(file), format, language);
        return { fileName: result.fileName, dataBase64: Buffer.from(result.bytes).toString('base64') };
      }),
  };
}
