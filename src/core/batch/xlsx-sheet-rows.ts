// The first sheet's rows, read as the XML streams by: rows are counted as they close, and reading stops
// at the first row past the header and MAX_BATCH_ROWS data rows (tooManyRows) or the first value beyond
// MAX_BATCH_COLUMNS (tooManyColumns). Only rows holding a value are kept, with the sheet's own row
// numbers; a shared string stays its index until readSharedStrings has fetched the ones used.
import { MAX_BATCH_COLUMNS, MAX_BATCH_ROWS } from '../../shared/batch-file';
import { BatchFileError } from './batch-file-error';
import { isoDate, serialDate, unescapeSpreadsheetText } from './xlsx-cell-text';
import type { TextBudget } from './xlsx-workbook';
import { readXmlPart } from './xlsx-xml-stream';
import type { XlsxPackage } from './xlsx-zip-parts';

/** A cell's text, or (a number) the index of the shared string it shows. */
export type RawCell = string | number;

export interface RawRow {
  readonly rowNumber: number;
  /** By column (0 = A); a hole or '' is an empty cell. */
  readonly cells: RawCell[];
}

export interface SheetRows {
  readonly rows: readonly RawRow[];
  /** A bit per shared-string index the kept cells use. */
  readonly wanted: Uint8Array;
}

interface SheetContext {
  readonly dateStyles: readonly boolean[];
  readonly epoch1904: boolean;
  readonly budget: TextBudget;
}

interface CellState {
  readonly type: string;
  readonly style: number;
  readonly column: number | null;
  v: string | undefined;
  inline: string | undefined;
}

/** An index beyond any real workbook's shared strings (the bitmap of wanted ones stays ≤ 2 MiB). */
const MAX_SHARED_INDEX = 16 * 1024 * 1024;

const unreadable = (reason: string): BatchFileError => new BatchFileError('unreadableSpreadsheet', `the XLSX workbook cannot be read: ${reason}`);

/** A cell reference's column (A1 → 1) and row, either null when absent or malformed. */
function cellAddress(ref: string | undefined): { column: number | null; row: number | null } {
  const match = ref === undefined ? null : /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/.exec(ref);
  if (match === null) return { column: null, row: null };
  let column = 0;
  for (const letter of (match[1] ?? '').toUpperCase()) column = column * 26 + (letter.charCodeAt(0) - 64);
  return { column, row: Number(match[2]) };
}

function cellValue(cell: CellState, context: SheetContext): RawCell | null {
  const v = cell.v;
  const text = (raw: string | undefined): string | null => {
    const value = raw === undefined ? '' : unescapeSpreadsheetText(raw).trim();
    return value === '' ? null : value;
  };
  switch (cell.type) {
    case 'str':
      return text(v);
    case 'inlineStr':
      return text(cell.inline);
    case 's': {
      if (v === undefined || v === '') return null;
      const index = Number(v);
      if (!Number.isInteger(index) || index < 0 || index >= MAX_SHARED_INDEX) throw unreadable(`a cell refers to shared string "${v.slice(0, 20)}"`);
      return index;
    }
    case 'b':
      if (v === undefined || v === '') return null;
      if (v === '1' || v === '0') return v === '1' ? 'true' : 'false';
      throw unreadable(`a boolean cell holds "${v.slice(0, 20)}"`);
    case 'e':
      return null;
    case 'd':
      return v === undefined || v === '' ? null : (isoDate(v) ?? v);
    default:
      if (v === undefined || v === '') return null;
      return context.dateStyles[cell.style] === true ? (serialDate(v, context.epoch1904) ?? v) : v;
  }
}

