// A price filter acts on the matching variant: with a price bound, a hit shows the price of its
// cheapest variant within the bounds (in stock, when asked) and the price sorts order by it, whichever
// plan runs (with or without text); a minimum above the maximum is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { BROAD_MATCH_THRESHOLD, searchProducts, type ProductSearchQuery } from '../../../src/core/catalog/catalog-search';
import { insertCategory, insertProduct } from '../db/catalog-fixtures';
import { createMigratedDatabase, type TempDatabase } from '../db/temp-database';

let temp: TempDatabase;
let db: Database;

beforeAll(() => {
  temp = createMigratedDatabase();
  db = temp.db;
  insertCategory(db, 1, '礼品卡');
  // Every title holds 月卡 so that a text search matches the same products (the FTS plan).
  insertProduct(db, {
    productRef: 1,
    catalogRef: 1,
    name: '甲',
    variants: [
      { variantRef: 1, title: '月卡小', priceFen: 578 },
      { variantRef: 2, title: '月卡中', priceFen: 6000 },
      { variantRef: 3, title: '月卡大', priceFen: 9000 },
    ],
  });
  insertProduct(db, { productRef: 2, catalogRef: 1, name: '乙', variants: [{ variantRef: 1, title: '月卡', priceFen: 5500 }] });
  insertProduct(db, {
    productRef: 3,
    catalogRef: 1,
    name: '丙',
    variants: [
      { variantRef: 1, title: '月卡小', priceFen: 200 },
      { variantRef: 2, title: '月卡大', priceFen: 12000 },
    ],
  });
  insertProduct(db, {
    productRef: 4,
    catalogRef: 1,
    name: '丁',
    variants: [
      { variantRef: 1, title: '月卡售罄', priceFen: 5200, inventoryType: 'tracked', remainingUnits: 0 },
      { variantRef: 2, title: '月卡', priceFen: 7000 },
    ],
  });
});

afterAll(() => temp.dispose());

/** [productRef, shown price] in order, asked with and without text (two plans), which must agree. */
function shown(query: ProductSearchQuery): [number, number | null][] {
  const plain = searchProducts(db, query).items.map((hit): [number, number | null] => [hit.productRef, hit.priceFromFen]);
  const texted = searchProducts(db, { ...query, text: '月卡' }).items.map((hit): [number, number | null] => [hit.productRef, hit.priceFromFen]);
  expect(texted, JSON.stringify(query)).toEqual(plain);
  return plain;
}

describe('searchProducts with a price bound', () => {
  it('shows and sorts by the cheapest variant within ¥50–100, not the product\'s cheapest', () => {
    expect(shown({ minPriceFen: 5000, maxPriceFen: 10000, sort: 'priceAsc' })).toEqual([
      [4, 5200],
      [2, 5500],
      [1, 6000],
    ]);
    expect(shown({ minPriceFen: 5000, maxPriceFen: 10000, sort: 'priceDesc' })).toEqual([
      [1, 6000],
      [2, 5500],
      [4, 5200],
    ]);
  });

  it('counts only in-stock variants when in stock is asked', () => {
    expect(shown({ minPriceFen: 5000, maxPriceFen: 10000, inStock: true, sort: 'priceAsc' })).toEqual([
      [2, 5500],
      [1, 6000],
      [4, 7000],
    ]);
  });

  it('applies a lone minimum or maximum the same way', () => {
    expect(shown({ minPriceFen: 5000, sort: 'priceAsc' })).toEqual([
      [4, 5200],
      [2, 5500],
      [1, 6000],
      [3, 12000],
    ]);
    expect(shown({ maxPriceFen: 6000, sort: 'priceDesc' })).toEqual([
      [2, 5500],
      [4, 5200],
      [1, 578],
      [3, 200],
    ]);
  });

  it('shows the cheapest in-stock variant when only in stock is asked', () => {
    expect(shown({ inStock: true, sort: 'priceAsc' })).toEqual([
      [3, 200],
      [1, 578],
      [2, 5500],
      [4, 7000],
    ]);
    expect(shown({ inStock: true, sort: 'priceDesc' })).toEqual([
      [4, 7000],
      [2, 5500],
      [1, 578],
      [3, 200],
    ]);
  });

  it('keeps the product\'s lowest price without a bound', () => {
    expect(shown({ sort: 'priceAsc' })).toEqual([
      [3, 200],
      [1, 578],
      [4, 5200],
      [2, 5500],
    ]);
  });

  it('refuses a minimum above the maximum, and takes equal bounds', () => {
    expect(() => searchProducts(db, { minPriceFen: 10000, maxPriceFen: 5000 })).toThrow(/minPriceFen must not exceed maxPriceFen/);
    expect(shown({ minPriceFen: 5500, maxPriceFen: 5500 })).toEqual([[2, 5500]]);
  });
});

