// The text of a CSV file, whatever wrote it (contract §13.1): a UTF-8 byte-order mark says UTF-8;
// otherwise bytes that are valid UTF-8 are UTF-8 (TextDecoder fatal), and anything else is read as
// GB18030, which is what Chinese Excel and WPS write for "CSV" (a superset of GBK and GB2312).
// Node ships full ICU, so the GB18030 decoder is the platform's own.
import { BatchFileError } from './batch-file-error';

const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;

export type TextEncodingName = 'utf-8' | 'utf-8-bom' | 'gb18030';

export interface DecodedText {
  readonly text: string;
  readonly encoding: TextEncodingName;
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

export function decodeTableText(bytes: Uint8Array): DecodedText {
  let decoded: DecodedText;
  if (hasUtf8Bom(bytes)) {
    decoded = { text: new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(3)), encoding: 'utf-8-bom' };
  } else {
    try {
      decoded = { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
    } catch {
      decoded = { text: new TextDecoder('gb18030').decode(bytes), encoding: 'gb18030' };
    }
  }
  if (looksBinary(decoded.text)) throw new BatchFileError('notATable', 'the file is not text: neither a CSV (UTF-8 or GB18030) nor an XLSX workbook');
  return decoded;
}
