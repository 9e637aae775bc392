// A cell's text as the batch reads it, the rules read-excel-file applied before (contract §13.1): a
// number is kept as the text the sheet stores (no float rounding of a phone or card number); a number
// whose style is a date format is that date as YYYY-MM-DD; booleans are "true"/"false"; an error cell
// is empty; strings are trimmed and their `_xHHHH_` escapes (ECMA-376 ST_Xstring) decoded.

/** The built-in number formats that show a date (locale-independent, zh-CN/zh-TW/ja/ko, Thai). */
const BUILT_IN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81]);

const DATE_TOKENS = new Set(['s', 'ss', 'm', 'mm', 'mmm', 'mmmm', 'mmmmm', 'h', 'hh', 'am', 'pm', 'a', 'p', 'd', 'dd', 'ddd', 'dddd', 'aaa', 'aaaa', 'aaaaa', 'y', 'yy', 'yyyy', 'e', 'ee', 'eeee']);

const DAY_MS = 86_400_000;
/** Excel's day 0 is 1899-12-31 and it counts a 29 February 1900 that never was: day 25569 is 1970-01-01. */
const UNIX_EPOCH_DAY = 25_569;
const EPOCH_1904_SHIFT = 1462;

/** Whether a custom number format's code shows a date (every token of one of its sections is a date token). */
export function isDateFormatCode(code: string): boolean {
  const sections = code.toLowerCase().replace(/;@$/, '').replace(/\\./g, ' ').split(';');
  return sections.some((section) => {
    const plain = section
      .replace(/"[^"]*"/g, ' ')
      .replace(/(\[?[smhd]{1,2}\]?)[.,]00?0?/g, '$1')
      .replace(/\[([smhd]{1,2})\]/g, '$1')
      .replace(/\[[^\]]*\]/g, '');
    const tokens = plain.split(/[^a-z0#?%]+/).filter((token) => token !== '');
    return tokens.length > 0 && tokens.every((token) => DATE_TOKENS.has(token));
  });
}

export function isDateFormat(id: number, code: string | undefined): boolean {
  return BUILT_IN_DATE_FORMATS.has(id) || (code !== undefined && isDateFormatCode(code));
}

/** YYYY-MM-DD of an Excel serial day, or null when it is no date. */
export function serialDate(serial: string, epoch1904: boolean): string | null {
  const days = Number(serial);
  if (serial.trim() === '' || !Number.isFinite(days)) return null;
  const ms = Math.floor((days + (epoch1904 ? EPOCH_1904_SHIFT : 0) - UNIX_EPOCH_DAY) * DAY_MS);
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? null : date.toISOString().slice(0, 10);
}

/** YYYY-MM-DD of an ISO 8601 date cell (`t="d"`), or null. */
export function isoDate(text: string): string | null {
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date.toISOString().slice(0, 10);
}

/** Decodes `_xHHHH_` left to right (`_x005F_x0041_` is "_x0041_", not "_A"). */
export function unescapeSpreadsheetText(text: string): string {
  if (!text.includes('_x')) return text;
  return text.replace(/_x([0-9A-Fa-f]{4})_/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
