// searchProducts over an on-disk, migrated cache: Chinese substrings of any length >= 1 (2-character
// ones through the gram column), filters, sorting, paging, and FTS syntax taken literally.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { BROAD_MATCH_THRESHOLD, COUNT_CAP, searchProducts } from '../../../src/core/catalog/catalog-search';
import type { ProductSearchQuery } from '../../../src/core/catalog/catalog-search';
import { insertCategory, insertProduct } from '../db/catalog-fixtures';
import { createMigratedDatabase } from '../db/temp-database';
import type { TempDatabase } from '../db/temp-database';

let temp: TempDatabase;
let db: Database;

beforeAll(() => {
  temp = createMigratedDatabase();
  db = temp.db;
  insertCategory(db, 1, '视频会员');
  insertCategory(db, 11, '爱奇艺', 1);
  insertCategory(db, 12, '腾讯视频', 1);
  insertCategory(db, 2, '话费充值');
  insertCategory(db, 21, '移动', 2);
  insertProduct(db, {
    productRef: 101,
    catalogRef: 11,
    name: '爱奇艺黄金会员',
    brandName: '爱奇艺',
    revision: 1_790_000_300,
    variants: [
      { variantRef: 1, title: '月卡', priceFen: 1980 },
      { variantRef: 2, title: '季卡', priceFen: 5800, inventoryType: 'tracked', remainingUnits: 0 },
    ],
  });
  insertProduct(db, {
    productRef: 102,
    catalogRef: 12,
    name: '腾讯视频VIP会员',
    brandName: '腾讯视频',
    revision: 1_790_000_100,
    variants: [{ variantRef: 0, title: '年卡', priceFen: 19800, inventoryType: 'tracked', remainingUnits: 3 }],
  });
  insertProduct(db, {
    productRef: 103,
    catalogRef: 21,
    name: '中国移动话费 (全国)',
    productType: 'topup',
    revision: 1_790_000_200,
    variants: [
      { variantRef: 1, title: '50元', priceFen: 4990, inventoryType: 'undisclosed' },
      { variantRef: 2, title: '100元', priceFen: 9950, availability: 'unavailable' },
    ],
  });
  insertProduct(db, {
    productRef: 104,
    catalogRef: 11,
    name: '爱奇艺星钻会员',
    brandName: '爱奇艺',
    availability: 'unavailable',
    revision: 1_790_000_400,
    variants: [{ variantRef: 0, title: '月卡', priceFen: 3800 }],
  });
  insertProduct(db, {
    productRef: 105,
    catalogRef: 12,
    name: '腾讯视频会员 (库存未知类型)',
    revision: 1_790_000_050,
    variants: [{ variantRef: 0, title: '月卡', priceFen: 2500, inventoryType: 'consignment' }],
  });
  insertProduct(db, { productRef: 106, catalogRef: 11, name: '爱奇艺黄金会员 (已下架)', variants: [{ variantRef: 0, title: '月卡', priceFen: 1 }] });
  db.prepare('UPDATE products SET removed_at = 1 WHERE product_ref = 106').run();
});

afterAll(() => temp.dispose());

function refs(query: ProductSearchQuery): number[] {
  return searchProducts(db, query).items.map((hit) => hit.productRef);
}

