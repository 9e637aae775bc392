// How a Chinese line is spelled for search, computed at index time by pinyin-pro, never per query.
// The library is loaded on the first document written with Chinese in it, never when core or the
// CLI starts (it costs a few hundred ms to load: test/cli/cli-pinyin-lazy.test.ts). One reading per
// line, the library's contextual one (重庆 → chong qing, 银行 → yin hang); non-Chinese letters and
// digits spell themselves, one piece per character, so "QQ音乐" is "q q yin yue" and "qqyy".
import { createRequire } from 'node:module';
import type * as PinyinPro from 'pinyin-pro';

/** Starts the line of the product name and of its full pinyin and initials: exact and prefix ranking. */
export const LINE_START = '\u0002';
/** Ends those lines, so "equals" is a phrase too. */
export const LINE_END = '\u0003';

const HAN = /\p{Script=Han}/u;
const LETTER_OR_DIGIT = /^[a-z0-9]$/u;
const SPELLED = /^[a-z]+$/u;

export function hasHan(text: string): boolean {
  return HAN.test(text);
}

/**
 * Initials of a name or brand are written in full-width letters (ａｑｙ) and those of a category in
 * circled ones (ⓐⓠⓨ); normalised text never holds either (NFKC folds both to ASCII), so a product's
 * own Latin word ("steam") never meets an initials line, and a category's initials stay apart.
 */
export function asInitials(letters: string, category = false): string {
  const first = category ? 0x24d0 : 0xff41;
  return Array.from(letters, (c) => (c >= 'a' && c <= 'z' ? String.fromCodePoint(first + c.charCodeAt(0) - 97) : c)).join('');
}

/** The spelling of one normalised line: its pieces (syllables, letters, digits) and what each came from. */
export interface Spelling {
  /** One per character that has a spelling; punctuation and characters without pinyin have none. */
  readonly pieces: readonly string[];
  /** The character each piece spells (junctions join a Chinese one to the next piece). */
  readonly chars: readonly string[];
}

type PinyinLibrary = typeof PinyinPro;

let library: PinyinLibrary | undefined;

function isPinyinLibrary(value: unknown): value is PinyinLibrary {
  return typeof value === 'object' && value !== null && 'pinyin' in value && typeof value.pinyin === 'function';
}

/** pinyin-pro, loaded on first use (synchronously: documents are written inside transactions). */
function pinyinLibrary(): PinyinLibrary {
  if (library === undefined) {
    const loaded: unknown = createRequire(import.meta.url)('pinyin-pro');
    if (!isPinyinLibrary(loaded)) throw new Error('pinyin-pro did not load as expected');
    library = loaded;
  }
  return library;
}

const OPTIONS = { toneType: 'none', type: 'array', v: true } as const;

/** The contextual reading of a normalised line that holds Chinese (hasHan), piece by piece. */
export function spell(line: string): Spelling {
  const chars = Array.from(line);
  const syllables = pinyinLibrary().pinyin(line, OPTIONS);
  // One item per character for this option set; if the library ever differs, the characters spell
  // nothing rather than being misaligned with their readings.
  const aligned = syllables.length === chars.length;
  const pieces: string[] = [];
  const spelled: string[] = [];
  chars.forEach((char, index) => {
    const syllable = (aligned ? (syllables[index] ?? '') : '').toLowerCase();
    const piece = HAN.test(char) ? (SPELLED.test(syllable) ? syllable : '') : LETTER_OR_DIGIT.test(char) ? char : '';
    if (piece.length === 0) return;
    pieces.push(piece);
    spelled.push(char);
  });
  return { pieces, chars: spelled };
}
