// Migration 0013 (merchant trust): the per-group "not before" table, and product revisions that no
// authenticated answer vouches for (a forged product.changed of the previous version) reset to 0 so
// that the next authenticated detail corrects them; revisions the catalog list vouches for are kept
// and the never-decreases trigger is back afterwards.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { migrate } from '../../../../src/core/db/migrate';
import { migrations } from '../../../../src/core/db/migrations';
import { createMigratedDatabase, tableColumns, tableNames, type TempDatabase } from '../temp-database';
import { insertProduct } from '../catalog-fixtures';

let temp: TempDatabase;
let db: Database;
beforeEach(() => {
  temp = createMigratedDatabase(migrations.slice(0, 12));
  db = temp.db;
});
afterEach(() => temp.dispose());

const revisionOf = (ref: number): number | null => db.prepare<[number], number | null>('SELECT revision FROM products WHERE product_ref = ?').pluck().get(ref) ?? null;

describe('0013 merchant trust', () => {
  it('is migration 13 and creates merchant_not_before', () => {
    migrate(db);
    expect(migrations[12]?.id).toBe(13);
    expect(tableNames(db)).toContain('merchant_not_before');
    expect(tableColumns(db, 'merchant_not_before')).toEqual(['scope', 'not_before_ms', 'request_id', 'set_at_ms']);
    db.prepare("INSERT INTO merchant_not_before (scope, not_before_ms, request_id, set_at_ms) VALUES ('catalog', 5, NULL, 1)").run();
    expect(() => db.prepare("INSERT INTO merchant_not_before (scope, not_before_ms, request_id, set_at_ms) VALUES ('catalog', 6, NULL, 1)").run()).toThrow(/UNIQUE|PRIMARY/);
    expect(() => db.prepare("INSERT INTO merchant_not_before (scope, not_before_ms, request_id, set_at_ms) VALUES ('', 6, NULL, 1)").run()).toThrow(/CHECK/);
    expect(() => db.prepare("INSERT INTO merchant_not_before (scope, not_before_ms, request_id, set_at_ms) VALUES ('total', -1, NULL, 1)").run()).toThrow(/CHECK/);
  });

  it('resets revisions above the listed one or never listed, keeps the vouched ones, and the trigger still refuses a lower revision', () => {
    const variants = [{ variantRef: 0, title: '面值', priceFen: 1 }];
    insertProduct(db, { productRef: 1, catalogRef: 1, name: 'forged', revision: 1_700_000_100, variants });
    insertProduct(db, { productRef: 2, catalogRef: 1, name: 'vouched', revision: 1_700_000_200, variants });
    insertProduct(db, { productRef: 3, catalogRef: 1, name: 'detail only', revision: 1_700_000_300, variants });
    // Product 1: a forged product.changed raised the revision far above what the list showed.
    db.prepare('UPDATE products SET revision = 9999999999 WHERE product_ref = 1').run();
    db.prepare('UPDATE products SET listed_revision = NULL WHERE product_ref = 3').run();
    migrate(db);
    expect(revisionOf(1)).toBe(0);
    expect(revisionOf(2)).toBe(1_700_000_200);
    expect(revisionOf(3)).toBe(0);
    // The sync's detail phase now fetches product 1 again (listed_revision > revision).
    const needing = db.prepare<[], number>('SELECT product_ref FROM products WHERE (revision IS NULL OR listed_revision > revision) AND removed_at IS NULL ORDER BY product_ref').pluck().all();
    expect(needing).toEqual([1]);
    expect(() => db.prepare('UPDATE products SET revision = 5 WHERE product_ref = 2').run()).toThrow(/revision may not decrease/);
  });
});
