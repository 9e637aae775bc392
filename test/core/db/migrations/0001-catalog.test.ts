// Migration 0001 (catalog): the tables, their constraints, the triggers that keep history and the
// price sort key, and the Chinese-capable search index.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { catalogMigration } from '../../../../src/core/db/migrations/0001-catalog';
import { productSearchMatch, refreshProductSearch } from '../../../../src/core/db/product-search-index';
import { searchTerms } from '../../../../src/core/db/search-text';
import { FIXTURE_NOW, insertProduct, insertVariant } from '../catalog-fixtures';
import { createMigratedDatabase, tableColumns, tableNames } from '../temp-database';
import type { TempDatabase } from '../temp-database';

let temp: TempDatabase;
let db: Database;
beforeEach(() => {
  temp = createMigratedDatabase([catalogMigration]);
  db = temp.db;
});
afterEach(() => temp.dispose());

function matches(text: string): number[] {
  const match = productSearchMatch(searchTerms(text));
  if (match === null) return [];
  return db
    .prepare<[string], { rowid: number }>('SELECT rowid FROM product_search WHERE product_search MATCH ? ORDER BY rowid')
    .all(match)
    .map((row) => row.rowid);
}

interface HistoryRow {
  variant_ref: number;
  price_fen: number;
  remaining_units: number | null;
  availability: string;
  recorded_at: number;
}

function historyOf(productRef: number): HistoryRow[] {
  return db
    .prepare<[number], HistoryRow>(
      'SELECT variant_ref, price_fen, remaining_units, availability, recorded_at FROM price_history WHERE product_ref = ? ORDER BY id',
    )
    .all(productRef);
}

const iqiyi = {
  productRef: 101,
  catalogRef: 11,
  name: '爱奇艺黄金会员',
  brandName: '爱奇艺',
  variants: [
    { variantRef: 1, title: '月卡', priceFen: 1980 },
    { variantRef: 2, title: '季卡', priceFen: 5800 },
  ],
};

