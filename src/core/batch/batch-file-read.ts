// A batch file as a table of text (contract §13.1), the one reader for the app and the CLI:
// - XLSX (a ZIP: "PK\x03\x04"): the first sheet streamed within fixed bounds of time and memory in a
//   worker (xlsx-read-isolated.ts), every cell as the text Excel shows for it (numbers kept as written,
//   so a phone number never becomes 1.38E+10);
// - anything else as CSV text (batch-file-decode.ts: UTF-8 with or without BOM, else GB18030) with
//   csv-parse: quoted fields, commas, quotes and newlines inside cells, CRLF; the delimiter is the
//   one of , ; TAB the header line uses most (Excel in some locales writes ;, "Unicode text" is TAB).
// The first non-empty row is the header; empty rows are skipped but the row numbers kept are the
// file's own (1 = the header line of a CSV, the sheet's row of an XLSX), so a buyer finds the row.
// Bounds: MAX_BATCH_FILE_BYTES, MAX_BATCH_ROWS, MAX_BATCH_COLUMNS; every failure is a BatchFileError.
import { parse } from 'csv-parse/sync';
import { MAX_BATCH_COLUMNS, MAX_BATCH_FILE_BYTES, MAX_BATCH_ROWS } from '../../shared/batch-file';
import { decodeTableText, type TextEncodingName } from './batch-file-decode';
import { BatchFileError } from './batch-file-error';
import { readXlsxIsolated } from './xlsx-read-isolated';

export type BatchFileFormat = 'csv' | 'xlsx';

export interface BatchTableRow {
  /** The row's number in the file (CSV: its record number counting the header as 1; XLSX: the sheet row). */
  readonly rowNumber: number;
  readonly cells: readonly string[];
}

export interface BatchTable {
  readonly format: BatchFileFormat;
  /** CSV only: how its bytes were decoded. */
  readonly encoding: TextEncodingName | null;
  readonly header: readonly string[];
  readonly rows: readonly BatchTableRow[];
}

const isZip = (bytes: Uint8Array): boolean => bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

const isBlank = (cells: readonly string[]): boolean => cells.every((cell) => cell.trim() === '');

function pickDelimiter(text: string): string {
  const firstLine = text.slice(0, Math.min(text.length, 4096)).split(/\r?\n/, 1)[0] ?? '';
  const outsideQuotes = firstLine.replace(/"[^"]*"/g, '');
  const candidates = [',', ';', '\t'];
  let best = ',';
  let bestCount = 0;
  for (const candidate of candidates) {
    const count = outsideQuotes.split(candidate).length - 1;
    if (count > bestCount) {
      best = candidate;
      bestCount = count;
    }
  }
  return best;
}

function readCsv(bytes: Uint8Array): { rows: { rowNumber: number; cells: string[] }[]; encoding: TextEncodingName } {
  const { text, encoding } = decodeTableText(bytes);
  let records: string[][];
  try {
    // Blank lines are records too (of one empty cell), so a row's number is its record's place.
    const parsed: unknown = parse(text, { delimiter: pickDelimiter(text), relax_column_count: true, skip_empty_lines: false });
    records = parsed as string[][];
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new BatchFileError('badCsv', `the file is not a readable CSV: ${reason}`);
  }
  return { rows: records.map((record, index) => ({ rowNumber: index + 1, cells: record })), encoding };
}

/** Reads a CSV or XLSX file into a header and its data rows, or throws BatchFileError. */
export async function readBatchTable(bytes: Uint8Array): Promise<BatchTable> {
  if (bytes.byteLength === 0) throw new BatchFileError('empty', 'the file is empty');
  if (bytes.byteLength > MAX_BATCH_FILE_BYTES) {
    throw new BatchFileError('tooLarge', `the file has ${bytes.byteLength} bytes; at most ${MAX_BATCH_FILE_BYTES} bytes (${MAX_BATCH_ROWS} rows) are read as one batch`);
  }
  const format: BatchFileFormat = isZip(bytes) ? 'xlsx' : 'csv';
  let all: { rowNumber: number; cells: string[] }[];
  let encoding: TextEncodingName | null = null;
  if (format === 'xlsx') all = await readXlsxIsolated(bytes);
  else ({ rows: all, encoding } = readCsv(bytes));
  const filled = all.filter((row) => !isBlank(row.cells));
  const [headerRow, ...dataRows] = filled;
  if (headerRow === undefined) throw new BatchFileError('empty', 'the file has no rows');
  if (dataRows.length === 0) throw new BatchFileError('headerOnly', 'the file has a header row but no rows to order');
  const width = Math.max(headerRow.cells.length, ...dataRows.slice(0, MAX_BATCH_ROWS + 1).map((row) => row.cells.length));
  if (width > MAX_BATCH_COLUMNS) throw new BatchFileError('tooManyColumns', `the file has ${width} columns; at most ${MAX_BATCH_COLUMNS}`);
  if (dataRows.length > MAX_BATCH_ROWS) throw new BatchFileError('tooManyRows', `the file has ${dataRows.length} rows; at most ${MAX_BATCH_ROWS} are ordered as one batch`);
  const header = Array.from({ length: width }, (_, index) => (headerRow.cells[index] ?? '').trim());
  return { format, encoding, header, rows: dataRows.map((row) => ({ rowNumber: row.rowNumber, cells: row.cells })) };
}
