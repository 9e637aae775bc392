// Normalisation and grams shared by the search index and the search query.
import { describe, expect, it } from 'vitest';
import { GRAM_PAD, MAX_TERMS, normalizeSearchText, padGram, searchTerms, shortGrams } from '../../../src/core/db/search-text';
import { productSearchDocument, productSearchMatch } from '../../../src/core/db/product-search-index';

describe('search text', () => {
  it('normalises width, case and removes whitespace and invisible characters', () => {
    expect(normalizeSearchText('爱奇艺黄金会员 月卡')).toBe('爱奇艺黄金会员月卡');
    expect(normalizeSearchText('ＱＱ音乐　豪华绿钻\u200b１２个月')).toBe('qq音乐豪华绿钻12个月');
    expect(normalizeSearchText(`a${GRAM_PAD}b\n\tc`)).toBe('abc');
  });

  it('splits queries into distinct normalised terms, bounded in number', () => {
    expect(searchTerms('  黄金  会员 黄金 ')).toEqual(['黄金', '会员']);
    expect(searchTerms('')).toEqual([]);
    expect(searchTerms('a b c d e f g h i j k')).toHaveLength(MAX_TERMS);
  });

  it('lists every 1- and 2-character gram by code point', () => {
    expect(shortGrams('会员卡')).toEqual(['会', '会员', '员', '员卡', '卡']);
    expect(shortGrams('𠮷a')).toEqual(['𠮷', '𠮷a', 'a']);
    expect(padGram('会员')).toBe(`会员${GRAM_PAD}`);
    expect(padGram('卡')).toBe(`卡${GRAM_PAD}${GRAM_PAD}`);
  });

  it('builds one document line per variant as "product name + title"', () => {
    const doc = productSearchDocument('爱奇艺黄金会员', '爱奇艺', ['月卡', '季 卡']);
    // The name line is marked at both ends (exact and prefix ranking); the others are plain.
    expect(doc.text.split('\n')).toEqual(['\u0002爱奇艺黄金会员\u0003', '爱奇艺', '爱奇艺黄金会员月卡', '爱奇艺黄金会员季卡']);
    expect(doc.grams).toContain(padGram('员月'));
    expect(doc.grams).not.toContain(padGram('卡爱'));
  });

  it('quotes terms so FTS5 syntax in a query is taken literally', () => {
    // Each non-Latin term also matches within a category name (marked grams, or the category lines).
    expect(productSearchMatch(['会员', 'a"b*c', '1'])).toBe(
      `(grams : "会员${GRAM_PAD}" OR grams : "\u0005会员") AND (text : "a""b*c" OR grams : "a""b*c") AND (grams : "1${GRAM_PAD}${GRAM_PAD}" OR grams : "\u00051${GRAM_PAD}")`,
    );
    expect(productSearchMatch([])).toBeNull();
  });
});
