// Search as Chinese buyers search (issue 26): full pinyin from a syllable on, initials, Chinese then
// pinyin ("爱qy"), the contextual reading of a polyphonic name, category names, and relevance that puts the
// name equal to the query first, then names starting with it, then the rest. Short junk that only
// meets pinyin across a syllable boundary ("an" inside "lian") finds nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { BROAD_MATCH_THRESHOLD, searchProducts, type ProductSearchQuery } from '../../../src/core/catalog/catalog-search';
import { createCatalogRepository } from '../../../src/core/catalog/catalog-repository';
import { createScaledClock } from '../../../src/core/platform/clock';
import { productSearchDocument, productSearchMatch } from '../../../src/core/db/product-search-index';
import { insertCategory, insertProduct } from '../db/catalog-fixtures';
import { createMigratedDatabase, type TempDatabase } from '../db/temp-database';

let temp: TempDatabase;
let db: Database;

const card = (variantRef: number, title: string): { variantRef: number; title: string; priceFen: number } => ({ variantRef, title, priceFen: 1000 + variantRef });

beforeAll(() => {
  temp = createMigratedDatabase();
  db = temp.db;
  insertCategory(db, 1, '视频会员');
  insertCategory(db, 2, '话费充值');
  insertCategory(db, 3, '音乐会员');
  insertCategory(db, 4, '游戏点卡');
  // Contains 爱奇艺 (inserted first, so catalog order alone would put it first).
  insertProduct(db, { productRef: 1, catalogRef: 1, name: '腾讯视频爱奇艺联合会员', brandName: '腾讯视频', variants: [card(1, '月卡')] });
  insertProduct(db, { productRef: 2, catalogRef: 1, name: '爱奇艺黄金会员', brandName: '爱奇艺', variants: [card(1, '月卡'), card(2, '年卡')] });
  insertProduct(db, { productRef: 3, catalogRef: 1, name: '爱奇艺', brandName: '爱奇艺', variants: [card(1, '体验卡')] });
  // The 话费充值 category: two names say 话费, three do not.
  insertProduct(db, { productRef: 10, catalogRef: 2, name: '中国移动话费充值', productType: 'topup', variants: [card(1, '100元')] });
  insertProduct(db, { productRef: 11, catalogRef: 2, name: '中国联通话费 快充', productType: 'topup', variants: [card(1, '50元')] });
  insertProduct(db, { productRef: 12, catalogRef: 2, name: '中国电信 全国', productType: 'topup', variants: [card(1, '100元')] });
  insertProduct(db, { productRef: 13, catalogRef: 2, name: '联通 慢充', productType: 'topup', variants: [card(1, '30元')] });
  insertProduct(db, { productRef: 14, catalogRef: 2, name: '移动 24小时到账', productType: 'topup', variants: [card(1, '200元')] });
  insertProduct(db, { productRef: 20, catalogRef: 3, name: 'QQ音乐豪华绿钻', brandName: '腾讯', variants: [card(1, '月卡')] });
  // Polyphonic: 重 (chong/zhong), 行 (hang/xing), 乐 (yue/le).
  insertProduct(db, { productRef: 30, catalogRef: 4, name: '重庆电竞卡', variants: [card(1, '面值10')] });
  insertProduct(db, { productRef: 31, catalogRef: 4, name: '招商银行积分卡', variants: [card(1, '1000分')] });
  insertProduct(db, { productRef: 40, catalogRef: 4, name: 'Steam钱包充值卡', brandName: 'Steam', variants: [card(1, '100元')] });
});

afterAll(() => temp.dispose());

function refs(text: string, extra: Omit<ProductSearchQuery, 'text'> = {}): number[] {
  return searchProducts(db, { text, ...extra }).items.map((hit) => hit.productRef);
}

const sorted = (values: number[]): number[] => [...values].sort((a, b) => a - b);

