// Migration 0008 (product search price): a covering index, keyed by product_ref, of the price
// columns that search's price filter and price sorts read; partial on listed products.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { migrate } from '../../../../src/core/db/migrate';
import { migrations } from '../../../../src/core/db/migrations';
import { insertProduct } from '../catalog-fixtures';
import { createMigratedDatabase } from '../temp-database';
import type { TempDatabase } from '../temp-database';

let temp: TempDatabase;
let db: Database;
beforeEach(() => {
  temp = createMigratedDatabase(migrations.slice(0, 7));
  db = temp.db;
});
afterEach(() => temp.dispose());

const PRICE_CHECK = `SELECT product_ref FROM products INDEXED BY products_search_price
  WHERE removed_at IS NULL AND product_ref = ? AND price_min_fen <= ? AND price_max_fen >= ?`;

describe('0008 product search price', () => {
  it('is migration 8 and indexes the price columns by product_ref, for listed products only', () => {
    expect(migrations[7]?.id).toBe(8);
    migrate(db);
    const columns = db.prepare<[], string>("SELECT name FROM pragma_index_info('products_search_price') ORDER BY seqno").pluck().all();
    expect(columns).toEqual(['product_ref', 'price_min_fen', 'price_max_fen', 'stock_price_min_fen', 'stock_price_max_fen', 'price_from_fen']);
    const partial = db.prepare<[], number>("SELECT partial FROM pragma_index_list('products') WHERE name = 'products_search_price'").pluck().get();
    expect(partial).toBe(1);
  });

  it('covers the price check of one product: the products row is never read', () => {
    insertProduct(db, { productRef: 1, catalogRef: 1, name: '月卡', variants: [{ variantRef: 1, title: '月卡', priceFen: 1980 }] });
    migrate(db);
    const plan = db.prepare<[number, number, number], { detail: string }>(`EXPLAIN QUERY PLAN ${PRICE_CHECK}`).all(1, 5000, 1000);
    expect(plan.map((row) => row.detail)).toEqual([expect.stringMatching(/USING (COVERING )?INDEX products_search_price \(product_ref=\?/)]);
    // The query plan calls the index non-covering because removed_at is not in it, but that term is
    // the index's own WHERE: the bytecode seeks the table lazily and never reads a column from it.
    const root = db.prepare<[], number>("SELECT rootpage FROM sqlite_schema WHERE type = 'table' AND name = 'products'").pluck().get();
    const code = db.prepare<[number, number, number], { opcode: string; p1: number; p2: number }>(`EXPLAIN ${PRICE_CHECK}`).all(1, 5000, 1000);
    const tableCursors = code.filter((op) => op.opcode === 'OpenRead' && op.p2 === root).map((op) => op.p1);
    const tableReads = code.filter((op) => (op.opcode === 'Column' || op.opcode === 'Rowid') && tableCursors.includes(op.p1));
    expect(tableReads).toEqual([]);
    expect(db.prepare(PRICE_CHECK).pluck().all(1, 5000, 1000)).toEqual([1]);
  });

  it('fills for products cached before it and follows later variant writes and removal', () => {
    insertProduct(db, { productRef: 1, catalogRef: 1, name: '月卡', variants: [{ variantRef: 1, title: '月卡', priceFen: 1980 }] });
    migrate(db);
    insertProduct(db, { productRef: 2, catalogRef: 1, name: '季卡', variants: [{ variantRef: 1, title: '季卡', priceFen: 5800 }] });
    expect(db.prepare(PRICE_CHECK).pluck().all(1, 2000, 1900)).toEqual([1]);
    expect(db.prepare(PRICE_CHECK).pluck().all(2, 6000, 5000)).toEqual([2]);
    db.prepare('UPDATE variants SET price_fen = 7000 WHERE product_ref = 2').run();
    expect(db.prepare(PRICE_CHECK).pluck().all(2, 6000, 5000)).toEqual([]);
    db.prepare('UPDATE products SET removed_at = 1 WHERE product_ref = 1').run();
    expect(db.prepare(PRICE_CHECK).pluck().all(1, 2000, 1900)).toEqual([]);
  });
});
