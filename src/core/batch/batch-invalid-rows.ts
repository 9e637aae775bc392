// The rows of a CSV that hold invalid bytes (contract §13.1): each record the decoder found invalid
// bytes in, with the line and column of its first, and the refusal naming the first and how many rows.
// Lines and records differ only where a quoted cell holds a newline, so records are found by offset.
import type { InvalidBytesChoice } from '../../shared/batch-file';
import type { InvalidBytes } from './batch-file-decode';
import { BatchFileError } from './batch-file-error';

/** Where a row's first invalid bytes are: the file's line and the column (in characters) within it. */
export interface InvalidSpot {
  readonly line: number;
  readonly column: number;
}

const utf8Length = (text: string): number => Buffer.byteLength(text, 'utf8');

/**
 * Record index → its first invalid spot. `recordEnds`: each record's end as csv-parse counts it (the
 * UTF-8 byte offset in `text` after the record and its delimiter).
 */
export function invalidRecords(text: string, invalid: InvalidBytes, recordEnds: readonly number[]): Map<number, InvalidSpot> {
  const found = new Map<number, InvalidSpot>();
  let line = 1;
  let lineStart = 0;
  let lineStartBytes = 0;
  let record = 0;
  for (const [badLine, column] of [...invalid.lines].sort((a, b) => a[0] - b[0])) {
    while (line < badLine) {
      const end = text.indexOf('\n', lineStart);
      if (end < 0) break;
      lineStartBytes += utf8Length(text.slice(lineStart, end + 1));
      lineStart = end + 1;
      line += 1;
    }
    const lineText = text.slice(lineStart, text.indexOf('\n', lineStart) < 0 ? undefined : text.indexOf('\n', lineStart));
    const offset = lineStartBytes + utf8Length([...lineText].slice(0, column - 1).join(''));
    while (record < recordEnds.length - 1 && (recordEnds[record] ?? 0) <= offset) record += 1;
    if (!found.has(record)) found.set(record, { line: badLine, column });
  }
  return found;
}

const ENCODING_WORD = { 'utf-8': 'UTF-8', gb18030: 'GB18030' } as const;

/** Refuses the file (the buyer's default, and always when the header holds invalid bytes). */
export function refuseInvalidBytes(invalid: InvalidBytes, rows: ReadonlyMap<number, InvalidSpot>, headerRow: number, choice: InvalidBytesChoice): void {
  const header = rows.has(headerRow);
  if (choice === 'markRows' && !header) return;
  const [first] = [...rows.entries()].sort((a, b) => a[1].line - b[1].line);
  if (first === undefined) return;
  const [, spot] = first;
  const dataRows = [...rows.keys()].filter((row) => row !== headerRow).map((row) => row + 1);
  const where = `invalid bytes at line ${spot.line}, column ${spot.column}`;
  const count = header ? `the header row holds invalid bytes${dataRows.length > 0 ? `, and ${dataRows.length} other rows` : ''}` : `${dataRows.length} ${dataRows.length === 1 ? 'row holds' : 'rows hold'} invalid bytes (${dataRows.slice(0, 10).join(', ')}${dataRows.length > 10 ? ', …' : ''})`;
  throw new BatchFileError('invalidBytes', `the file is not valid ${ENCODING_WORD[invalid.encoding]} text: ${where}; ${count}`, {
    encoding: invalid.encoding,
    line: spot.line,
    column: spot.column,
    rows: dataRows.length,
    header,
  });
}
