// How a Chinese line is spelled for search: its pinyin, computed at index time by pinyin-pro, never
// per query. A line's readings are the library's contextual reading (重庆 → chong qing) plus, for each
// polyphonic character, one alternative per other reading (zhong qing), a bounded few per line: a buyer
// types the reading they know, and the library's context can be wrong. Non-Chinese characters spell
// themselves, so "QQ音乐" is "qqyinyue" and "qqyy".
import { pinyin, polyphonic } from 'pinyin-pro';

/** Starts every line of the product name and of its spellings: exact and prefix matches rank first. */
export const LINE_START = '\u0002';
/** Ends those lines, so "equals" is a phrase too. */
export const LINE_END = '\u0003';
/** Precedes the full pinyin from each syllable on: a full-pinyin term matches only from a syllable. */
export const SYLLABLE_START = '\u0004';

/** Alternatives per line beyond the contextual reading; most names have none, a few have two. */
const MAX_ALTERNATIVES = 6;
/** Letters of full pinyin kept after each syllable start: longer terms are compared on these. */
export const MAX_SPELLED_LETTERS = 32;

const HAN = /\p{Script=Han}/u;
const FIRST_FULLWIDTH = 0xff41;

/**
 * Initials are written as full-width letters (ａｑｙ), which normalised text never contains (NFKC
 * folds them to ASCII): a Latin term of a product name ("steam") never meets an initials line, and an
 * initials term meets only initials.
 */
export function asInitials(letters: string): string {
  return Array.from(letters, (c) => (c >= 'a' && c <= 'z' ? String.fromCodePoint(FIRST_FULLWIDTH + c.charCodeAt(0) - 97) : c)).join('');
}

export function hasHan(text: string): boolean {
  return HAN.test(text);
}

/** One reading of a line: a syllable per character (a non-Chinese character is its own syllable). */
type Reading = readonly string[];

const OPTIONS = { toneType: 'none', type: 'array', v: true } as const;

/** The contextual reading and the single-character alternatives of a normalised line. */
export function readings(line: string): Reading[] {
  const chars = Array.from(line);
  const contextual = pinyin(line, OPTIONS).map((syllable) => syllable.toLowerCase());
  // The library returns one item per character for this option set; if it ever does not, the
  // characters spell themselves rather than being misaligned with their readings.
  const base: string[] = contextual.length === chars.length ? contextual : chars;
  const found: Reading[] = [base];
  const seen = new Set([base.join(' ')]);
  chars.forEach((char, index) => {
    if (!HAN.test(char)) return;
    for (const other of polyphonicReadings(char)) {
      if (found.length > MAX_ALTERNATIVES) return;
      const alternative = base.map((syllable, at) => (at === index ? other : syllable));
      const key = alternative.join(' ');
      if (!seen.has(key)) {
        seen.add(key);
        found.push(alternative);
      }
    }
  });
  return found;
}

const polyphonicCache = new Map<string, readonly string[]>();

function polyphonicReadings(char: string): readonly string[] {
  let found = polyphonicCache.get(char);
  if (found === undefined) {
    found = (polyphonic(char, OPTIONS)[0] ?? []).map((syllable) => syllable.toLowerCase()).filter((syllable) => /^[a-z]+$/u.test(syllable));
    polyphonicCache.set(char, found);
  }
  return found;
}

/**
 * The spelling lines of one reading: the full pinyin from every syllable on (each after
 * SYLLABLE_START, at most MAX_SPELLED_LETTERS letters), the initials, and the junction of each Chinese
 * character with the next syllable's first letter ("爱q", for mixed input such as "爱qy"). With
 * `marked`, the whole full pinyin and the whole initials also appear between LINE_START and LINE_END.
 */
export function spellingLines(reading: Reading, chars: readonly string[], marked: boolean): string[] {
  const lines: string[] = [];
  const full = reading.join('');
  let offset = 0;
  reading.forEach((syllable, index) => {
    lines.push(SYLLABLE_START + full.slice(offset, offset + MAX_SPELLED_LETTERS));
    offset += syllable.length;
    const char = chars[index];
    const next = reading[index + 1];
    if (char !== undefined && next !== undefined && HAN.test(char)) lines.push(char + next.slice(0, 1));
  });
  const initials = asInitials(reading.map((syllable) => syllable.slice(0, 1)).join(''));
  lines.push(initials);
  if (marked) {
    if (full.length <= MAX_SPELLED_LETTERS) lines.push(LINE_START + SYLLABLE_START + full + LINE_END);
    lines.push(LINE_START + initials + LINE_END);
  }
  return lines;
}
