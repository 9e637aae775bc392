// Migration 0007 (watched products): one row per watched product with its subscription's raw state,
// expiry and the callback URL it was made with, and when to subscribe it next.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { migrations } from '../../../../src/core/db/migrations';
import { createMigratedDatabase, tableColumns, tableNames } from '../temp-database';
import type { TempDatabase } from '../temp-database';

let temp: TempDatabase;
let db: Database;
beforeEach(() => {
  temp = createMigratedDatabase(migrations.slice(0, 7));
  db = temp.db;
});
afterEach(() => temp.dispose());

const watch = (ref: unknown, renewAt: number | null = null): void => {
  db.prepare('INSERT INTO watched_products (product_ref, watched_at, renew_at) VALUES (?, 1, ?)').run(ref, renewAt);
};

describe('0007 watched products', () => {
  it('is migration 7 and creates the table with its due index', () => {
    expect(migrations[6]?.id).toBe(7);
    expect(tableNames(db)).toContain('watched_products');
    expect(tableColumns(db, 'watched_products')).toEqual([
      'product_ref', 'watched_at', 'subscription_state', 'subscription_expires_at', 'subscribed_at', 'callback_url', 'renew_at', 'attempts', 'last_error',
    ]);
    const indexes = db.prepare<[], string>("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'watched_products'").pluck().all();
    expect(indexes).toContain('watched_products_due');
  });

  it('keeps one row per product and needs no cached product (watched before any sync)', () => {
    watch(42);
    expect(() => watch(42)).toThrow(/UNIQUE|PRIMARY KEY/);
    expect(db.prepare('SELECT count(*) FROM products').pluck().get()).toBe(0);
    expect(db.prepare('SELECT renew_at, attempts, subscription_state, callback_url FROM watched_products').get()).toEqual({
      renew_at: null, attempts: 0, subscription_state: null, callback_url: null,
    });
  });

  it('refuses bad references, a negative attempt count, half a subscription record and overlong URLs', () => {
    expect(() => watch(0)).toThrow(/CHECK/);
    expect(() => watch('7')).not.toThrow(); // STRICT INTEGER takes an integer-looking text as the integer
    expect(() => watch('x')).toThrow(/datatype|INTEGER/i);
    watch(1);
    expect(() => db.prepare('UPDATE watched_products SET attempts = -1 WHERE product_ref = 1').run()).toThrow(/CHECK/);
    expect(() => db.prepare("UPDATE watched_products SET subscription_state = 'subscribed' WHERE product_ref = 1").run()).toThrow(/CHECK/);
    expect(() => db.prepare("UPDATE watched_products SET callback_url = '' WHERE product_ref = 1").run()).toThrow(/CHECK/);
    expect(() => db.prepare('UPDATE watched_products SET callback_url = ? WHERE product_ref = 1').run(`https://h.example/${'a'.repeat(2048)}`)).toThrow(/CHECK/);
    db.prepare("UPDATE watched_products SET subscription_state = 'subscribed', subscribed_at = 5, subscription_expires_at = 9, callback_url = 'https://h.example/hooks/t' WHERE product_ref = 1").run();
    // An unknown state is stored raw (the merchant may add states).
    db.prepare("UPDATE watched_products SET subscription_state = 'paused' WHERE product_ref = 1").run();
  });

  it('finds due rows (never subscribed first) through the index', () => {
    watch(3, 500);
    watch(1, null);
    watch(2, 100);
    watch(4, 900);
    const due = db.prepare<[number], number>('SELECT product_ref FROM watched_products WHERE coalesce(renew_at, 0) <= ? ORDER BY coalesce(renew_at, 0), product_ref').pluck();
    expect(due.all(600)).toEqual([1, 2, 3]);
    const plan = db
      .prepare<[number], { detail: string }>('EXPLAIN QUERY PLAN SELECT product_ref FROM watched_products WHERE coalesce(renew_at, 0) <= ? ORDER BY coalesce(renew_at, 0)')
      .all(600)
      .map((r) => r.detail)
      .join(' ');
    expect(plan).toMatch(/watched_products_due/);
  });
});
