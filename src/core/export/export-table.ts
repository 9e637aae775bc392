// The export as a table: what every writer (CSV, XLSX) receives. Cells are plain text, a code (text
// that must reach a spreadsheet as text, every character kept: card numbers, passwords, order numbers),
// a price in fen (so a writer can make it a number without parsing text back), or blank (unknown).
export type ExportCell = string | { readonly code: string } | { readonly fen: number } | null;

export interface ExportTable {
  readonly sheetName: string;
  readonly headers: readonly string[];
  readonly rows: readonly (readonly ExportCell[])[];
}

export const isPrice = (cell: ExportCell): cell is { readonly fen: number } => cell !== null && typeof cell === 'object' && 'fen' in cell;
export const isCode = (cell: ExportCell): cell is { readonly code: string } => cell !== null && typeof cell === 'object' && 'code' in cell;

/**
 * The one way a code, order number, reference or account enters an export (contract §16.1): a code cell;
 * an empty one is a blank cell (a lone TAB would be a cell that is not empty).
 */
export const codeCell = (code: string): ExportCell => (code === '' ? null : { code });