describe('catalog search in pinyin', () => {
  it('finds names and brands by full pinyin, from any syllable on, the last one partly typed', () => {
    expect(sorted(refs('aiqiyi'))).toEqual([1, 2, 3]);
    expect(sorted(refs('qiyi'))).toEqual([1, 2, 3]);
    expect(sorted(refs('aiqiy'))).toEqual([1, 2, 3]);
    expect(refs('aiqiyihuangjin')).toEqual([2]);
    expect(refs('haohualvzuan')).toEqual([20]);
    expect(refs('AiQiYi HuangJin')).toEqual([2]);
  });

  it('finds names by the initials of consecutive characters, Latin letters of the name included', () => {
    expect(sorted(refs('aqy'))).toEqual([1, 2, 3]);
    expect(refs('aqyhj')).toEqual([2]);
    expect(refs('qqyy')).toEqual([20]);
    expect(refs('hhlz')).toEqual([20]);
    expect(refs('txsp')).toEqual([1]);
  });

  it('finds Chinese characters followed by pinyin, as an input method leaves them mid-word', () => {
    expect(sorted(refs('爱qy'))).toEqual([1, 2, 3]);
    expect(sorted(refs('爱qiyi'))).toEqual([1, 2, 3]);
    expect(refs('爱奇艺hj')).toEqual([2]);
    expect(refs('豪华lz')).toEqual([20]);
    // 爱 followed by something that does not spell 奇艺.
    expect(refs('爱hj')).toEqual([]);
    expect(refs('爱qz')).toEqual([]);
  });

  it('finds a polyphonic name by the library\'s contextual reading, the one indexed', () => {
    expect(refs('chongqing')).toEqual([30]);
    expect(refs('cqdj')).toEqual([30]);
    expect(refs('zhaoshangyinhang')).toEqual([31]);
    expect(refs('zsyh')).toEqual([31]);
    expect(refs('qqyinyue')).toEqual([20]);
    // One reading per line (contract §11.3): the other readings of 重 and 行 are not indexed.
    expect(refs('zhongqing')).toEqual([]);
    expect(refs('yinxing')).toEqual([]);
  });

  it('finds every product of a category by the category name, in characters and in pinyin', () => {
    expect(sorted(refs('话费'))).toEqual([10, 11, 12, 13, 14]);
    expect(sorted(refs('话费充值'))).toEqual([10, 11, 12, 13, 14]);
    expect(sorted(refs('huafei'))).toEqual([10, 11, 12, 13, 14]);
    expect(sorted(refs('hfcz'))).toEqual([10, 11, 12, 13, 14]);
    expect(sorted(refs('话费 联通'))).toEqual([11, 13]);
    expect(sorted(refs('点卡'))).toEqual([30, 31, 40]);
  });

  it('keeps Latin names found as before, and pinyin never meets a plain Latin name', () => {
    expect(refs('steam')).toEqual([40]);
    expect(refs('tea')).toEqual([40]);
    expect(refs('stqb')).toEqual([]);
  });

  it('finds nothing for short junk that pinyin holds only across a syllable boundary', () => {
    // "an" is inside lian, huang, guan but no syllable starts with it; "iqi" inside aiqiyi; "ngj" in huangjin.
    for (const junk of ['an', 'iqi', 'ngj', 'aqz', 'qyz', 'uang', 'zz', 'gx']) expect(refs(junk), junk).toEqual([]);
  });

  it('ranks the name equal to the query first, then names starting with it, then names containing it', () => {
    expect(refs('爱奇艺')).toEqual([3, 2, 1]);
    expect(refs('aqy')).toEqual([3, 2, 1]);
    expect(refs('aiqiyi')).toEqual([3, 2, 1]);
    // Both names start with 爱奇 (ranked among themselves by FTS rank); the one containing it is last.
    const prefixFirst = refs('爱奇');
    expect(sorted(prefixFirst.slice(0, 2))).toEqual([2, 3]);
    expect(prefixFirst[2]).toBe(1);
    expect(refs('爱').at(-1)).toBe(1);
  });

  it('ranks products that say the query above those found only by their category', () => {
    const found = refs('话费');
    expect(sorted(found.slice(0, 2))).toEqual([10, 11]);
    expect(sorted(found.slice(2))).toEqual([12, 13, 14]);
  });

  it('ranks by name even when a filter or a page is asked for', () => {
    expect(refs('aqy', { catalogRef: 1 })).toEqual([3, 2, 1]);
    expect(refs('aqy', { limit: 1, offset: 1 })).toEqual([2]);
    expect(searchProducts(db, { text: 'aqy' }).total).toBe(3);
  });

  it('finds a product again after its category is renamed, by the new name only', () => {
    const repository = createCatalogRepository(db, createScaledClock(1));
    const categories = [
      { catalogRef: 1, name: '视频会员', parentRef: null, sort: 1, productCount: 3 },
      { catalogRef: 2, name: '话费充值', parentRef: null, sort: 2, productCount: 5 },
      { catalogRef: 3, name: '音乐会员', parentRef: null, sort: 3, productCount: 1 },
      { catalogRef: 4, name: '电竞专区', parentRef: null, sort: 4, productCount: 3 },
    ];
    repository.replaceCategories(categories);
    expect(sorted(refs('电竞'))).toEqual([30, 31, 40]);
    expect(sorted(refs('djzq'))).toEqual([30, 31, 40]);
    expect(refs('点卡')).toEqual([]);
  });
});

