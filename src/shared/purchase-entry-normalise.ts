// Cleans a top-up entry the way a buyer means it before it is checked, stored and sent: a phone
// number pasted as ` 138 0013 8000 `, typed with a Chinese IME as `１３８００１３８０００`, or copied
// as `+86 138-0013-8000` is the account 13800138000. One home for both sides: the order form shows
// and sends the cleaned value, and core cleans again (a value from the CLI or a batch file) before
// it validates and writes the intent, so what is stored and sent is always the cleaned value.
//
// The cleanups, by field type (anything else is left for validation to refuse, never guessed at):
// - every type: surrounding white space is trimmed (ASCII, the ideographic space U+3000, NBSP…).
// - mobile, integer, email (whose valid values are plain ASCII by definition): full-width ASCII
//   (U+FF01–U+FF5E: digits, letters, ＋－＠．（）) and the ideographic space become ASCII, and
//   zero-width characters that come along with a paste are dropped.
// - mobile: spaces, dashes (any Unicode dash or minus), dots and brackets are removed; a leading
//   `+86`, `0086` or `86` is removed only when what remains is 11 digits starting with 1 (a
//   mainland number), so nothing that could be another number is cut.
// - integer: spaces between digits are removed (`1 000` is how people group digits); commas are
//   removed only when they group thousands exactly (`1,000,000`; `1,00` or `12,34` stay as typed
//   and are refused: a decimal comma cannot be told apart). A Unicode minus becomes `-`.
// - email: the domain (after the last `@`) is lowercased (domains are case-insensitive; the local
//   part is left alone, since a mailbox may be case-sensitive).
// - text and select: trimmed only. A free-text account may hold full-width characters on purpose,
//   and an option must match the merchant's value exactly.
// Every cleanup is idempotent: cleaning a cleaned value changes nothing.
import type { PurchaseFieldType } from './merchant/known-values';

const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF]/g;
const FULL_WIDTH_ASCII = /[\uFF01-\uFF5E]/g;
/** Separators a phone number is written with: white space, dashes and minus signs, dots, brackets. */
const PHONE_SEPARATORS = /[\s\-\u2010-\u2015\u2212\uFE58\uFE63.()[\]{}\u3010\u3011\u3014\u3015]/g;
const MAINLAND_MOBILE_WITH_PREFIX = /^(?:\+86|0086|86)(1\d{10})$/;
const THOUSANDS = /^-?\d{1,3}(?:,\d{3})+$/;

/** Full-width ASCII and the ideographic space to ASCII; zero-width characters dropped. */
export function foldToAscii(value: string): string {
  return value
    .replace(ZERO_WIDTH, '')
    .replace(FULL_WIDTH_ASCII, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .replace(/\u3000/g, ' ');
}

export function normaliseMobile(value: string): string {
  const bare = foldToAscii(value).replace(PHONE_SEPARATORS, '');
  const national = MAINLAND_MOBILE_WITH_PREFIX.exec(bare);
  return national?.[1] ?? bare;
}

export function normaliseInteger(value: string): string {
  const bare = foldToAscii(value).replace(/\u2212/g, '-').replace(/\s+/g, '');
  return THOUSANDS.test(bare) ? bare.replace(/,/g, '') : bare;
}

export function normaliseEmail(value: string): string {
  const trimmed = foldToAscii(value).trim();
  const at = trimmed.lastIndexOf('@');
  return at < 0 ? trimmed : trimmed.slice(0, at + 1) + trimmed.slice(at + 1).toLowerCase();
}

/** The value as it is validated, stored and sent, for a field of this type. */
export function normaliseEntryValue(type: PurchaseFieldType, value: string): string {
  switch (type) {
    case 'mobile':
      return normaliseMobile(value);
    case 'integer':
      return normaliseInteger(value);
    case 'email':
      return normaliseEmail(value);
    case 'text':
    case 'select':
      return value.trim();
  }
}
