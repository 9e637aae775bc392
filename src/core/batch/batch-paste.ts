// "Paste many accounts" in the order form (PasteAccounts.tsx) read by the batch reader's CSV parser
// (csv-parse, contract §13.1), so a pasted block follows the same rules as a file: quoted fields keep
// their commas and newlines, quotes are doubled, CRLF or LF. As before, a line's values may be split
// by a tab (a spreadsheet's copy), a comma or a semicolon, ASCII or full-width; blank lines are skipped;
// with a single field a line is its value whole (an account may hold a comma).
import { parse } from 'csv-parse/sync';
import { MAX_BATCH_ROWS } from '../../shared/batch-file';
import { BatchFileError } from './batch-file-error';

const SPLITTERS = [',', '\t', ';', '，', '；'];

export function parsePastedRows(text: string, fieldCount: number): string[][] {
  let rows: unknown;
  try {
    // One field: a delimiter no text holds, so only quotes and line ends are read.
    rows = parse(text, { delimiter: fieldCount <= 1 ? ['\u0000'] : SPLITTERS, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, trim: true });
  } catch (error) {
    throw new BatchFileError('badCsv', `the pasted text cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  const records = (rows as string[][]).filter((record) => record.some((cell) => cell !== ''));
  if (records.length > MAX_BATCH_ROWS) throw new BatchFileError('tooManyRows', `${records.length} lines were pasted; at most ${MAX_BATCH_ROWS}`);
  return records;
}