describe('searchProducts', () => {
  it('finds "爱奇艺黄金会员 月卡" by 2-character and longer substrings, across name and variant title', () => {
    expect(refs({ text: '黄金' })).toEqual([101]);
    expect(refs({ text: '会员月', sort: 'priceAsc' })).toEqual([101, 104]);
    expect(refs({ text: '爱奇艺黄金会员 月卡' })).toEqual([101]);
    expect(refs({ text: '黄金会员月卡' })).toEqual([101]);
    expect(refs({ text: '奇艺', sort: 'nameAsc' }).sort()).toEqual([101, 104]);
    expect(refs({ text: '季卡' })).toEqual([101]);
  });

  it('matches brand names, Latin text case- and width-insensitively, and single characters', () => {
    expect(refs({ text: '腾讯视频', sort: 'priceAsc' })).toEqual([105, 102]);
    expect(refs({ text: 'vip' })).toEqual([102]);
    expect(refs({ text: 'ＶＩＰ会员' })).toEqual([102]);
    expect(refs({ text: '钻' })).toEqual([104]);
  });

  it('requires every whitespace-separated term', () => {
    expect(refs({ text: '会员 年卡' })).toEqual([102]);
    expect(refs({ text: '黄金 年卡' })).toEqual([]);
  });

  it('takes FTS5 syntax in the query literally', () => {
    expect(refs({ text: '"会员' })).toEqual([]);
    expect(refs({ text: 'NEAR(会员 月卡)' })).toEqual([]);
    expect(refs({ text: '会员*' })).toEqual([]);
    expect(refs({ text: '(全国)' })).toEqual([103]);
    expect(searchProducts(db, { text: '   ' }).total).toBe(5);
  });

  it('filters by category, a parent category including its children', () => {
    expect(refs({ catalogRef: 11 })).toEqual([101, 104]);
    expect(refs({ catalogRef: 1 })).toEqual([101, 102, 104, 105]);
    expect(refs({ catalogRef: 2, text: '话费' })).toEqual([103]);
    expect(refs({ catalogRef: 12, text: '黄金' })).toEqual([]);
  });

  it('filters by raw availability and by what is in stock now', () => {
    expect(refs({ availability: 'unavailable' })).toEqual([104]);
    // 101: the month card is unlimited; 102: 3 tracked left; 103: undisclosed stock counts as
    // buyable; 104: product unavailable; 105: unknown inventory type is not claimed in stock.
    expect(refs({ inStock: true })).toEqual([101, 102, 103]);
    const hits = searchProducts(db, { text: '会员' }).items;
    expect(hits.map((hit) => [hit.productRef, hit.inStock])).toEqual(
      expect.arrayContaining([
        [101, true],
        [104, false],
        [105, false],
      ]),
    );
  });

  it('filters by price range on the same variant that is in stock', () => {
    expect(refs({ minPriceFen: 5000, maxPriceFen: 6000 })).toEqual([101]);
    // 101's 58-yuan season card is sold out (tracked, 0 left).
    expect(refs({ minPriceFen: 5000, maxPriceFen: 6000, inStock: true })).toEqual([]);
    expect(refs({ minPriceFen: 9000, inStock: true })).toEqual([102]);
    expect(refs({ maxPriceFen: 1980 })).toEqual([101]);
  });

  it('sorts by price, name, recency and relevance', () => {
    expect(refs({ sort: 'priceAsc' })).toEqual([101, 105, 104, 103, 102]);
    expect(refs({ sort: 'priceDesc' })).toEqual([102, 103, 104, 105, 101]);
    expect(refs({ sort: 'recentlyChanged' })).toEqual([104, 101, 103, 102, 105]);
    expect(refs({})).toEqual([101, 102, 103, 104, 105]);
    expect(refs({ text: '会员', sort: 'relevance' }).sort()).toEqual([101, 102, 104, 105]);
  });

  it('pages with a stable total and reports the cached fields', () => {
    const first = searchProducts(db, { sort: 'priceAsc', limit: 2 });
    const second = searchProducts(db, { sort: 'priceAsc', limit: 2, offset: 2 });
    expect(first.total).toBe(5);
    expect(first.totalIsLowerBound).toBe(false);
    expect(second.total).toBe(5);
    expect([...first.items, ...second.items].map((hit) => hit.productRef)).toEqual([101, 105, 104, 103]);
    expect(first.items[0]).toEqual({
      productRef: 101,
      catalogRef: 11,
      name: '爱奇艺黄金会员',
      productType: 'card',
      availability: 'available',
      brandName: '爱奇艺',
      imageUrl: null,
      priceFromFen: 1980,
      variantCount: 2,
      inStock: true,
      revision: 1_790_000_300,
      detailState: 'stored',
    });
  });

  it('never returns products a completed sync marked as removed', () => {
    expect(refs({ text: '已下架' })).toEqual([]);
  });

  it('rejects malformed paging and price bounds', () => {
    expect(() => searchProducts(db, { limit: 0 })).toThrow(RangeError);
    expect(() => searchProducts(db, { limit: 1000 })).toThrow(RangeError);
    expect(() => searchProducts(db, { offset: -1 })).toThrow(RangeError);
    expect(() => searchProducts(db, { minPriceFen: 1.5 })).toThrow(RangeError);
  });
});

describe('searchProducts on a broad match', () => {
  it(`walks the sort index above ${BROAD_MATCH_THRESHOLD} matches and returns the same order as a plain sort`, () => {
    const broad = createMigratedDatabase();
    try {
      const count = BROAD_MATCH_THRESHOLD + 50;
      broad.db.transaction(() => {
        for (let ref = 1; ref <= count; ref += 1) {
          insertProduct(broad.db, {
            productRef: ref,
            catalogRef: 1,
            name: ref % 2 === 0 ? `会员${ref}` : `礼品卡${ref}`,
            revision: 1_790_000_000 + ((ref * 7919) % count),
            variants: [{ variantRef: 0, title: '月卡', priceFen: (ref * 104_729) % 100_000 }],
          });
        }
      })();
      const sorts = ['priceAsc', 'priceDesc', 'nameAsc', 'recentlyChanged'] as const;
      for (const sort of sorts) {
        const hits = searchProducts(broad.db, { text: '月卡', sort, limit: 30, offset: 10 });
        expect(hits.total).toBe(count);
        const all = searchProducts(broad.db, { sort, limit: 40 }).items.map((hit) => hit.productRef).slice(10);
        expect(hits.items.map((hit) => hit.productRef)).toEqual(all);
      }
      const relevance = searchProducts(broad.db, { text: '月卡', limit: 3 });
      expect(relevance.items.map((hit) => hit.productRef)).toEqual([1, 2, 3]);
    } finally {
      broad.dispose();
    }
  });
});