describe('searchProducts with a price bound on a broad match', () => {
  it(`walks the variants by price above ${BROAD_MATCH_THRESHOLD} matches and agrees with the prices computed one by one`, () => {
    const broad = createMigratedDatabase();
    try {
      const count = BROAD_MATCH_THRESHOLD + 300;
      const variantsOf = new Map<number, { price: number; inStock: boolean }[]>();
      broad.db.transaction(() => {
        insertCategory(broad.db, 1, '礼品卡');
        for (let ref = 1; ref <= count; ref += 1) {
          const low = (ref * 7919) % 9000;
          const variants = [
            { variantRef: 1, title: '月卡', priceFen: low, soldOut: ref % 7 === 0 },
            { variantRef: 2, title: '季卡', priceFen: low + 6_000, soldOut: false },
            // Equal prices on two variants of one product: it is still listed once.
            ...(ref % 4 === 0 ? [{ variantRef: 3, title: '年卡', priceFen: low + 6_000, soldOut: ref % 8 === 0 }] : []),
          ];
          variantsOf.set(
            ref,
            variants.map((v) => ({ price: v.priceFen, inStock: !v.soldOut })),
          );
          insertProduct(broad.db, {
            productRef: ref,
            catalogRef: 1,
            name: `商品${ref}`,
            variants: variants.map((v) => ({
              variantRef: v.variantRef,
              title: v.title,
              priceFen: v.priceFen,
              inventoryType: v.soldOut ? 'tracked' : 'unlimited',
              remainingUnits: v.soldOut ? 0 : null,
            })),
          });
        }
      })();
      const expected = (query: ProductSearchQuery): [number, number][] => {
        const rows: [number, number][] = [];
        for (const [ref, variants] of variantsOf) {
          const prices = variants
            .filter((v) => (query.inStock !== true || v.inStock) && v.price >= (query.minPriceFen ?? 0) && v.price <= (query.maxPriceFen ?? Number.MAX_SAFE_INTEGER))
            .map((v) => v.price);
          if (prices.length > 0) rows.push([ref, Math.min(...prices)]);
        }
        const direction = query.sort === 'priceDesc' ? -1 : 1;
        rows.sort((a, b) => direction * (a[1] - b[1] || a[0] - b[0]));
        return rows.slice(query.offset ?? 0, (query.offset ?? 0) + (query.limit ?? 50));
      };
      const ranges: ProductSearchQuery[] = [
        { minPriceFen: 3_000, maxPriceFen: 12_000 },
        { minPriceFen: 3_000, maxPriceFen: 12_000, inStock: true },
        { minPriceFen: 5_000 },
        { maxPriceFen: 8_000, inStock: true },
        { inStock: true },
      ];
      for (const range of ranges) {
        for (const sort of ['priceAsc', 'priceDesc'] as const) {
          for (const offset of [0, 30, 900]) {
            const query = { ...range, sort, offset, limit: 40 };
            const got = searchProducts(broad.db, query).items.map((hit): [number, number] => [hit.productRef, hit.priceFromFen ?? -1]);
            expect(got, JSON.stringify(query)).toEqual(expected(query));
            const texted = searchProducts(broad.db, { ...query, text: '商品' }).items.map((hit): [number, number] => [hit.productRef, hit.priceFromFen ?? -1]);
            expect(texted, `${JSON.stringify(query)} with text`).toEqual(got);
          }
        }
      }
    } finally {
      broad.dispose();
    }
  });
});
