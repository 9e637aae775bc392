// Batch files made in the test, never checked in: CSV text in UTF-8 (with or without BOM) or GB18030,
// and XLSX workbooks written by the app's own xlsx writer (a real SpreadsheetML package).
import { xlsxBytes } from '../../../src/core/export/xlsx-writer';
import type { ExportCell } from '../../../src/core/export/export-table';

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

export const utf8Bom = (text: string): Uint8Array => {
  const body = utf8(text);
  const bytes = new Uint8Array(body.length + 3);
  bytes.set([0xef, 0xbb, 0xbf], 0);
  bytes.set(body, 3);
  return bytes;
};

let gbTable: Map<string, number[]> | null = null;

/** Every BMP character GB18030 writes: two-byte codes first, then the four-byte ones (pointer 0–39419). */
function gbCodes(): Map<string, number[]> {
  if (gbTable !== null) return gbTable;
  const table = new Map<string, number[]>();
  const decoder = new TextDecoder('gb18030', { fatal: true });
  for (let lead = 0x81; lead <= 0xfe; lead += 1) {
    for (let trail = 0x40; trail <= 0xfe; trail += 1) {
      if (trail === 0x7f) continue;
      const char = decoder.decode(Uint8Array.of(lead, trail));
      if (char.length === 1 && !table.has(char)) table.set(char, [lead, trail]);
    }
  }
  for (let pointer = 0; pointer <= 39419; pointer += 1) {
    const bytes = [0x81 + Math.floor(pointer / 12600), 0x30 + (Math.floor(pointer / 1260) % 10), 0x81 + (Math.floor(pointer / 10) % 126), 0x30 + (pointer % 10)];
    const char = decoder.decode(Uint8Array.from(bytes));
    if (char.length === 1 && !table.has(char)) table.set(char, bytes);
  }
  gbTable = table;
  return table;
}

/** GB18030 bytes of text: ASCII, the two-byte codes (every common Chinese character) and four-byte ones (the rest of Unicode). */
export function gb18030(text: string): Uint8Array {
  const table = gbCodes();
  const out: number[] = [];
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x80) out.push(code);
    else if (code >= 0x10000) {
      // Supplementary planes: four bytes from pointer 189000, in order.
      const pointer = 189000 + code - 0x10000;
      out.push(0x81 + Math.floor(pointer / 12600), 0x30 + (Math.floor(pointer / 1260) % 10), 0x81 + (Math.floor(pointer / 10) % 126), 0x30 + (pointer % 10));
    } else {
      const bytes = table.get(char);
      if (bytes === undefined) throw new Error(`no GB18030 code for U+${code.toString(16)}`);
      out.push(...bytes);
    }
  }
  return Uint8Array.from(out);
}

export function xlsx(header: readonly string[], rows: readonly (readonly ExportCell[])[]): Promise<Uint8Array> {
  return xlsxBytes({ sheetName: 'Sheet1', headers: header, rows });
}

export const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');
