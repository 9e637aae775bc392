// The results of a batch next to the file's own rows (contract §13.6): every original column as the
// file has it, then status (the merchant's state once it has the order, else our intent status;
// "invalid" for a row never placed), clientOrderRef, platformOrderRef and error (a merchant code in the
// order dialog's words, the code beside them); a batch a fallback rule sent to another merchant adds
// `merchant` (whose order number platformOrderRef is). Card secrets never appear. Cells go through the
// export writers; the two refs and every column mapped to a template field (accounts, phones, ids: what
// was sent) are code cells, so a spreadsheet keeps every digit and zero (contract §16.1, §13.6).
import { csvBytes } from '../export/csv-writer';
import { codeCell, type ExportCell, type ExportTable } from '../export/export-table';
import { xlsxBytes } from '../export/xlsx-writer';
import { UNITS_TARGET, type BatchColumnMap } from '../../shared/batch-file';
import { merchantErrorWords, type WordsLanguage } from '../../shared/merchant-error-words';
import { IntentStateError } from '../orders/order-errors';
import { readBatchTable } from './batch-file-read';
import { batchStatus, sha256Hex, type BatchDeps, type BatchFile } from './batch-orders';
import { previewBatch } from './batch-preview';
import { getBatch } from './batch-store';

export const RESULT_COLUMNS = ['status', 'clientOrderRef', 'platformOrderRef', 'error'] as const;
export const MERCHANT_COLUMN = 'merchant';

/**
 * A merchant's refusal in the words the screens use for its code (merchant-error-words.ts), the code
 * beside them; another code of ours as it is, with the message.
 */
function errorCell(code: string, message: string | null, language: WordsLanguage): string {
  if (/^\d{6}$/.test(code)) return merchantErrorWords(Number(code), language);
  return `${code}${message ? ` ${message}` : ''}`;
}

/**
 * The file's columns that feed a template field (what was sent: accounts, phones, QQ, ids, zones): their
 * cells are codes. The units column stays a plain cell, a count a spreadsheet may sum; other columns are
 * the buyer's own notes, written as the file had them.
 */
function fieldColumns(header: readonly string[], mapping: BatchColumnMap): Set<number> {
  const names = new Set(Object.entries(mapping).filter(([target]) => target !== UNITS_TARGET).map(([, column]) => column));
  return new Set(header.flatMap((name, index) => (name !== '' && names.has(name) ? [index] : [])));
}

/**
 * `language`: of the error column's words (zh-CN unless the buyer reads English, as the card export);
 * `merchant`: the name of the merchant that holds every order of the batch, when it is not the one it was started from.
 */
export async function batchResults(
  deps: Pick<BatchDeps, 'db' | 'clock' | 'placement'>,
  batchId: string,
  file: BatchFile,
  format: 'csv' | 'xlsx',
  language: WordsLanguage = 'zh-CN',
  merchant?: string,
): Promise<{ fileName: string; bytes: Uint8Array }> {
  const batch = getBatch(deps.db, batchId);
  if (batch === null) throw new IntentStateError(`no batch ${batchId}`);
  if (sha256Hex(file.bytes) !== batch.fileSha256) throw new IntentStateError(`this is not the file batch ${batchId} was placed from (its content differs); choose that file`);
  // The batch's own file: rows with invalid bytes (if the buyer marked them) were never placed; they stay "invalid".
  const table = await readBatchTable(file.bytes, 'markRows');
  const status = batchStatus(deps, batchId);
  const byRow = new Map(status.rows.map((row) => [row.rowNumber, row]));
  // Rows never placed: their errors as the preview said them, with the batch's own mapping and price.
  const template = await deps.placement.templateForForm(batch.productRef, batch.variantRef);
  const preview = previewBatch({ table, template, mapping: batch.mapping, unitPriceFen: batch.confirmedUnitPriceFen, ...(batch.defaultUnits === null ? {} : { defaultUnits: batch.defaultUnits }) });
  const invalid = new Map(preview.rows.map((row) => [row.rowNumber, row.errors.map((e) => e.message).join('; ')]));
  const width = table.header.length;
  const codeColumns = fieldColumns(table.header, batch.mapping);
  const ownCell = (text: string, index: number): ExportCell => (codeColumns.has(index) ? codeCell(text) : text);
  const rows = table.rows.map((row) => {
    const cells = Array.from({ length: width }, (_, index) => ownCell(row.cells[index] ?? '', index));
    const placed = byRow.get(row.rowNumber);
    const named = (results: ExportCell[]): ExportCell[] => (merchant === undefined ? results : [...results, placed === undefined ? '' : merchant]);
    if (placed === undefined) return [...cells, ...named(['invalid', '', '', invalid.get(row.rowNumber) ?? ''])];
    const error = placed.errorCode === null ? (placed.state === 'failed' ? (placed.errorMessage ?? 'failed') : '') : errorCell(placed.errorCode, placed.errorMessage, language);
        return [...cells, ...named([placed.state ?? placed.intentStatus, codeCell(placed.clientOrderRef), codeCell(placed.platformOrderRef ?? ''), error])];
  });
  const columns = merchant === undefined ? [...RESULT_COLUMNS] : [...RESULT_COLUMNS, MERCHANT_COLUMN];
  const exported: ExportTable = { sheetName: 'Results', headers: [...table.header, ...columns], rows };
  const base = batch.fileName.replace(/\.(csv|xlsx|txt)$/i, '');
  return { fileName: `${base}-results.${format}`, bytes: format === 'csv' ? csvBytes(exported) : await xlsxBytes(exported) };
}
