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

/** GB18030 bytes of text (ASCII and the two-byte GBK range, which holds every common Chinese character). */
export function gb18030(text: string): Uint8Array {
  if (gbTable === null) {
    gbTable = new Map();
    const decoder = new TextDecoder('gb18030');
    for (let lead = 0x81; lead <= 0xfe; lead += 1) {
      for (let trail = 0x40; trail <= 0xfe; trail += 1) {
        if (trail === 0x7f) continue;
        const char = decoder.decode(Uint8Array.of(lead, trail));
        if (char.length === 1 && !gbTable.has(char)) gbTable.set(char, [lead, trail]);
      }
    }
  }
  const out: number[] = [];
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (code < 0x80) out.push(code);
    else {
      const bytes = gbTable.get(char);
      if (bytes === undefined) throw new Error(`no two-byte GB18030 code for ${char}`);
      out.push(...bytes);
    }
  }
  return Uint8Array.from(out);
}

export function xlsx(header: readonly string[], rows: readonly (readonly ExportCell[])[]): Promise<Uint8Array> {
  return xlsxBytes({ sheetName: 'Sheet1', headers: header, rows });
}

export const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');