describe('0001 catalog', () => {
  it('creates the catalog tables with their columns', () => {
    expect(tableNames(db)).toEqual(
      expect.arrayContaining(['categories', 'products', 'variants', 'templates', 'price_history', 'product_search', 'catalog_sync_state']),
    );
    expect(tableColumns(db, 'products')).toEqual([
      'product_ref', 'catalog_ref', 'name', 'product_type', 'brand_ref', 'brand_name', 'brand_image_url', 'availability',
      'description', 'image_url', 'price_from_fen', 'revision', 'listed_revision', 'detail_json', 'subscription_state',
      'subscription_expires_at', 'listed_at', 'removed_at', 'synced_at',
    ]);
    expect(tableColumns(db, 'variants')).toEqual([
      'product_ref', 'variant_ref', 'position', 'title', 'price_fen', 'face_value_fen', 'availability', 'inventory_type',
      'remaining_units', 'purchase_schema_revision', 'synced_at',
    ]);
    expect(tableColumns(db, 'templates')).toEqual([
      'product_ref', 'variant_ref', 'product_type', 'purchase_schema_revision', 'entry_mode', 'template_json', 'fetched_at',
    ]);
    expect(tableColumns(db, 'categories')).toEqual(['catalog_ref', 'name', 'parent_ref', 'sort', 'product_count', 'synced_at']);
    expect(tableColumns(db, 'catalog_sync_state')).toEqual([
      'id', 'phase', 'next_page', 'items_done', 'items_total', 'started_at', 'updated_at', 'finished_at', 'last_error',
    ]);
  });

  it('stores unknown merchant enum values raw instead of rejecting them', () => {
    insertProduct(db, {
      productRef: 1,
      catalogRef: 1,
      name: 'x',
      productType: 'giftbox',
      availability: 'paused',
      variants: [{ variantRef: 0, title: 'x', priceFen: 1, availability: 'soldOutSoon', inventoryType: 'estimated' }],
    });
    expect(db.prepare('SELECT product_type, availability FROM products').get()).toEqual({ product_type: 'giftbox', availability: 'paused' });
    expect(db.prepare('SELECT availability, inventory_type FROM variants').get()).toEqual({ availability: 'soldOutSoon', inventory_type: 'estimated' });
  });

  it('keeps money integer: a yuan float in a fen column is refused (STRICT)', () => {
    insertProduct(db, { ...iqiyi, variants: [] });
    expect(() => insertVariant(db, iqiyi.productRef, { variantRef: 9, title: 'x', priceFen: 19.8 })).toThrow(/cannot store REAL value in INTEGER column/);
  });

  it('cascades variants, templates and history with their product, and drops its search document', () => {
    insertProduct(db, iqiyi);
    db.prepare(
      "INSERT INTO templates (product_ref, variant_ref, product_type, purchase_schema_revision, entry_mode, template_json, fetched_at) VALUES (101, 1, 'card', 1, 'none', '{}', 1)",
    ).run();
    expect(matches('黄金')).toEqual([101]);
    db.prepare('DELETE FROM products WHERE product_ref = 101').run();
    for (const table of ['variants', 'templates', 'price_history']) {
      expect(db.prepare(`SELECT count(*) FROM ${table}`).pluck().get()).toBe(0);
    }
    expect(matches('黄金')).toEqual([]);
  });

  it('refuses a variant of an unknown product and a duplicate variant', () => {
    expect(() => insertVariant(db, 999, { variantRef: 0, title: 'x', priceFen: 1 })).toThrow(/FOREIGN KEY/);
    insertProduct(db, iqiyi);
    expect(() => insertVariant(db, 101, { variantRef: 1, title: 'dup', priceFen: 1 })).toThrow(/UNIQUE/);
  });

  it('refuses to lower a product revision (a stale snapshot)', () => {
    insertProduct(db, { ...iqiyi, revision: 2000 });
    expect(() => db.prepare('UPDATE products SET revision = 1999 WHERE product_ref = 101').run()).toThrow(/revision may not decrease/);
    db.prepare('UPDATE products SET revision = 2000, name = name WHERE product_ref = 101').run();
    db.prepare('UPDATE products SET revision = 2001 WHERE product_ref = 101').run();
    expect(db.prepare('SELECT revision FROM products').pluck().get()).toBe(2001);
  });

  it('records price history only when price, stock or availability changes', () => {
    insertProduct(db, iqiyi);
    expect(historyOf(101).map((row) => [row.variant_ref, row.price_fen, row.recorded_at])).toEqual([
      [1, 1980, FIXTURE_NOW],
      [2, 5800, FIXTURE_NOW],
    ]);
    // Same values again, as an unchanged snapshot re-applied: nothing recorded.
    db.prepare('UPDATE variants SET price_fen = price_fen, title = ?, synced_at = ? WHERE variant_ref = 1').run('月卡(新)', FIXTURE_NOW + 5);
    // The whole list replaced by identical values: nothing recorded either.
    db.prepare('DELETE FROM variants WHERE product_ref = 101').run();
    insertVariant(db, 101, iqiyi.variants[0] ?? { variantRef: 1, title: '', priceFen: 0 }, 0, FIXTURE_NOW + 6);
    insertVariant(db, 101, iqiyi.variants[1] ?? { variantRef: 2, title: '', priceFen: 0 }, 1, FIXTURE_NOW + 6);
    expect(historyOf(101)).toHaveLength(2);

    db.prepare('UPDATE variants SET price_fen = 1880, synced_at = ? WHERE variant_ref = 1').run(FIXTURE_NOW + 60);
    db.prepare("UPDATE variants SET availability = 'unavailable', synced_at = ? WHERE variant_ref = 2").run(FIXTURE_NOW + 70);
    expect(historyOf(101).slice(2)).toEqual([
      { variant_ref: 1, price_fen: 1880, remaining_units: null, availability: 'available', recorded_at: FIXTURE_NOW + 60 },
      { variant_ref: 2, price_fen: 5800, remaining_units: null, availability: 'unavailable', recorded_at: FIXTURE_NOW + 70 },
    ]);
  });

  it('records tracked stock changes', () => {
    insertProduct(db, { ...iqiyi, variants: [{ variantRef: 0, title: '', priceFen: 100, inventoryType: 'tracked', remainingUnits: 5 }] });
    db.prepare('UPDATE variants SET remaining_units = 4, synced_at = ?').run(FIXTURE_NOW + 1);
    db.prepare('UPDATE variants SET remaining_units = 4, synced_at = ?').run(FIXTURE_NOW + 2);
    expect(historyOf(101).map((row) => row.remaining_units)).toEqual([5, 4]);
  });

  it('keeps price_from_fen equal to the lowest variant price', () => {
    const priceFrom = (): unknown => db.prepare('SELECT price_from_fen FROM products WHERE product_ref = 101').pluck().get();
    insertProduct(db, iqiyi);
    expect(priceFrom()).toBe(1980);
    db.prepare('UPDATE variants SET price_fen = 9900 WHERE variant_ref = 1').run();
    expect(priceFrom()).toBe(5800);
    db.prepare('DELETE FROM variants WHERE variant_ref = 2').run();
    expect(priceFrom()).toBe(9900);
    db.prepare('DELETE FROM variants').run();
    expect(priceFrom()).toBe(9900);
  });

  it('keeps a single catalog_sync_state row', () => {
    const insert = db.prepare("INSERT INTO catalog_sync_state (id, phase, started_at, updated_at) VALUES (?, 'catalog', 1, 1)");
    insert.run(1);
    expect(() => insert.run(2)).toThrow(/CHECK/);
    expect(() => insert.run(1)).toThrow(/UNIQUE|PRIMARY KEY/);
  });

  it('finds a Chinese product by any substring of 1, 2 or more characters, across name and variant title', () => {
    insertProduct(db, iqiyi);
    insertProduct(db, { productRef: 102, catalogRef: 11, name: '腾讯视频VIP会员', brandName: '腾讯视频', variants: [{ variantRef: 0, title: '年卡', priceFen: 19800 }] });
    expect(matches('爱奇艺黄金会员 月卡')).toEqual([101]);
    expect(matches('黄金')).toEqual([101]);
    expect(matches('会员月')).toEqual([101]);
    expect(matches('会员月卡')).toEqual([101]);
    expect(matches('金会员季')).toEqual([101]);
    expect(matches('会员')).toEqual([101, 102]);
    expect(matches('vip')).toEqual([102]);
    expect(matches('ＶＩＰ')).toEqual([102]);
    expect(matches('员')).toEqual([101, 102]);
    expect(matches('季')).toEqual([101]);
    expect(matches('黄金 年卡')).toEqual([]);
    expect(matches('艺黄金会员月卡季')).toEqual([]);
    // A gram never straddles two lines: "卡" of one title followed by the next line's start.
    expect(matches('卡爱')).toEqual([]);
  });

  it('rewrites the search document when the product changes', () => {
    insertProduct(db, iqiyi);
    db.prepare("UPDATE products SET name = '优酷会员', brand_name = NULL WHERE product_ref = 101").run();
    refreshProductSearch(db, 101);
    expect(matches('黄金')).toEqual([]);
    expect(matches('优酷')).toEqual([101]);
    expect(matches('优酷会员月卡')).toEqual([101]);
  });
});
