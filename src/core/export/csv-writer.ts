// CSV as RFC 4180 says it (CRLF after every record; fields with a comma, quote, CR, LF, `;` or TAB quoted,
// quotes doubled) in UTF-8 with a BOM (without it, Excel on a Chinese Windows reads GBK). OWASP's formula
// guard: a cell starting with = + - @ TAB CR gets a leading apostrophe. A code cell (card number, password,
// order number) ends with one TAB, so Excel, WPS and LibreOffice keep it as text with every digit and zero,
// with no formula in the file (contract §16.1); `;` and TAB are quoted as LibreOffice's import splits on them.
import { fenToYuanText } from '../../shared/money';
import { isCode, isPrice, type ExportCell, type ExportTable } from './export-table';

export const UTF8_BOM = Uint8Array.of(0xef, 0xbb, 0xbf);

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",;\t\r\n]/;

/** What a code cell carries after the code itself (contract §16.1); a reader drops exactly this one. */
export const CSV_CODE_SUFFIX = '\t';

/** One field: guarded against formulas, then quoted when RFC 4180 requires it. */
export function csvField(text: string): string {
  const guarded = FORMULA_START.test(text) ? `'${text}` : text;
  return NEEDS_QUOTES.test(guarded) || guarded !== guarded.trim() ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

function cellText(cell: ExportCell): string {
  if (cell === null) return '';
  // A price is our own number ("12.50"): never a formula, so it skips the guard (a negative
  // amount cannot occur: prices are CHECKed >= 0).
  if (isPrice(cell)) return fenToYuanText(cell.fen);
  if (isCode(cell)) return csvField(`${cell.code}${CSV_CODE_SUFFIX}`);
  return csvField(cell);
}

/** The CSV text without the BOM (the caller prepends it when it writes bytes). */
export function csvText(table: ExportTable): string {
  const lines = [table.headers.map(csvField).join(','), ...table.rows.map((row) => row.map(cellText).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}

/** The file's bytes: BOM + UTF-8 text. */
export function csvBytes(table: ExportTable): Uint8Array {
  const body = new TextEncoder().encode(csvText(table));
  const bytes = new Uint8Array(UTF8_BOM.length + body.length);
  bytes.set(UTF8_BOM, 0);
  bytes.set(body, UTF8_BOM.length);
  body.fill(0);
  return bytes;
}
