// Independent readers of what an export wrote, for assertions: the .xlsx package unzipped with
// a ZIP reader of the tests' own (zip-entries.ts) and its sheet XML parsed back to text cells (XML entities and Excel's _xHHHH_ escapes
// undone, as Excel reads them), an RFC 4180 CSV parser, and the external tools (msoffcrypto-tool,
// 7-Zip) run as a user would run them.
import { spawnSync } from 'node:child_process';
import { msoffcryptoPython, toolPath } from '../../support/external-tools';
import { zipEntries } from './zip-entries';

export interface SheetCell {
  readonly text: string;
  /** 's' shared string, 'n' number (no t attribute), … */
  readonly type: string;
  readonly style: string | null;
}

function xmlUnescape(text: string): string {
  return text
    .replace(/&#x([0-9a-fA-F]+);/g, (_w, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_w, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

const unXstring = (text: string): string => text.replace(/_x([0-9A-Fa-f]{4})_/g, (_w, code: string) => String.fromCharCode(parseInt(code, 16)));

export interface ParsedWorkbook {
  readonly parts: string[];
  readonly sheetName: string;
  /** Rows of cells by column letter order; a missing cell is null. */
  readonly rows: (SheetCell | null)[][];
  readonly sheetXml: string;
  readonly stylesXml: string;
}

export function readXlsx(bytes: Uint8Array): ParsedWorkbook {
  const files = zipEntries(bytes);
  const part = (name: string): string => {
    const data = files.get(name);
    if (data === undefined) throw new Error(`the package has no ${name}`);
    return new TextDecoder().decode(data);
  };
  const shared = [...part('xl/sharedStrings.xml').matchAll(/<si>(.*?)<\/si>/gs)].map((m) =>
    [...(m[1] ?? '').matchAll(/<t(?:\s[^>]*)?>(.*?)<\/t>/gs)].map((t) => unXstring(xmlUnescape(t[1] ?? ''))).join(''),
  );
  const sheetXml = part('xl/worksheets/sheet1.xml');
  const rows: (SheetCell | null)[][] = [];
  for (const row of sheetXml.matchAll(/<row [^>]*>(.*?)<\/row>/gs)) {
    const cells: (SheetCell | null)[] = [];
    for (const cell of (row[1] ?? '').matchAll(/<c r="([A-Z]+)\d+"([^>]*)>(.*?)<\/c>/gs)) {
      const column = (cell[1] ?? 'A').split('').reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
      const attrs = cell[2] ?? '';
      const type = /\bt="(\w+)"/.exec(attrs)?.[1] ?? 'n';
      const style = /\bs="(\d+)"/.exec(attrs)?.[1] ?? null;
      const value = /<v>(.*?)<\/v>/s.exec(cell[3] ?? '')?.[1] ?? '';
      const text = type === 's' ? (shared[Number(value)] ?? '') : xmlUnescape(value);
      while (cells.length < column) cells.push(null);
      cells[column] = { text, type, style };
    }
    rows.push(cells);
  }
  const sheetName = xmlUnescape(/<sheet name="([^"]*)"/.exec(part('xl/workbook.xml'))?.[1] ?? '');
  return { parts: [...files.keys()], sheetName, rows, sheetXml, stylesXml: part('xl/styles.xml') };
}

/**
 * Quoted fields may hold commas, quotes (doubled) and line breaks. `crlf` (RFC 4180, what the app
 * writes): records end with CRLF, and a last record without one is an error. `lines` (LibreOffice on
 * Linux): records end at an unquoted LF or CRLF, and the last one may end without.
 */
function parseQuoted(text: string, ends: 'crlf' | 'lines'): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      record.push(field);
      field = '';
    } else if ((ch === '\r' && text[i + 1] === '\n') || (ends === 'lines' && ch === '\n')) {
      if (ch === '\r') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || record.length > 0) {
    if (ends === 'crlf') throw new Error('the CSV does not end with CRLF');
    record.push(field);
    records.push(record);
  }
  return records;
}

/** A CSV as the app writes it (RFC 4180, CRLF after every record). */
export const parseCsv = (text: string): string[][] => parseQuoted(text, 'crlf');

/** A CSV as LibreOffice writes one on Linux: inside quotes every character, CR and LF included, is the cell's own. */
export const parseCsvLines = (text: string): string[][] => parseQuoted(text, 'lines');

export interface ToolRun {
  readonly status: number | null;
  readonly stdout: Buffer;
  readonly stderr: string;
}

export function run(command: string, args: readonly string[]): ToolRun {
  const result = spawnSync(command, args, { maxBuffer: 256 * 1024 * 1024 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr.toString('utf8') };
}

export const MSOFFCRYPTO = toolPath('msoffcrypto-tool');
export const SEVEN_ZIP = toolPath('7z');

/**
 * Decrypts with msoffcrypto's Python API too, with the password verifier and the HMAC data-integrity
 * check switched on (the CLI checks neither): proves both are right, not only the key.
 */
export function verifyOfficeIntegrity(file: string, password: string): ToolRun {
  const script = [
    'import io, sys, msoffcrypto',
    'f = msoffcrypto.OfficeFile(open(sys.argv[1], "rb"))',
    'f.load_key(password=sys.argv[2], verify_password=True)',
    'out = io.BytesIO()',
    'f.decrypt(out, verify_integrity=True)',
    'print(len(out.getvalue()))',
  ].join('\n');
  return run(msoffcryptoPython(), ['-c', script, file, password]);
}

/** Every encoding in which a secret could sit in a file: UTF-8 and UTF-16LE. */
export function containsText(bytes: Uint8Array, text: string): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return buffer.includes(Buffer.from(text, 'utf8')) || buffer.includes(Buffer.from(text, 'utf16le'));
}
