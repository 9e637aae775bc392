// An XLSX batch file as rows of text, read as a stream within fixed bounds (contract §13.1): the ZIP's
// parts inflated piece by piece with every byte counted (xlsx-zip-parts.ts), each XML part parsed as it
// inflates with DOCTYPE/ENTITY refused (xlsx-xml-stream.ts), the first sheet's rows counted as they
// close (xlsx-sheet-rows.ts), then only the shared strings those rows use (xlsx-workbook.ts). Runs in
// the reader's worker (xlsx-read-isolated.ts); synchronous, so a runaway is the worker's to stop.
import { readSheetRows, resolveRows } from './xlsx-sheet-rows';
import { readDateStyles, readFirstSheet, readSharedStrings, TextBudget } from './xlsx-workbook';
import { XlsxPackage } from './xlsx-zip-parts';

export interface XlsxRow {
  /** The sheet's own row number. */
  readonly rowNumber: number;
  readonly cells: string[];
}

/** The first sheet's rows that hold a value, each as wide as the widest; throws BatchFileError. */
export function readXlsxRows(bytes: Uint8Array): XlsxRow[] {
  const pkg = new XlsxPackage(bytes);
  const sheet = readFirstSheet(pkg);
  const dateStyles = readDateStyles(pkg, sheet.stylesPart);
  const budget = new TextBudget();
  const { rows, wanted } = readSheetRows(pkg, sheet.sheetPart, { dateStyles, epoch1904: sheet.epoch1904, budget });
  const strings = readSharedStrings(pkg, sheet.sharedStringsPart, wanted, budget);
  return resolveRows(rows, strings);
}