describe('catalog search in pinyin, broad matches', () => {
  let broad: TempDatabase;
  // More than BROAD_MATCH_THRESHOLD names contain 银河, inserted first; a few start with it; one is it.
  const containing = Array.from({ length: BROAD_MATCH_THRESHOLD + 100 }, (_, i) => i + 1);
  const starting = [5001, 5002, 5003, 5004, 5005];
  const expected = [9000, ...starting, ...containing];

  beforeAll(() => {
    broad = createMigratedDatabase();
    insertCategory(broad.db, 1, '游戏点卡');
    for (const ref of containing) insertProduct(broad.db, { productRef: ref, catalogRef: 1, name: `星际银河${ref}号`, variants: [card(1, '月卡')] });
    for (const ref of starting) insertProduct(broad.db, { productRef: ref, catalogRef: 1, name: `银河卡${ref}`, variants: [card(1, '月卡')] });
    insertProduct(broad.db, { productRef: 9000, catalogRef: 1, name: '银河', variants: [card(1, '月卡')] });
  }, 180_000);

  afterAll(() => broad.dispose());

  const page = (text: string, limit: number, offset: number): number[] => searchProducts(broad.db, { text, limit, offset }).items.map((hit) => hit.productRef);

  it('ranks the name equal to the query first, then names starting with it, then the rest in catalog order, page by page', () => {
    for (const text of ['银河', 'yinhe', 'yh']) {
      expect(searchProducts(broad.db, { text }).total, text).toBe(expected.length);
      expect(page(text, 50, 0), text).toEqual(expected.slice(0, 50));
      expect(page(text, 5, 3), text).toEqual(expected.slice(3, 8));
      expect(page(text, 7, 6), text).toEqual(expected.slice(6, 13));
      expect(page(text, 20, expected.length - 10), text).toEqual(expected.slice(-10));
    }
  });

  it('asks no pinyin of a single letter, which would start a syllable of nearly every name', () => {
    expect(searchProducts(broad.db, { text: 'y' }).total).toBe(0);
    expect(searchProducts(broad.db, { text: 'x' }).total).toBe(0);
  });
});

describe('pinyin index layout (contract §11.3 "Speed")', () => {
  // Quoted strings of a MATCH expression: each is a phrase FTS5 evaluates doclist by doclist.
  const phrases = (expression: string): string[] => Array.from(expression.matchAll(/"((?:[^"]|"")*)"/gu), (m) => m[1]?.replaceAll('""', '"') ?? '');

  it('indexes full pinyin as one code point per syllable, never as a line of Latin letters', () => {
    const doc = productSearchDocument('爱奇艺黄金会员', '爱奇艺', ['月卡'], ['视频会员']);
    for (const spelled of ['aiqiyi', 'huangjin', 'shipin', 'huiyuan']) expect(doc.grams).not.toContain(spelled);
    expect(doc.grams).toMatch(/\p{Co}{7}/u);
  });

  it('asks a long full-pinyin term as a phrase of a few rare characters, as a Chinese term', () => {
    const expression = productSearchMatch(['kaguanfangzhi']) ?? '';
    const spelled = phrases(expression).filter((phrase) => /\p{Co}/u.test(phrase));
    expect(spelled.length).toBeGreaterThan(0);
    for (const phrase of spelled) {
      // ka guan fang zhi (or ka gu an fang zhi): four or five characters, no Latin letter.
      expect(Array.from(phrase).length).toBeLessThanOrEqual(5);
      expect(phrase).not.toMatch(/[a-z]/u);
    }
    // The only Latin phrase left is the term as a substring of the name's own words.
    expect(phrases(expression).filter((phrase) => /[a-z]/u.test(phrase))).toEqual(['kaguanfangzhi']);
  });

  it('asks letters that are all initials as initials only, not as an OR of every syllable a letter starts', () => {
    // z, c… as full pinyin would be "z" then any of the 35 pieces c starts: what initials "zc" already ask.
    for (const letters of ['zc', 'dsz', 'aq']) expect(phrases(productSearchMatch([letters]) ?? '').length, letters).toBeLessThanOrEqual(3);
    expect(refs('qqy')).toEqual([20]);
  });
});
