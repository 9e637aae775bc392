// The export flow, Electron-free (the host only answers where to write):
//   check the request → read the selected rows (still sealed) → ask the host for a path (cancel:
//   nothing decrypted, written, marked or audited) → open the secrets in memory → build the file
//   (encrypted XLSX, AES ZIP of a CSV or a TXT, or the accepted plain CSV or TXT) → stage it beside the target →
//   in ONE transaction: mark exactly those cards exported, append the audit row, rename the file
//   into place. The file exists if and only if its audit row does.
// The password is registered with the redacting logger for the duration of the call, so nothing
// that might log on the way (a library error, a failed write) can carry it; it is never stored.
import { isAbsolute, basename } from 'node:path';
import type { Database } from 'better-sqlite3';
import type { CardSelection, ExportFormat, ExportInput, ExportPreview } from '../../shared/ipc/views/vault';
import type { SecretAwareLogger } from '../logging/logger';
import type { VaultReader } from '../vault/vault-reader';
import { cardLabel, createCardLabels, type OrderNaming } from '../vault/card-labels';
import { isRefundMark, RefundedCardsError } from '../vault/refund-mark';
import { AUDIT_FACTS_VERSION, type AuditFacts } from '../../shared/ipc/views/audit';
import { createAuditLog, type AuditLog } from './audit-log';
import { createCardQueries, describeSelection, selectionSubject, type CardQueries, type SealedCardRow } from './card-selection';
import { csvBytes } from './csv-writer';
import { exportBaseName, suggestedFileName, withExtension } from './export-file-name';
import { checkExportInput, ExportInputError, type ExportRequest } from './export-request';
import { buildExportTable } from './export-rows';
import { isCode, type ExportCell, type ExportTable } from './export-table';
import { exportColumnIndex } from './export-columns';
import { txtBytes, type TxtCard } from './txt-writer';
import { encryptOfficePackage } from './office-encrypted-container';
import { stageFile } from './atomic-file-write';
import { xlsxBytes } from './xlsx-writer';
import { aesZipBytes } from './zip-aes';

/** Asks the host where to write; null: the buyer cancelled. */
export type ChooseExportPath = (suggestedFileName: string) => Promise<string | null>;

/**
 * How the written file reaches the buyer, as the audit log says it: `saved` where the host's chooser
 * said (a save dialog, the CLI's --out); `download`: handed to a browser and deleted from the host
 * (the web host), so only the file's name means anything to the buyer.
 */
export type ExportHandover = 'saved' | 'download';

export type ExportOutcome =
  | { status: 'written'; path: string; fileName: string; count: number; format: ExportFormat; clientOrderRefs: string[] }
  | { status: 'cancelled' };

export interface CardExporterDeps {
  readonly db: Database;
  readonly vault: VaultReader;
  readonly logger: SecretAwareLogger;
  /** Unix seconds (the core's clock). */
  readonly now: () => number;
  /** Shared with the audit screen's reads, if the caller has one already. */
  readonly audit?: AuditLog;
  readonly queries?: CardQueries;
}

const codeOf = (cell: ExportCell | undefined): string | null => (cell !== undefined && isCode(cell) ? cell.code : null);

/** The TXT's cards from the table the export built (one row per sealed row, in order). */
function txtCards(rows: readonly SealedCardRow[], table: ExportTable, naming: (clientOrderRef: string) => OrderNaming): TxtCard[] {
  const no = exportColumnIndex('cardNo');
  const password = exportColumnIndex('cardPassword');
  return table.rows.map((cells, i) => {
    const row = rows[i];
    return { label: row === undefined ? `#${i + 1}` : cardLabel(naming(row.client_order_ref), row.seq), cardNo: codeOf(cells[no]) ?? '', cardPassword: codeOf(cells[password]) };
  });
}

async function fileBytes(request: ExportRequest, table: ExportTable, txt: () => Uint8Array, count: number, now: number): Promise<Uint8Array> {
  switch (request.format) {
    case 'xlsx': {
      const plain = await xlsxBytes(table);
      try {
        return await encryptOfficePackage(plain, request.password ?? '');
      } finally {
        plain.fill(0);
      }
    }
    case 'zip': {
      // The ZIP protects whichever plain file the buyer chose: the CSV table, or the TXT of codes.
      const inner = request.txtLines === null ? csvBytes(table) : txt();
      try {
        return await aesZipBytes(`${exportBaseName(count, now)}.${request.txtLines === null ? 'csv' : 'txt'}`, inner, request.password ?? '', new Date(now * 1000));
      } finally {
        inner.fill(0);
      }
    }
    case 'csv':
      return csvBytes(table);
    case 'txt':
      return txt();
  }
}

