// The export as a table: what every writer (CSV, XLSX) receives. Cells are plain text, a price in
// fen (so a writer can make it a number without parsing text back), or blank (unknown).
export type ExportCell = string | { readonly fen: number } | null;

export interface ExportTable {
  readonly sheetName: string;
  readonly headers: readonly string[];
  readonly rows: readonly (readonly ExportCell[])[];
}

export const isPrice = (cell: ExportCell): cell is { readonly fen: number } => cell !== null && typeof cell === 'object';
