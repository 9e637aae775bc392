// vault.list / vault.exportPreview / vault.export / vault.mark / audit.list: the vault the buyer
// works in, over core/export. The export's answer says where the file went, never what is in it;
// its refusals say which field is wrong (INVALID_INPUT with `fields`), never the password. Every
// change to cards is pushed as vault.changed so every open list follows.
import type { HandlersFor } from './handler-types';
import type { AppContext } from './app-context';
import { AppFailure } from './error-mapping';
import { createAuditLog } from '../export/audit-log';
import { createCardExporter } from '../export/card-exporter';
import { createCardQueries, SelectionError } from '../export/card-selection';
import { ExportInputError } from '../export/export-request';
import { createVaultMarks } from '../export/vault-marks';
import { listVault } from '../export/vault-list';

type Channels = 'vault.list' | 'vault.exportPreview' | 'vault.export' | 'vault.mark' | 'audit.list';

/** The file system's answers that mean "not there": the buyer can fix them by choosing another place. */
const WRITE_REFUSALS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'the disk is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  ENOENT: 'the folder does not exist',
  ENOTDIR: 'the folder does not exist',
  EISDIR: 'a folder has that name',
};

/** Refusals of the buyer's input, as the contract's INVALID_INPUT; anything else stays as thrown. */
function asInputFailure(error: unknown): unknown {
  if (error instanceof ExportInputError) return new AppFailure('INVALID_INPUT', error.message, [{ path: error.field, message: error.message }]);
  if (error instanceof SelectionError) return new AppFailure('INVALID_INPUT', error.message, [{ path: 'selection', message: error.message }]);
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') {
    const why = WRITE_REFUSALS[error.code];
    // Our own words: Node's message would name the temporary file.
    if (why !== undefined) return new AppFailure('INVALID_INPUT', `the export could not be saved there (${why}); nothing was written: choose another place`, [{ path: 'path', message: why }]);
  }
  return error;
}

export function vaultExportHandlers(ctx: AppContext): HandlersFor<Channels> {
  const { db, vault } = ctx.core;
  const queries = createCardQueries(db);
  const audit = createAuditLog(db);
  const marks = createVaultMarks(db);
  const exporter = createCardExporter({ db, vault, logger: ctx.logger, now: () => ctx.nowSeconds(), audit, queries });

  const guarded = async <T>(work: () => Promise<T> | T): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw asInputFailure(error);
    }
  };

  return {
    'vault.list': (query) => guarded(() => listVault(queries, vault, query)),

    'vault.exportPreview': ({ selection }) => guarded(() => exporter.preview(selection)),

    'vault.export': (input) =>
      guarded(async () => {
        const choose = ctx.exportPathChooser();
        if (choose === undefined) throw new AppFailure('INTERNAL', 'this host cannot save files, so it cannot export');
        const outcome = await exporter.export(input, choose, ctx.host.exportsAsDownloads === true ? 'download' : 'saved');
        if (outcome.status === 'cancelled') return outcome;
        ctx.events.emit('vault.changed', { clientOrderRefs: outcome.clientOrderRefs });
        return { status: 'written' as const, path: outcome.path, fileName: outcome.fileName, count: outcome.count, format: outcome.format };
      }),

    'vault.mark': ({ cards, flag, value }) => {
      const { updated, clientOrderRefs } = marks.mark(cards, flag, value, ctx.nowSeconds());
      if (clientOrderRefs.length > 0) ctx.events.emit('vault.changed', { clientOrderRefs });
      return { updated };
    },

    'audit.list': (query) => audit.list(query),
  };
}