describe('searchProducts with text and filters together', () => {
  it('gives the same totals and pages whether the text or a filter index drives the search', () => {
    // Every product's variants are titled 月卡, so a search for 月卡 must return exactly what the
    // same filters return without text; the two take different plans (FTS with filter sets and a
    // counting pass that yields the page, against filter and sort indexes).
    const mixed = createMigratedDatabase();
    try {
      insertCategory(mixed.db, 1, '会员');
      insertCategory(mixed.db, 2, '视频', 1);
      insertCategory(mixed.db, 3, '话费');
      const count = 1500;
      mixed.db.transaction(() => {
        for (let ref = 1; ref <= count; ref += 1) {
          const low = (ref * 7919) % 9000;
          insertProduct(mixed.db, {
            productRef: ref,
            catalogRef: 1 + (ref % 3),
            name: ref % 5 === 0 ? `会员${ref}` : `礼品${ref}`,
            availability: ref % 11 === 0 ? 'unavailable' : 'available',
            revision: 1_790_000_000 + ((ref * 104_729) % count),
            variants: [
              // A cheap and a dear variant (straddling mid ranges), and one in between for some.
              { variantRef: 1, title: '月卡', priceFen: low, inventoryType: ref % 7 === 0 ? 'tracked' : 'unlimited', remainingUnits: ref % 7 === 0 ? 0 : null },
              { variantRef: 2, title: '月卡', priceFen: low + 20_000 },
              ...(ref % 4 === 0 ? [{ variantRef: 3, title: '月卡', priceFen: low + 6_000 }] : []),
            ],
          });
        }
      })();
      const filters: ProductSearchQuery[] = [
        { minPriceFen: 7_000, maxPriceFen: 9_000 },
        { minPriceFen: 7_000, maxPriceFen: 9_000, inStock: true },
        { minPriceFen: 2_000, maxPriceFen: 40_000, catalogRef: 1 },
        { catalogRef: 3, availability: 'available' },
        { inStock: true, availability: 'unavailable' },
      ];
      const sorts = ['priceAsc', 'priceDesc', 'nameAsc', 'recentlyChanged'] as const;
      for (const filter of filters) {
        for (const sort of sorts) {
          for (const offset of [0, 40, 5_000]) {
            const page = { ...filter, sort, limit: 25, offset };
            expect(searchProducts(mixed.db, { ...page, text: '月卡' }), JSON.stringify(page)).toEqual(searchProducts(mixed.db, page));
          }
        }
      }
    } finally {
      mixed.dispose();
    }
  });
});

describe('searchProducts counting a very broad result', () => {
  it(`stops counting above ${COUNT_CAP} matches and says the total is a lower bound`, () => {
    const many = createMigratedDatabase();
    try {
      const count = COUNT_CAP + 25;
      // Plain SQL for speed: 10,000+ rows through the fixtures would take the test's whole budget.
      // The 0005 triggers fill in_stock and the price bounds as the variants are inserted.
      many.db.exec(`
        WITH RECURSIVE n(ref) AS (SELECT 1 UNION ALL SELECT ref + 1 FROM n WHERE ref < ${count})
        INSERT INTO products (product_ref, catalog_ref, name, product_type, availability, revision, listed_revision, synced_at)
        SELECT ref, CASE WHEN ref <= 30 THEN 2 ELSE 1 END, 'p' || ref, 'card', 'available', 1, 1, 1 FROM n;
        INSERT INTO variants (product_ref, variant_ref, position, title, price_fen, availability, inventory_type, purchase_schema_revision, synced_at)
        SELECT product_ref, 0, 0, '月卡', 100 + product_ref, 'available', 'unlimited', 1, 1 FROM products;
      `);
      const broad = searchProducts(many.db, { inStock: true, sort: 'priceDesc', limit: 3 });
      expect(broad.total).toBe(COUNT_CAP);
      expect(broad.totalIsLowerBound).toBe(true);
      expect(broad.items.map((hit) => hit.productRef)).toEqual([count, count - 1, count - 2]);
      expect(broad.items[0]).toMatchObject({ variantCount: 1, inStock: true });

      const ranged = searchProducts(many.db, { inStock: true, minPriceFen: 101, maxPriceFen: 130 });
      expect(ranged).toMatchObject({ total: 30, totalIsLowerBound: false });
      const narrow = searchProducts(many.db, { catalogRef: 2 });
      expect(narrow).toMatchObject({ total: 30, totalIsLowerBound: false });
      const exactlyCap = searchProducts(many.db, { maxPriceFen: 100 + COUNT_CAP });
      expect(exactlyCap).toMatchObject({ total: COUNT_CAP, totalIsLowerBound: false });
    } finally {
      many.dispose();
    }
  });
});
