// A batch file as a table of text (contract §13.1), the one reader for the app and the CLI:
// - XLSX (a ZIP: "PK\x03\x04"): the first sheet streamed within fixed bounds of time and memory in a
//   worker (xlsx-read-isolated.ts), every cell as the text Excel shows for it (numbers kept as written,
//   so a phone number never becomes 1.38E+10);
// - anything else as CSV text (batch-file-decode.ts: UTF-8 with or without BOM, or GB18030, exactly;
//   invalid bytes refuse the file, or mark their rows when the buyer chose so) with
//   csv-parse: quoted fields, commas, quotes and newlines inside cells, CRLF; the delimiter is the
//   one of , ; TAB the header line uses most (Excel in some locales writes ;, "Unicode text" is TAB).
// The first non-empty row is the header; empty rows are skipped but the row numbers kept are the
// file's own (1 = the header line of a CSV, the sheet's row of an XLSX), so a buyer finds the row.
// Bounds: MAX_BATCH_FILE_BYTES, MAX_BATCH_ROWS, MAX_BATCH_COLUMNS; every failure is a BatchFileError.
import { parse } from 'csv-parse/sync';
import { MAX_BATCH_COLUMNS, MAX_BATCH_FILE_BYTES, MAX_BATCH_ROWS, type InvalidBytesChoice } from '../../shared/batch-file';
import { decodeTableText, type TextEncodingName } from './batch-file-decode';
import { BatchFileError } from './batch-file-error';
import { invalidRecords, refuseInvalidBytes, type InvalidSpot } from './batch-invalid-rows';
import { readXlsxIsolated } from './xlsx-read-isolated';

export type BatchFileFormat = 'csv' | 'xlsx';

export interface BatchTableRow {
  /** The row's number in the file (CSV: its record number counting the header as 1; XLSX: the sheet row). */
  readonly rowNumber: number;
  readonly cells: readonly string[];
  /** CSV read with `markRows`: where the row's first invalid bytes are (the row is never ordered). */
  readonly invalidBytes?: InvalidSpot;
}

export interface BatchTable {
  readonly format: BatchFileFormat;
  /** CSV only: how its bytes were decoded. */
  readonly encoding: TextEncodingName | null;
  readonly header: readonly string[];
  readonly rows: readonly BatchTableRow[];
  /** CSV read with `markRows`: the encoding its invalid bytes are invalid in, when it has any. */
  readonly invalidBytes?: { readonly encoding: 'utf-8' | 'gb18030'; readonly rows: number };
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

type ReadRow = { rowNumber: number; cells: string[]; invalidBytes?: InvalidSpot };

function readCsv(bytes: Uint8Array, choice: InvalidBytesChoice): { rows: ReadRow[]; encoding: TextEncodingName; invalid: BatchTable['invalidBytes'] } {
  const { text, encoding, invalid } = decodeTableText(bytes);
  let records: { record: string[]; info?: { bytes: number } }[];
  try {
    // Blank lines are records too (of one empty cell), so a row's number is its record's place.
    // With invalid bytes, each record's end offset (info) finds the rows that hold them.
    const options = { delimiter: pickDelimiter(text), relax_column_count: true, skip_empty_lines: false };
    const parsed: unknown = parse(text, invalid === null ? options : { ...options, info: true });
    records = invalid === null ? (parsed as string[][]).map((record) => ({ record })) : (parsed as typeof records);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new BatchFileError('badCsv', `the file is not a readable CSV: ${reason}`);
  }
  const rows: ReadRow[] = records.map(({ record }, index) => ({ rowNumber: index + 1, cells: record }));
  if (invalid === null) return { rows, encoding, invalid: undefined };
  const spots = invalidRecords(text, invalid, records.map(({ info }) => info?.bytes ?? 0));
  refuseInvalidBytes(invalid, spots, rows.findIndex((row) => !isBlank(row.cells)), choice);
  for (const [index, spot] of spots) if (rows[index] !== undefined) rows[index] = { ...rows[index], invalidBytes: spot };
  return { rows, encoding, invalid: { encoding: invalid.encoding, rows: spots.size } };
}

/**
 * Reads a CSV or XLSX file into a header and its data rows, or throws BatchFileError. `invalidBytes`:
 * what a CSV holding bytes invalid in its encoding does (refused unless the buyer chose to mark rows).
 */
export async function readBatchTable(bytes: Uint8Array, invalidBytes: InvalidBytesChoice = 'refuse'): Promise<BatchTable> {
  if (bytes.byteLength === 0) throw new BatchFileError('empty', 'the file is empty');
  if (bytes.byteLength > MAX_BATCH_FILE_BYTES) {
    throw new BatchFileError('tooLarge', `the file has ${bytes.byteLength} bytes; at most ${MAX_BATCH_FILE_BYTES} bytes (${MAX_BATCH_ROWS} rows) are read as one batch`);
  }
  const format: BatchFileFormat = isZip(bytes) ? 'xlsx' : 'csv';
  let all: ReadRow[];
  let encoding: TextEncodingName | null = null;
  let invalid: BatchTable['invalidBytes'];
  if (format === 'xlsx') all = await readXlsxIsolated(bytes);
  else ({ rows: all, encoding, invalid } = readCsv(bytes, invalidBytes));
  const filled = all.filter((row) => !isBlank(row.cells));
  const [headerRow, ...dataRows] = filled;
  if (headerRow === undefined) throw new BatchFileError('empty', 'the file has no rows');
  if (dataRows.length === 0) throw new BatchFileError('headerOnly', 'the file has a header row but no rows to order');
  const width = Math.max(headerRow.cells.length, ...dataRows.slice(0, MAX_BATCH_ROWS + 1).map((row) => row.cells.length));
  if (width > MAX_BATCH_COLUMNS) throw new BatchFileError('tooManyColumns', `the file has ${width} columns; at most ${MAX_BATCH_COLUMNS}`);
  if (dataRows.length > MAX_BATCH_ROWS) throw new BatchFileError('tooManyRows', `the file has ${dataRows.length} rows; at most ${MAX_BATCH_ROWS} are ordered as one batch`);
  const header = Array.from({ length: width }, (_, index) => (headerRow.cells[index] ?? '').trim());
  const rows = dataRows.map((row) => ({ rowNumber: row.rowNumber, cells: row.cells, ...(row.invalidBytes === undefined ? {} : { invalidBytes: row.invalidBytes }) }));
  return { format, encoding, header, rows, ...(invalid === undefined ? {} : { invalidBytes: invalid }) };
}
