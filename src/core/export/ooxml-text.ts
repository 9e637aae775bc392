// Text inside SpreadsheetML: XML escaping, plus the ST_Xstring escape `_xHHHH_` for what XML 1.0 cannot
// carry (control characters, lone surrogates, U+FFFE/U+FFFF), for CR (every XML parser reads a raw CR
// back as LF) and TAB (out of any reader's whitespace handling). Excel reads those back to the character,
// so a code holding one survives exactly; a literal `_xHHHH_` is protected the same way (`_x005F_`
// escapes the underscore). LF stays raw, as Excel writes it.

// Characters escaped as `_xHHHH_`: every C0 control but LF, and lone surrogate halves (matching
// control characters is the point here, hence the rule switched off for this line).
// eslint-disable-next-line no-control-regex
const NOT_XML_CHAR = /[\u0000-\u0009\u000B-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const LITERAL_ESCAPE = /_(x[0-9A-Fa-f]{4}_)/g;

const hex4 = (char: string): string => (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');

// Most cells (digits, letters, 汉字) need no escaping at all: one test skips the seven replaces.
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /[&<>"_\u0000-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** Escapes text for an element's content or an attribute value (quotes included). */
export function xmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A cell string as SpreadsheetML stores it: ST_Xstring escapes first, then XML escaping. */
export function spreadsheetText(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  const withEscapes = text.replace(LITERAL_ESCAPE, '_x005F_$1').replace(NOT_XML_CHAR, (char) => `_x${hex4(char)}_`);
  return xmlEscape(withEscapes);
}

/** Column letters of a zero-based index: 0 → A, 25 → Z, 26 → AA. */
export function columnLetters(index: number): string {
  let n = index + 1;
  let letters = '';
  while (n > 0) {
    const rest = (n - 1) % 26;
    letters = String.fromCharCode(65 + rest) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}
