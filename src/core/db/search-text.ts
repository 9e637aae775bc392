// Text normalisation shared by the search index writer and the search query, so that both sides
// agree on what a "character" is: NFKC (full-width ＱＱ and digits become QQ and ASCII digits),
// lower case, and no whitespace or invisible characters at all. Dropping whitespace makes
// "爱奇艺黄金会员 月卡" findable as "会员月", and a query can never span two indexed lines (they are
// joined by a newline, which no normalised term contains).

/** Pads a 1- or 2-character gram to the 3 characters a trigram index needs; never in normalised text. */
export const GRAM_PAD = '\u001f';

/** Longest term used; longer input is cut rather than rejected (the trigram phrase stays exact). */
const MAX_TERM_LENGTH = 64;
export const MAX_TERMS = 8;

const INVISIBLE_OR_SPACE = /[\s\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

export function normalizeSearchText(value: string): string {
  return value.normalize('NFKC').toLowerCase().replace(INVISIBLE_OR_SPACE, '');
}

/** Query words: whitespace separates terms (all must match); each term is normalised like the index. */
export function searchTerms(query: string): string[] {
  const terms: string[] = [];
  for (const word of query.normalize('NFKC').split(/\s+/u)) {
    const term = Array.from(normalizeSearchText(word)).slice(0, MAX_TERM_LENGTH).join('');
    if (term.length > 0 && !terms.includes(term)) terms.push(term);
    if (terms.length === MAX_TERMS) break;
  }
  return terms;
}

/** Every distinct substring of one or two characters (code points, not UTF-16 units) of a line. */
export function shortGrams(line: string): string[] {
  const chars = Array.from(line);
  const grams = new Set<string>();
  chars.forEach((char, index) => {
    grams.add(char);
    const next = chars[index + 1];
    if (next !== undefined) grams.add(char + next);
  });
  return [...grams];
}

/** "会员" → "会员␟", "卡" → "卡␟␟": exactly one trigram, which only that gram can produce. */
export function padGram(gram: string): string {
  return gram + GRAM_PAD.repeat(3 - Array.from(gram).length);
}

export function codePointLength(value: string): number {
  return Array.from(value).length;
}
