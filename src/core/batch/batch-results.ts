// The results of a batch next to the file's own rows (contract §13.6): every original column as the
// file has it, then status (the merchant's state once it has the order, else our intent status; a row
// never placed says so), clientOrderRef, platformOrderRef and error; a batch a fallback rule sent to
// another merchant adds the merchant (whose order number platformOrderRef is). Headers, statuses and
// errors are in the buyer's language, the screens' words (contract §16.4). Card secrets never appear.
// The two refs and every column mapped to a template field are code cells (contract §16.1, §13.6).
import { csvBytes } from '../export/csv-writer';
import { codeCell, type ExportCell, type ExportTable } from '../export/export-table';
import { xlsxBytes } from '../export/xlsx-writer';
import { UNITS_TARGET, type BatchColumnMap } from '../../shared/batch-file';
import { batchRowErrorsWords } from '../../shared/batch-row-error-words';
import { merchantErrorWords, type WordsLanguage } from '../../shared/merchant-error-words';
import type { PurchaseTemplate } from '../../shared/merchant/template';
import { orderStatusWords } from '../../shared/status-words';
import { IntentStateError } from '../orders/order-errors';
import { readBatchTable } from './batch-file-read';
import { batchStatus, sha256Hex, type BatchDeps, type BatchFile } from './batch-orders';
import { previewBatch } from './batch-preview';
import { getBatch } from './batch-store';
import { ownCodeWords, resultHeaders, resultWords } from './batch-results-words';

/** A placed row's error: a merchant's refusal in the screens' words, the code beside; else the app's own code in words. */
function errorCell(placed: { state: string | null; errorCode: string | null; errorMessage: string | null }, language: WordsLanguage): string {
  const { errorCode } = placed;
  if (errorCode === null) {
    if (placed.state !== 'failed') return '';
    return placed.errorMessage ? resultWords(language).merchantSaid(placed.errorMessage) : resultWords(language).failedNoReason;
  }
  if (/^\d{6}$/.test(errorCode)) return merchantErrorWords(Number(errorCode), language);
  return ownCodeWords(errorCode, language);
}

/** A field's label (as the form shows it) by the path a row error names; the units and the file as such. */
function fieldLabels(template: PurchaseTemplate): (path: string) => string {
  const labels = new Map(template.purchaseFields.map((field) => [field.fieldRef, field.label || field.fieldRef]));
  return (path) => labels.get(path) ?? path;
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
 * `language`: of the added headers, statuses and errors (zh-CN unless the buyer reads English, as the card export);
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
  const label = fieldLabels(template);
  const invalid = new Map(preview.rows.map((row) => [row.rowNumber, batchRowErrorsWords(row.errors.map((e) => ({ ...e, field: label(e.path) })), language)]));
  const words = resultWords(language);
  const width = table.header.length;
  const codeColumns = fieldColumns(table.header, batch.mapping);
  const ownCell = (text: string, index: number): ExportCell => (codeColumns.has(index) ? codeCell(text) : text);
  const rows = table.rows.map((row) => {
    const cells = Array.from({ length: width }, (_, index) => ownCell(row.cells[index] ?? '', index));
    const placed = byRow.get(row.rowNumber);
    const named = (results: ExportCell[]): ExportCell[] => (merchant === undefined ? results : [...results, placed === undefined ? '' : merchant]);
    if (placed === undefined) return [...cells, ...named([words.invalid, '', '', invalid.get(row.rowNumber) ?? ''])];
    const status = orderStatusWords(placed.intentStatus, placed.state, language);
    return [...cells, ...named([status, codeCell(placed.clientOrderRef), codeCell(placed.platformOrderRef ?? ''), errorCell(placed, language)])];
  });
  const exported: ExportTable = { sheetName: words.sheet, headers: [...table.header, ...resultHeaders(language, merchant !== undefined)], rows };
  const base = batch.fileName.replace(/\.(csv|xlsx|txt)$/i, '');
  return { fileName: `${base}-results.${format}`, bytes: format === 'csv' ? csvBytes(exported) : await xlsxBytes(exported) };
}
