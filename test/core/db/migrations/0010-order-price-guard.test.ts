// Migration 0010 (price guard, withdraw, recharged account): order_intents is rebuilt with the three
// new statuses and the guard's columns, every row and every reference to it survive (orders, cards,
// refunds still point at it and still refuse to lose it), intents waiting to be sent take the price
// their variant had in the cache when they were written, and the park columns go with their status.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { migrate } from '../../../../src/core/db/migrate';
import { migrations } from '../../../../src/core/db/migrations';
import { insertProduct } from '../catalog-fixtures';
import { createMigratedDatabase, tableColumns, type TempDatabase } from '../temp-database';

let temp: TempDatabase;
let db: Database;
beforeEach(() => {
  temp = createMigratedDatabase(migrations.slice(0, 9));
  db = temp.db;
});
afterEach(() => temp.dispose());

function insertIntent(ref: string, status: string, createdAt: number, productRef = 101): void {
  db.prepare(
    `INSERT INTO order_intents (client_order_ref, product_ref, variant_ref, product_type, units, purchase_schema_revision,
                                purchase_entries_json, status, created_at, updated_at)
     VALUES (?, ?, 1, 'topup', 2, 7, '[{"account":"13800000000"}]', ?, ?, ?)`,
  ).run(ref, productRef, status, createdAt, createdAt);
}

function insertOrderAndCard(ref: string): void {
  db.prepare(
    `INSERT INTO orders (client_order_ref, platform_order_ref, product_ref, variant_ref, units, unit_price_fen, total_fen, state,
                         allowed_actions_json, revision, created_at, updated_at, detail_json, fetched_at)
     VALUES (?, ?, 101, 1, 2, 1000, 2000, 'completed', '[]', 1, 1, 1, '{}', 1)`,
  ).run(ref, `P-${ref}`);
  db.prepare(`INSERT INTO vault_keys (key_id, wrapped_key, wrap_scheme, created_at) VALUES ('k1', x'00', 'test', 1) ON CONFLICT DO NOTHING`).run();
  db.prepare(
    `INSERT INTO cards (client_order_ref, seq, key_id, card_no_sealed, received_at, source) VALUES (?, 0, 'k1', x'00', 1, 'orderDetail')`,
  ).run(ref);
}

const priceAt = (priceFen: number, at: number): void => {
  db.prepare(`UPDATE variants SET price_fen = ?, synced_at = ? WHERE product_ref = 101 AND variant_ref = 1`).run(priceFen, at);
};

describe('0010 order price guard', () => {
  it('is migration 10 and adds the guard columns after the old ones', () => {
    expect(migrations[9]?.id).toBe(10);
    expect(migrations[9]?.name).toBe('order-price-guard');
    // Through 0010 only: later migrations (0012) add columns after these.
    migrate(db, { migrations: migrations.slice(0, 10) });
    expect(tableColumns(db, 'order_intents').slice(-5)).toEqual([
      'confirmed_unit_price_fen', 'guard_unit_price_fen', 'unavailable_reason', 'withdraw_requested_at', 'recharged_entries_sealed',
    ]);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
  });

  it('keeps every intent and every reference to it, and the references still guard them', () => {
    insertIntent('o_accepted', 'accepted', 10);
    insertOrderAndCard('o_accepted');
    insertIntent('o_queued', 'queued', 11);
    migrate(db);
    expect(db.prepare('SELECT client_order_ref, status FROM order_intents ORDER BY client_order_ref').all()).toEqual([
      { client_order_ref: 'o_accepted', status: 'accepted' },
      { client_order_ref: 'o_queued', status: 'queued' },
    ]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    // orders and cards still reference order_intents (by name, now the rebuilt table).
    const orderFks = db.prepare<[], { table: string }>(`SELECT "table" FROM pragma_foreign_key_list('orders')`).all();
    expect(orderFks).toEqual([{ table: 'order_intents' }]);
    expect(() => db.prepare(`DELETE FROM order_intents WHERE client_order_ref = 'o_accepted'`).run()).toThrow(/FOREIGN KEY/);
    expect(() =>
      db.prepare(`INSERT INTO cards (client_order_ref, seq, key_id, card_no_sealed, received_at, source) VALUES ('o_none', 0, 'k1', x'00', 1, 'x')`).run(),
    ).toThrow(/FOREIGN KEY/);
  });

  it('gives waiting intents the price their variant had in the cache when they were written', () => {
    insertProduct(db, { productRef: 101, catalogRef: 1, name: 'p', productType: 'topup', variants: [{ variantRef: 1, title: 'v', priceFen: 1850 }] }, 100);
    priceAt(1900, 200);
    priceAt(2000, 300);
    insertIntent('o_before_cache', 'queued', 50);
    insertIntent('o_at_1850', 'queued', 150);
    insertIntent('o_at_1900', 'needs_confirmation', 250);
    insertIntent('o_sent', 'unknown', 250);
    insertIntent('o_done', 'accepted', 350);
    migrate(db);
    const rows = db.prepare('SELECT client_order_ref, confirmed_unit_price_fen AS price FROM order_intents ORDER BY client_order_ref').all();
    expect(rows).toEqual([
      { client_order_ref: 'o_at_1850', price: 1850 },
      { client_order_ref: 'o_at_1900', price: 1900 },
      { client_order_ref: 'o_before_cache', price: null },
      { client_order_ref: 'o_done', price: null },
      { client_order_ref: 'o_sent', price: null },
    ]);
  });

  it('admits the new statuses, a park only with its column', () => {
    migrate(db);
    insertIntent('o1', 'queued', 1);
    const set = (sql: string): unknown => db.prepare(`UPDATE order_intents SET ${sql} WHERE client_order_ref = 'o1'`).run();
    expect(() => set(`status = 'price_changed'`)).toThrow(/CHECK/);
    set(`status = 'price_changed', guard_unit_price_fen = 1900`);
    expect(() => set(`guard_unit_price_fen = NULL`)).toThrow(/CHECK/);
    // Withdrawn after the park: why it was given up stays.
    set(`status = 'withdrawn'`);
    set(`status = 'unavailable', unavailable_reason = 'outOfStock'`);
    expect(() => set(`unavailable_reason = NULL`)).toThrow(/CHECK/);
    set(`status = 'withdrawing'`);
    expect(() => set(`status = 'lost'`)).toThrow(/CHECK/);
    expect(() => set(`confirmed_unit_price_fen = -1`)).toThrow(/CHECK/);
  });
});
