// Search over a cache where some products are known only from the catalog list (contract §11.1), as
// during a first sync: the list pages are stored through the repository's own path, next to products
// whose detail is stored. A list-only product is priced by the list's priceFrom (range and sorts),
// shows the list's variantCount, says detailState listOnly, and counts as "in stock only" when the
// list says it is available (its stock is not known yet); an unavailable one never does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { BROAD_MATCH_THRESHOLD, searchProducts, type ProductSearchQuery } from '../../../src/core/catalog/catalog-search';
import { createCatalogRepository, type CatalogRepository } from '../../../src/core/catalog/catalog-repository';
import { createScaledClock } from '../../../src/core/platform/clock';
import type { CatalogItem } from '../../../src/shared/merchant/catalog';
import { insertProduct } from '../db/catalog-fixtures';
import { createMigratedDatabase, type TempDatabase } from '../db/temp-database';

let temp: TempDatabase;
let db: Database;
let repository: CatalogRepository;

function listed(productRef: number, name: string, priceFrom: number, availability = 'available', revision = 1_790_000_500, variantCount = 3): CatalogItem {
  return {
    productRef,
    catalogRef: 11,
    name,
    productType: 'card',
    brand: null,
    availability,
    priceFrom,
    variantCount,
    revision,
    subscriptionState: 'unsubscribed',
    subscriptionExpiresAt: null,
  };
}

beforeAll(() => {
  temp = createMigratedDatabase();
  db = temp.db;
  repository = createCatalogRepository(db, createScaledClock(1));
  // Stored details: one with an in-stock 19.80 and a sold-out 58.00, one in stock at 198.00, one sold out at 30.00.
  insertProduct(db, {
    productRef: 101,
    catalogRef: 11,
    name: '星河会员',
    variants: [
      { variantRef: 1, title: '月卡', priceFen: 1980 },
      { variantRef: 2, title: '季卡', priceFen: 5800, inventoryType: 'tracked', remainingUnits: 0 },
    ],
  });
  insertProduct(db, { productRef: 102, catalogRef: 11, name: '星河年卡', variants: [{ variantRef: 0, title: '年卡', priceFen: 19800, inventoryType: 'tracked', remainingUnits: 3 }] });
  insertProduct(db, { productRef: 103, catalogRef: 11, name: '星河周卡', variants: [{ variantRef: 0, title: '周卡', priceFen: 3000, inventoryType: 'tracked', remainingUnits: 0 }] });
  // A stored detail the list has moved past: stale, still searched by its stored variants.
  insertProduct(db, { productRef: 301, catalogRef: 11, name: '星河季卡', revision: 1_790_000_100, variants: [{ variantRef: 0, title: '季卡', priceFen: 4500 }] });
  repository.recordCatalogPage([
    listed(201, '星河点卡', 2500),
    listed(202, '星河礼包', 900, 'unavailable'),
    listed(203, '星河钻石', 7000, 'available', 1_790_000_500, 1),
    listed(301, '星河季卡', 4500, 'available', 1_790_000_900, 1),
  ]);
});

afterAll(() => temp.dispose());

const search = (query: ProductSearchQuery) => searchProducts(db, { text: '星河', ...query });
const refs = (query: ProductSearchQuery): number[] => search(query).items.map((hit) => hit.productRef);

