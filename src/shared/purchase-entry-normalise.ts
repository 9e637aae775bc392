// Cleans a top-up entry the way a buyer means it before it is checked, stored and sent: a phone
// number pasted as ` 138 0013 8000 `, typed with a Chinese IME as `１３８００１３８０００`, or copied
// as `+86 138-0013-8000` is the account 13800138000; a QQ number typed `987 654 321` is 987654321.
// One home for every side: the order form (and its paste box) shows and sends the cleaned value,
// and core cleans again (a value from the CLI or a batch file) before it validates and writes the
// intent, so what is stored and sent is always the cleaned value.
//
// The cleanups, by the field's kind (purchase-field-kind.ts; contract §5.1); anything else is left for
// validation to refuse, never guessed at:
// - every kind: surrounding white space is trimmed (ASCII, the ideographic space U+3000, NBSP…).
// - every kind but text and select: full-width ASCII (U+FF01–U+FF5E: digits, letters, ＋－＠．（）)
//   and the ideographic space become ASCII, and invisible characters that come along with a paste
//   (zero-width, direction marks, soft hyphen) are dropped.
// - mobile: spaces, dashes (any Unicode dash or minus), dots and brackets are removed; a leading
//   `+86`, `0086` or `86` is removed only when what remains is 11 digits starting with 1 (a
//   mainland number), so nothing that could be another number is cut.
// - numericId (only digits can be valid): white space and dashes are removed.
// - accountId (an account or identifier): white space is removed; dashes, dots and the rest are kept.
// - integer: spaces between digits are removed (`1 000` is how people group digits); commas are
//   removed only when they group thousands exactly (`1,000,000`; `1,00` or `12,34` stay as typed
//   and are refused: a decimal comma cannot be told apart). A Unicode minus becomes `-`.
// - email: the domain (after the last `@`) is lowercased (domains are case-insensitive; the local
//   part is left alone, since a mailbox may be case-sensitive).
// - text and select: trimmed only. Free text (a role name) may hold full-width characters and inner
//   spaces on purpose, and an option must match the merchant's value exactly.
// Every cleanup is idempotent: cleaning a cleaned value changes nothing.
import type { FieldKind } from './purchase-field-kind';

/** Invisible characters a copy brings along: zero-width, direction marks, word joiner, BOM, soft hyphen. */
const INVISIBLE = /[\u00AD\u200B-\u200F\u2060\uFEFF]/g;
const FULL_WIDTH_ASCII = /[\uFF01-\uFF5E]/g;
/** Separators a phone number is written with: white space, dashes and minus signs, dots, brackets. */
const PHONE_SEPARATORS = /[\s\-\u2010-\u2015\u2212\uFE58\uFE63.()[\]{}\u3010\u3011\u3014\u3015]/g;
const MAINLAND_MOBILE_WITH_PREFIX = /^(?:\+86|0086|86)(1\d{10})$/;
/** Dashes and minus signs (ASCII, Unicode dashes, the minus sign, small forms). */
const DASHES = /[-\u2010-\u2015\u2212\uFE58\uFE63]/g;
const THOUSANDS = /^-?\d{1,3}(?:,\d{3})+$/;

/** Full-width ASCII and the ideographic space to ASCII; invisible characters dropped. */
export function foldToAscii(value: string): string {
  return value
    .replace(INVISIBLE, '')
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

/** A value only digits can make valid (a QQ number, a UID): `９８７ ６５４-３２１` → 987654321. */
export function normaliseNumericId(value: string): string {
  return foldToAscii(value).replace(/\s+/g, '').replace(DASHES, '');
}

/** An account or identifier: `player 01` → player01, `ｐｌａｙｅｒ＿０１` → player_01. */
export function normaliseAccountId(value: string): string {
  return foldToAscii(value).replace(/\s+/g, '');
}

/**
 * The value as it is validated, stored and sent, for a field of this kind (a field's type is a kind
 * too: a caller that knows only the type gets that type's cleaning).
 */
export function normaliseEntryValue(kind: FieldKind, value: string): string {
  switch (kind) {
    case 'mobile':
      return normaliseMobile(value);
    case 'integer':
      return normaliseInteger(value);
    case 'email':
      return normaliseEmail(value);
    case 'numericId':
      return normaliseNumericId(value);
    case 'accountId':
      return normaliseAccountId(value);
    case 'text':
    case 'select':
      return value.trim();
  }
}