export function readSheetRows(pkg: XlsxPackage, part: string, context: SheetContext): SheetRows {
  const rows: RawRow[] = [];
  let maxShared = -1;
  let lastRow = 0;
  let row: { number: number | null; cells: RawCell[]; filled: boolean; lastColumn: number } | null = null;
  let cell: CellState | null = null;
  let into: 'v' | 't' | null = null;
  let phonetic = 0;
  readXmlPart(pkg, part, {
    open(name, attribute) {
      if (name === 'row') {
        const r = attribute('r') === undefined ? null : Number(attribute('r'));
        row = { number: r !== null && Number.isInteger(r) && r > 0 ? r : null, cells: [], filled: false, lastColumn: 0 };
      } else if (name === 'c' && row !== null) {
        const address = cellAddress(attribute('r'));
        if (row.number === null && address.row !== null) row.number = address.row;
        cell = { type: attribute('t') ?? 'n', style: Number(attribute('s') ?? 0), column: address.column, v: undefined, inline: undefined };
      } else if (cell !== null) {
        if (name === 'v') {
          into = 'v';
          cell.v = cell.v ?? '';
        } else if (name === 'is') cell.inline = '';
        else if (name === 't') into = 't';
        else if (name === 'rPh') phonetic += 1;
      }
    },
    close(name) {
      if (name === 'v' || name === 't') into = null;
      else if (name === 'rPh') phonetic -= 1;
      else if (name === 'c' && row !== null && cell !== null) {
        const column = cell.column ?? row.lastColumn + 1;
        if (column <= row.lastColumn) throw unreadable(`a cell of row ${row.number ?? '?'} is out of order`);
        row.lastColumn = column;
        const value = cellValue(cell, context);
        cell = null;
        if (value === null) return;
        if (column > MAX_BATCH_COLUMNS) throw new BatchFileError('tooManyColumns', `the sheet has a value in column ${column}; at most ${MAX_BATCH_COLUMNS} columns are read`);
        if (typeof value === 'string') context.budget.spend(value);
        else maxShared = Math.max(maxShared, value);
        row.cells[column - 1] = value;
        row.filled = true;
      } else if (name === 'row' && row !== null) {
        const number = row.number ?? lastRow + 1;
        if (number <= lastRow) throw unreadable(`row ${number} comes after row ${lastRow}`);
        lastRow = number;
        if (row.filled) {
          rows.push({ rowNumber: number, cells: row.cells });
          // The header and MAX_BATCH_ROWS data rows are all a batch may hold: nothing past them is read.
          if (rows.length > MAX_BATCH_ROWS + 1) throw new BatchFileError('tooManyRows', `the sheet has more than ${MAX_BATCH_ROWS} rows below its header; reading stopped at row ${number}`);
        }
        row = null;
      }
    },
    text(chunk) {
      if (cell === null || into === null) return;
      if (into === 'v') cell.v = (cell.v ?? '') + chunk;
      else if (cell.inline !== undefined && phonetic === 0) cell.inline += chunk;
    },
  });
  const wanted = new Uint8Array(maxShared < 0 ? 0 : (maxShared >> 3) + 1);
  for (const kept of rows) for (const value of kept.cells) if (typeof value === 'number') wanted[value >> 3] = (wanted[value >> 3] ?? 0) | (1 << (value & 7));
  return { rows, wanted };
}

/** The rows with their shared strings in place (trimmed; blank rows dropped), each as wide as the widest. */
export function resolveRows(rows: readonly RawRow[], strings: ReadonlyMap<number, string>): { rowNumber: number; cells: string[] }[] {
  const resolved = rows.map((row) => {
    const cells: string[] = [];
    for (let index = 0; index < row.cells.length; index += 1) {
      const value = row.cells[index];
      let text = '';
      if (typeof value === 'string') text = value;
      else if (typeof value === 'number') {
        const shared = strings.get(value);
        if (shared === undefined) throw unreadable(`a cell refers to shared string ${value}, which the workbook lacks`);
        text = shared.trim();
      }
      cells.push(text);
    }
    return { rowNumber: row.rowNumber, cells };
  });
  const filled = resolved.filter((row) => row.cells.some((text) => text !== ''));
  const width = Math.max(0, ...filled.map((row) => row.cells.reduce((last, text, index) => (text === '' ? last : index + 1), 0)));
  return filled.map((row) => ({ rowNumber: row.rowNumber, cells: Array.from({ length: width }, (_, index) => row.cells[index] ?? '') }));
}