describe('search over products known only from the list', () => {
  it('says which hits have only list data, with the list price and variant count and no stock claimed', () => {
    const hits = new Map(search({ sort: 'nameAsc' }).items.map((hit) => [hit.productRef, hit]));
    expect(hits.get(201)).toMatchObject({ detailState: 'listOnly', priceFromFen: 2500, variantCount: 3, inStock: false, revision: null });
    expect(hits.get(203)).toMatchObject({ detailState: 'listOnly', priceFromFen: 7000, variantCount: 1 });
    expect(hits.get(301)).toMatchObject({ detailState: 'stale', variantCount: 1, inStock: true });
    expect(hits.get(101)).toMatchObject({ detailState: 'stored', variantCount: 2, inStock: true });
  });

  it('sorts by price with the list price standing in for the variants', () => {
    expect(refs({ sort: 'priceAsc' })).toEqual([202, 101, 201, 103, 301, 203, 102]);
    expect(refs({ sort: 'priceDesc' })).toEqual([102, 203, 301, 103, 201, 101, 202]);
  });

  it('matches a price range on the list price, and prices the hit with it', () => {
    const result = search({ minPriceFen: 2000, maxPriceFen: 8000, sort: 'priceAsc' });
    // 101 by its 58.00 variant; 202 (9.00) and 102 (198.00) are outside.
    expect(result.items.map((hit) => [hit.productRef, hit.priceFromFen])).toEqual([
      [201, 2500],
      [103, 3000],
      [301, 4500],
      [101, 5800],
      [203, 7000],
    ]);
    expect(result.total).toBe(5);
    expect(refs({ maxPriceFen: 2400 })).toEqual(expect.arrayContaining([101, 202]));
    expect(refs({ maxPriceFen: 2400 })).toHaveLength(2);
    expect(refs({ minPriceFen: 6000, sort: 'priceAsc' })).toEqual([203, 102]);
  });

  it('keeps available list-only products under "in stock only" and drops unavailable ones', () => {
    const result = search({ inStock: true, sort: 'priceAsc' });
    expect(result.items.map((hit) => [hit.productRef, hit.detailState])).toEqual([
      [101, 'stored'],
      [201, 'listOnly'],
      [301, 'stale'],
      [203, 'listOnly'],
      [102, 'stored'],
    ]);
    expect(result.total).toBe(5);
    // Without text (a count and page driven by the filter indexes) the same products.
    expect(searchProducts(db, { inStock: true, sort: 'nameAsc' }).total).toBe(5);
    // In stock within a range: 101's in-stock variant (19.80) is outside; its sold-out 58.00 does not count.
    expect(refs({ inStock: true, minPriceFen: 2000, maxPriceFen: 8000, sort: 'priceAsc' })).toEqual([201, 301, 203]);
  });

  it('follows the stored detail once it arrives: a sold-out detail leaves "in stock only"', () => {
    repository.applyProductSnapshot({
      from: 'detail',
      detail: {
        productRef: 203,
        catalogRef: 11,
        name: '星河钻石',
        productType: 'card',
        description: '',
        imageUrl: null,
        brand: null,
        availability: 'available',
        revision: 1_790_000_500,
        variants: [{ variantRef: 0, title: '钻石', price: 7000, faceValue: null, availability: 'available', inventoryType: 'tracked', remainingUnits: 0, purchaseSchemaRevision: 1 }],
      },
    });
    expect(search({ sort: 'nameAsc' }).items.find((hit) => hit.productRef === 203)).toMatchObject({ detailState: 'stored', variantCount: 1, inStock: false });
    expect(refs({ inStock: true, sort: 'priceAsc' })).toEqual([101, 201, 301, 102]);
  });
});

describe('a broad price-sorted search while the list runs ahead of the details', () => {
  it('still finds list-only products (the variant walk would miss them)', () => {
    const items = Array.from({ length: BROAD_MATCH_THRESHOLD + 50 }, (_, i) => listed(10_000 + i, `银河卡${i}`, 10_000 + i));
    repository.recordCatalogPage(items);
    insertProduct(db, { productRef: 9_000, catalogRef: 11, name: '银河卡特价', variants: [{ variantRef: 0, title: '特价', priceFen: 10_020 }] });
    const result = searchProducts(db, { text: '银河', minPriceFen: 10_010, sort: 'priceAsc', limit: 15 });
    expect(result.total).toBe(BROAD_MATCH_THRESHOLD + 41);
    expect(result.items.map((hit) => hit.priceFromFen)).toEqual([10_010, 10_011, 10_012, 10_013, 10_014, 10_015, 10_016, 10_017, 10_018, 10_019, 10_020, 10_020, 10_021, 10_022, 10_023]);
    const inStock = searchProducts(db, { text: '银河', inStock: true, sort: 'priceDesc', limit: 3 });
    expect(inStock.items.map((hit) => hit.productRef)).toEqual([10_000 + BROAD_MATCH_THRESHOLD + 49, 10_000 + BROAD_MATCH_THRESHOLD + 48, 10_000 + BROAD_MATCH_THRESHOLD + 47]);
  });
});