/** Exports of selected cards to a file the host chooses. */
export interface CardExporter {
  /** What an export of this selection would hold, nothing opened. */
  preview(selection: CardSelection): ExportPreview;
  /** Writes the selection to the path the host chose (asked only after the input and refund checks); marks the cards exported and audits once, in one transaction with the rename. */
  export(input: ExportInput, choosePath: ChooseExportPath, handover?: ExportHandover): Promise<ExportOutcome>;
}

export function createCardExporter(deps: CardExporterDeps): CardExporter {
  const { db, vault, logger } = deps;
  const queries = deps.queries ?? createCardQueries(db);
  const audit = deps.audit ?? createAuditLog(db);
  const labels = createCardLabels(db);
  const markExported = db.prepare<{ ids: string; now: number }>('UPDATE cards SET exported_at = @now WHERE id IN (SELECT value FROM json_each(@ids))');

  return {
    preview(selection: CardSelection): ExportPreview {
      const s = queries.summary({ selection });
      return { count: s.count, totalValueFen: s.valueFen, orders: s.orders, alreadyExported: s.exported, refunded: s.refunded };
    },

    async export(input: ExportInput, choosePath: ChooseExportPath, handover: ExportHandover = 'saved'): Promise<ExportOutcome> {
      const forget = [input.password, input.passwordConfirm].filter((p): p is string => p !== undefined && p !== '').map((p) => logger.registerSecret(p));
      try {
        const request = checkExportInput(input);
        const rows = queries.sealedRows({ selection: request.selection });
        if (rows.length === 0) throw new ExportInputError('selection', 'the selection holds no cards: there is nothing to export');
        // Cards of refunded or cancelled orders leave only when the buyer was told and went on.
        const marked = rows.flatMap((r) => (isRefundMark(r.refund_mark) ? [r.refund_mark] : []));
        if (marked.length > 0 && input.acknowledgeRefunded !== true) throw new RefundedCardsError(marked.length, [...new Set(marked)]);
        const startedAt = deps.now();
        const chosen = await choosePath(suggestedFileName(request.format, rows.length, startedAt));
        if (chosen === null) return { status: 'cancelled' };
        // A host bug, not the buyer's: its answer must say exactly where.
        if (!isAbsolute(chosen)) throw new Error('the host answered a relative path for the export');
        const target = withExtension(chosen, request.format);

        const table = await buildExportTable(rows, (row) => vault.openForAuditedCaller(row), request.language);
        const txt = (): Uint8Array => txtBytes(txtCards(rows, table, labels.naming), request.txtLines ?? 'cardNo');
        const bytes = await fileBytes(request, table, txt, rows.length, startedAt);
        const staged = await stageFile(target, bytes).finally(() => {
          // The plain CSV's bytes are the card codes themselves; the encrypted ones need no wiping but cost nothing.
          bytes.fill(0);
        });
        const now = deps.now();
        try {
          db.transaction(() => {
            markExported.run({ ids: JSON.stringify(rows.map((r) => r.id)), now });
            // Facts, not words: the format says the protection (a csv is plain, its risk confirmed), the screen words it.
            const detail: AuditFacts = {
              v: AUDIT_FACTS_VERSION,
              subject: selectionSubject(request.selection, labels.naming),
              exportFormat: request.format,
              ...(request.txtLines === null ? {} : { txtLines: request.txtLines }),
              // Where it went as the buyer saw it: never the web host's staging folder, gone once downloaded.
              ...(handover === 'download' ? { downloadedAs: basename(target) } : { writtenTo: target }),
              ...(marked.length === 0 ? {} : { refundAcknowledged: { count: marked.length } }),
            };
            audit.appendExport({ at: now, subject: describeSelection(request.selection, labels.naming), count: rows.length, format: request.format, detail: JSON.stringify(detail) });
            staged.commit();
          })();
        } catch (error) {
          // Before the rename: the temporary file goes. After it (the commit itself failed): so does the file.
          staged.retract();
          await staged.discard();
          throw error;
        }
        logger.info('cards exported', { count: rows.length, format: request.format, file: basename(target) });
        return {
          status: 'written',
          path: target,
          fileName: basename(target),
          count: rows.length,
          format: request.format,
          clientOrderRefs: [...new Set(rows.map((r) => r.client_order_ref))],
        };
      } finally {
        for (const f of forget) f();
      }
    },
  };
}

