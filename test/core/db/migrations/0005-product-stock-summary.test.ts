// Migration 0005 (product stock summary): the per-product variant count, in-stock flag and price
// bounds that search filters on, filled for rows that existed before it and kept right by triggers
// on every variant write and every change of product availability.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { migrate } from '../../../../src/core/db/migrate';
import { migrations } from '../../../../src/core/db/migrations';
import { productStockSummaryMigration } from '../../../../src/core/db/migrations/0005-product-stock-summary';
import { insertProduct, insertVariant } from '../catalog-fixtures';
import { createMigratedDatabase, tableColumns } from '../temp-database';
import type { TempDatabase } from '../temp-database';

interface SummaryRow {
  variant_count: number;
  in_stock: number;
  price_min_fen: number | null;
  price_max_fen: number | null;
  stock_price_min_fen: number | null;
  stock_price_max_fen: number | null;
}

let temp: TempDatabase;
let db: Database;
beforeEach(() => {
  temp = createMigratedDatabase();
  db = temp.db;
});
afterEach(() => temp.dispose());

function summary(productRef: number, on: Database = db): SummaryRow | undefined {
  return on
    .prepare<[number], SummaryRow>(
      'SELECT variant_count, in_stock, price_min_fen, price_max_fen, stock_price_min_fen, stock_price_max_fen FROM products WHERE product_ref = ?',
    )
    .get(productRef);
}

const mixed = {
  productRef: 1,
  catalogRef: 1,
  name: '爱奇艺黄金会员',
  variants: [
    { variantRef: 1, title: '月卡', priceFen: 1980 },
    { variantRef: 2, title: '季卡', priceFen: 5800, inventoryType: 'tracked', remainingUnits: 0 },
    { variantRef: 3, title: '年卡', priceFen: 19800, inventoryType: 'undisclosed' },
    { variantRef: 4, title: '周卡', priceFen: 500, inventoryType: 'consignment' },
  ],
};

describe('0005 product stock summary', () => {
  it('adds the summary columns to products', () => {
    expect(tableColumns(db, 'products')).toEqual(
      expect.arrayContaining(['variant_count', 'in_stock', 'price_min_fen', 'price_max_fen', 'stock_price_min_fen', 'stock_price_max_fen']),
    );
  });

  it('summarises variants as they are written: unknown inventory types and sold-out tracked stock are not in stock', () => {
    insertProduct(db, mixed);
    expect(summary(1)).toEqual({ variant_count: 4, in_stock: 1, price_min_fen: 500, price_max_fen: 19800, stock_price_min_fen: 1980, stock_price_max_fen: 19800 });

    db.prepare('UPDATE variants SET remaining_units = 3 WHERE product_ref = 1 AND variant_ref = 2').run();
    db.prepare("UPDATE variants SET availability = 'unavailable' WHERE product_ref = 1 AND variant_ref = 3").run();
    expect(summary(1)).toMatchObject({ stock_price_min_fen: 1980, stock_price_max_fen: 5800 });

    db.prepare('DELETE FROM variants WHERE product_ref = 1 AND variant_ref IN (1, 2)').run();
    expect(summary(1)).toEqual({ variant_count: 2, in_stock: 0, price_min_fen: 500, price_max_fen: 19800, stock_price_min_fen: null, stock_price_max_fen: null });

    insertVariant(db, 1, { variantRef: 5, title: '次卡', priceFen: 900 }, 5);
    expect(summary(1)).toMatchObject({ variant_count: 3, in_stock: 1, stock_price_min_fen: 900, stock_price_max_fen: 900 });

    db.prepare('DELETE FROM variants WHERE product_ref = 1').run();
    expect(summary(1)).toEqual({ variant_count: 0, in_stock: 0, price_min_fen: null, price_max_fen: null, stock_price_min_fen: null, stock_price_max_fen: null });
  });

  it('follows the availability of the product itself', () => {
    insertProduct(db, mixed);
    db.prepare("UPDATE products SET availability = 'unavailable' WHERE product_ref = 1").run();
    expect(summary(1)?.in_stock).toBe(0);
    db.prepare("UPDATE products SET availability = 'available' WHERE product_ref = 1").run();
    expect(summary(1)?.in_stock).toBe(1);
  });

  it('fills the summary of products stored before the upgrade', () => {
    const old = createMigratedDatabase(migrations.filter((m) => m.id < productStockSummaryMigration.id));
    try {
      insertProduct(old.db, mixed);
      insertProduct(old.db, { productRef: 2, catalogRef: 1, name: '只有列表', variants: [] });
      migrate(old.db, { now: () => 1_790_000_001 });
      expect(summary(1, old.db)).toEqual({ variant_count: 4, in_stock: 1, price_min_fen: 500, price_max_fen: 19800, stock_price_min_fen: 1980, stock_price_max_fen: 19800 });
      expect(summary(2, old.db)).toEqual({ variant_count: 0, in_stock: 0, price_min_fen: null, price_max_fen: null, stock_price_min_fen: null, stock_price_max_fen: null });
    } finally {
      old.dispose();
    }
  });
});
