// A price filter acts on the matching variant: with a price bound, a hit shows the price of its
// cheapest variant within the bounds (in stock, when asked) and the price sorts order by it, whichever
// plan runs (with or without text); a minimum above the maximum is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { searchProducts, type ProductSearchQuery } from '../../../src/core/catalog/catalog-search';
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
