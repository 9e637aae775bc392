// The query side splits typed letters into pinyin syllables with a fixed table (no library per
// query): the table must hold exactly the syllables pinyin-pro writes at index time, and splits must
// stay few and quick whatever is typed.
import { pinyin, polyphonic } from 'pinyin-pro';
import { describe, expect, it } from 'vitest';
import { MAX_COMPLETIONS, MAX_SPLITS, SYLLABLES, completionCodes, pieceCode, piecesAsCodes, splitSyllables } from '../../../src/core/db/pinyin-syllables';

describe('pinyin syllables', () => {
  it('are exactly the toneless readings pinyin-pro gives the CJK Unified Ideographs', () => {
    let block = '';
    for (let code = 0x4e00; code <= 0x9fff; code++) block += String.fromCodePoint(code);
    const options = { toneType: 'none', type: 'array', v: true } as const;
    const readings = new Set<string>();
    for (const syllable of pinyin(block, options)) readings.add(syllable.toLowerCase());
    for (const all of polyphonic(block, options)) for (const syllable of all) readings.add(syllable.toLowerCase());
    const latin = [...readings].filter((syllable) => /^[a-z]+$/u.test(syllable)).sort();
    expect([...SYLLABLES].sort()).toEqual(latin);
  });

  it('splits letters into whole syllables, the last one possibly unfinished, the likeliest first', () => {
    expect(splitSyllables('aiqiyi')[0]).toEqual(['ai', 'qi', 'yi']);
    expect(splitSyllables('aiqiy')).toContainEqual(['ai', 'qi', 'y']);
    expect(splitSyllables('zh')).toEqual([['zh']]);
    // 西安 before "xia" + an unfinished n.
    expect(splitSyllables('xian')).toEqual([['xian'], ['xi', 'an']]);
  });

  it('makes a letter a piece of its own where no syllable starts, as Latin letters of a name are indexed', () => {
    expect(splitSyllables('qqyinyue')).toContainEqual(['q', 'q', 'yin', 'yue']);
    // No split of a run pinyin holds only across a boundary is a run of whole syllables.
    for (const split of splitSyllables('iqi')) expect(split[0]).toBe('i');
    for (const split of splitSyllables('uang')) expect(split[0]).toBe('u');
  });

  it('stays few and quick for any input, long and ambiguous included', () => {
    const started = performance.now();
    for (const letters of ['xianxianxianxianxianxianxianxianxianxianxianxian', 'a'.repeat(64), 'qwrtypsdfghjklzxcvbnm'.repeat(3), 'zhuangzhuangzhuangzhuangzhuangzhuang']) {
      const splits = splitSyllables(letters);
      expect(splits.length).toBeGreaterThan(0);
      expect(splits.length).toBeLessThanOrEqual(MAX_SPLITS);
      for (const split of splits) expect(split.join('')).toBe(letters);
    }
    expect(performance.now() - started).toBeLessThan(200);
  });

  it('writes every syllable, letter and digit as one private-use code point, a category\'s apart', () => {
    const pieces = [...SYLLABLES, ...'abcdefghijklmnopqrstuvwxyz0123456789'];
    const named = new Set(pieces.map((piece) => pieceCode(piece, false)));
    const filed = new Set(pieces.map((piece) => pieceCode(piece, true)));
    expect(named.size).toBe(new Set(pieces).size);
    for (const code of [...named, ...filed]) {
      expect(code).toBeDefined();
      expect(Array.from(code ?? '')).toHaveLength(1);
      expect(code ?? '').toMatch(/^\p{Co}$/u);
      expect(code?.normalize('NFKC').toLowerCase()).toBe(code);
    }
    for (const code of named) expect(filed.has(code)).toBe(false);
    expect(pieceCode('xyz', false)).toBeUndefined();
    // "爱奇艺" (ai qi yi) is three characters; a reading outside the table is kept letter by letter.
    expect(Array.from(piecesAsCodes(['ai', 'qi', 'yi'], false))).toHaveLength(3);
    expect(piecesAsCodes(['xyz'], false)).toBe(piecesAsCodes(['x', 'y', 'z'], false));
  });

  it('completes an unfinished last piece to every piece it starts, bounded', () => {
    const code = (piece: string): string => pieceCode(piece, false) ?? '';
    expect(completionCodes('yi', false).sort()).toEqual(['yi', 'yin', 'ying'].map(code).sort());
    // "q" starts qi … qiu, and is a letter of its own in "QQ音乐".
    expect(completionCodes('q', false)).toContain(code('q'));
    expect(completionCodes('q', false)).toContain(code('qiong'));
    expect(completionCodes('zhuang', false)).toEqual([code('zhuang')]);
    expect(completionCodes('iqi', false)).toEqual([]);
    for (const letter of 'abcdefghijklmnopqrstuvwxyz') {
      const all = [...SYLLABLES].filter((syllable) => syllable.startsWith(letter)).length + (SYLLABLES.has(letter) ? 0 : 1);
      expect(completionCodes(letter, false)).toHaveLength(all);
      expect(all).toBeLessThanOrEqual(MAX_COMPLETIONS);
    }
  });
});
