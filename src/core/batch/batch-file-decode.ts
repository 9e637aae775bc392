// The text of a CSV file, exactly as written or with its invalid bytes located (contract §13.1): a
// UTF-8 byte-order mark says UTF-8; bytes valid as UTF-8 are UTF-8; otherwise the evidence decides —
// UTF-8 with broken bytes when its well-formed Chinese characters are at least as many as its broken
// spots (GB18030 would read such bytes as plausible-looking but wrong characters), else GB18030.
// Valid text is decoded fatally; invalid bytes are reported by line and column (byte-scan.ts).
import { BatchFileError } from './batch-file-error';
import { scanGb18030, scanUtf8 } from './byte-scan';

const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;

export type TextEncodingName = 'utf-8' | 'utf-8-bom' | 'gb18030';

/** Where a file's bytes are not valid in the encoding it was read in. */
export interface InvalidBytes {
  readonly encoding: 'utf-8' | 'gb18030';
  /** Every line (1-based, lines end at LF) holding invalid bytes → the column (1-based, in characters) of its first. */
  readonly lines: ReadonlyMap<number, number>;
}

export interface DecodedText {
  /** The text; with invalid bytes, each invalid sequence is U+FFFD (for locating rows only: never ordered). */
  readonly text: string;
  readonly encoding: TextEncodingName;
  readonly invalid: InvalidBytes | null;
}

function hasUtf8Bom(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === UTF8_BOM[0] && bytes[1] === UTF8_BOM[1] && bytes[2] === UTF8_BOM[2];
}

/** Control characters no table of text holds (everything below space but tab, newline, carriage return, form feed). */
function looksBinary(text: string): boolean {
  let controls = 0;
  const sample = text.slice(0, 65_536);
  for (let i = 0; i < sample.length; i += 1) {
    const code = sample.charCodeAt(i);
    if (code === 0) return true;
    if (code < 32 && code !== 9 && code !== 10 && code !== 13 && code !== 12) controls += 1;
  }
  return controls > Math.max(2, sample.length / 100);
}

function fatal(encoding: 'utf-8' | 'gb18030', bytes: Uint8Array): string | null {
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** Each line's first invalid sequence (its byte offset) → line number and column in characters. */
function locate(bytes: Uint8Array, encoding: 'utf-8' | 'gb18030', errors: readonly number[]): Map<number, number> {
  const lines = new Map<number, number>();
  const decoder = new TextDecoder(encoding);
  let line = 1;
  let lineStart = 0;
  let scanned = 0;
  for (const offset of errors) {
    for (; scanned < offset; scanned += 1) {
      if (bytes[scanned] === 0x0a) {
        line += 1;
        lineStart = scanned + 1;
      }
    }
    if (lines.has(line)) continue;
    // Everything before the first error of the line is whole, valid characters (LF ends every sequence).
    lines.set(line, [...decoder.decode(bytes.subarray(lineStart, offset))].length + 1);
  }
  return lines;
}

/** Which encoding the bytes are in, by the rule above; and the body to decode (without the BOM). */
function chooseEncoding(bytes: Uint8Array): { encoding: TextEncodingName; body: Uint8Array } {
  if (hasUtf8Bom(bytes)) return { encoding: 'utf-8-bom', body: bytes.subarray(3) };
  if (fatal('utf-8', bytes) !== null) return { encoding: 'utf-8', body: bytes };
  const utf8 = scanUtf8(bytes);
  return { encoding: utf8.chinese >= utf8.errors.length ? 'utf-8' : 'gb18030', body: bytes };
}

/** Decodes a CSV's bytes (see the rule above); throws BatchFileError `notATable` for binary data. */
export function decodeTableText(bytes: Uint8Array): DecodedText {
  const { encoding, body } = chooseEncoding(bytes);
  const label = encoding === 'gb18030' ? 'gb18030' : 'utf-8';
  const exact = fatal(label, body);
  let decoded: DecodedText;
  if (exact !== null) decoded = { text: exact, encoding, invalid: null };
  else {
    const errors = label === 'gb18030' ? scanGb18030(body).errors : scanUtf8(body).errors;
    // The platform's decoder refused what the scan passed: never guess, refuse the file.
    if (errors.length === 0) throw new BatchFileError('invalidBytes', `the file is not valid ${label.toUpperCase()} text`);
    decoded = { text: new TextDecoder(label).decode(body), encoding, invalid: { encoding: label, lines: locate(body, label, errors) } };
  }
  if (looksBinary(decoded.text)) throw new BatchFileError('notATable', 'the file is not text: neither a CSV (UTF-8 or GB18030) nor an XLSX workbook');
  return decoded;
}
