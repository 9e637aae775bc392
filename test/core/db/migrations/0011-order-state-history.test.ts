// Migration 0011 (order state history): one row per (order, revision) state seen, existing orders
// backfilled with their current state, and nothing the orders row accepts can be refused here.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { migrate } from '../../../../src/core/db/migrate';
import { migrations } from '../../../../src/core/db/migrations';
import { createTempDatabase, tableColumns, type TempDatabase } from '../temp-database';

const index = migrations.findIndex((migration) => migration.name === 'order-state-history');
const before = migrations.slice(0, index);
const through = migrations.slice(0, index + 1);

let temp: TempDatabase;
let db: Database;
beforeEach(() => {
  temp = createTempDatabase();
  db = temp.db;
  migrate(db, { migrations: before, now: () => 1_790_000_000 });
});
afterEach(() => temp.dispose());

function insertOrder(ref: string, state: string, revision: number): void {
  db.prepare(
    `INSERT INTO order_intents (client_order_ref, product_ref, variant_ref, product_type, units, status, created_at, updated_at)
     VALUES (?, 101, 1, 'card', 1, 'accepted', 1, 1)`,
  ).run(ref);
  db.prepare(
    `INSERT INTO orders (client_order_ref, platform_order_ref, product_ref, variant_ref, units, unit_price_fen, total_fen, state,
                         allowed_actions_json, revision, created_at, updated_at, detail_json, fetched_at)
     VALUES (?, ?, 101, 1, 1, 1000, 1000, ?, '[]', ?, 1, 50, '{}', 60)`,
  ).run(ref, `P-${ref}`, state, revision);
}

describe('0011 order state history', () => {
  it('is one migration with its own table, and backfills every existing order with its current state', () => {
    expect(index).toBeGreaterThan(0);
    insertOrder('o_done', 'completed', 4);
    insertOrder('o_odd', 'shipped_by_pigeon', 2);
    migrate(db, { migrations: through, now: () => 1_790_000_000 });
    expect(tableColumns(db, 'order_state_history')).toEqual(['client_order_ref', 'revision', 'state', 'at', 'seen_at']);
    expect(db.prepare('SELECT client_order_ref, revision, state, at, seen_at FROM order_state_history ORDER BY client_order_ref').all()).toEqual([
      { client_order_ref: 'o_done', revision: 4, state: 'completed', at: 50, seen_at: 60 },
      { client_order_ref: 'o_odd', revision: 2, state: 'shipped_by_pigeon', at: 50, seen_at: 60 },
    ]);
  });

  it('keeps one state per revision, needs the order, and goes with it', () => {
    migrate(db, { migrations: through, now: () => 1_790_000_000 });
    insertOrder('o_1', 'pending', 1);
    const add = db.prepare('INSERT INTO order_state_history (client_order_ref, revision, state, at, seen_at) VALUES (?, ?, ?, 1, 1)');
    add.run('o_1', 2, 'processing');
    expect(() => add.run('o_1', 2, 'completed')).toThrow(/UNIQUE|PRIMARY KEY/);
    expect(() => add.run('o_missing', 1, 'pending')).toThrow(/FOREIGN KEY/);
    expect(() => add.run('o_1', 3, 'x'.repeat(65))).toThrow(/CHECK/);
    // An empty or unknown state is history too (the orders row accepts it, so must this).
    expect(() => add.run('o_1', 4, '')).not.toThrow();
    db.prepare('DELETE FROM orders WHERE client_order_ref = ?').run('o_1');
    expect(db.prepare('SELECT count(*) FROM order_state_history').pluck().get()).toBe(0);
  });
});
