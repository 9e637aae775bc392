// Migration 0017 (needs_template): order_intents is rebuilt with one more status for an order placed
// offline without a trusted template; every row and every reference to it survive, and a
// needs_template row can hold no revision, no attempt and no missing price.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { migrate } from '../../../../src/core/db/migrate';
import { migrations } from '../../../../src/core/db/migrations';
import { createMigratedDatabase, tableColumns, type TempDatabase } from '../temp-database';

let temp: TempDatabase;
let db: Database;
beforeEach(() => {
  temp = createMigratedDatabase(migrations.slice(0, 16));
  db = temp.db;
});
afterEach(() => temp.dispose());

function insertIntent(ref: string, status: string, parkedFrom: string | null = null): void {
  db.prepare(
    `INSERT INTO order_intents (client_order_ref, product_ref, variant_ref, product_type, units, status, parked_from, created_at, updated_at, confirmed_unit_price_fen, request_ids_json)
     VALUES (?, 101, 0, 'card', 1, ?, ?, 10, 10, 1000, '["req_1"]')`,
  ).run(ref, status, parkedFrom);
}

describe('0017 order needs template', () => {
  it('is migration 17 and keeps the columns as they were', () => {
    expect(migrations[16]?.id).toBe(17);
    expect(migrations[16]?.name).toBe('order-needs-template');
    const before = tableColumns(db, 'order_intents');
    // Through 17 only: later migrations add columns of their own (0022).
    migrate(db, { migrations: migrations.slice(0, 17) });
    expect(tableColumns(db, 'order_intents')).toEqual(before);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
  });

  it('keeps every intent, its parks and its references', () => {
    insertIntent('o_accepted', 'accepted');
    db.prepare(
      `INSERT INTO orders (client_order_ref, platform_order_ref, product_ref, variant_ref, units, unit_price_fen, total_fen, state,
                           allowed_actions_json, revision, created_at, updated_at, detail_json, fetched_at)
       VALUES ('o_accepted', 'P1', 101, 0, 1, 1000, 1000, 'completed', '[]', 1, 1, 1, '{}', 1)`,
    ).run();
    db.prepare(`INSERT INTO order_drafts (draft_ref, client_order_ref, created_at) VALUES ('draft_0000000000000001', 'o_accepted', 1)`).run();
    insertIntent('o_parked', 'needs_key', 'unknown');
    migrate(db);
    expect(db.prepare('SELECT client_order_ref, status, parked_from, request_ids_json FROM order_intents ORDER BY client_order_ref').all()).toEqual([
      { client_order_ref: 'o_accepted', status: 'accepted', parked_from: null, request_ids_json: '["req_1"]' },
      { client_order_ref: 'o_parked', status: 'needs_key', parked_from: 'unknown', request_ids_json: '["req_1"]' },
    ]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(() => db.prepare(`DELETE FROM order_intents WHERE client_order_ref = 'o_accepted'`).run()).toThrow(/FOREIGN KEY/);
  });

  it('admits needs_template only without a revision, before any attempt, with the confirmed price', () => {
    migrate(db);
    insertIntent('o_wait', 'needs_template');
    expect(db.prepare(`SELECT status FROM order_intents WHERE client_order_ref = 'o_wait'`).get()).toEqual({ status: 'needs_template' });
    expect(() => db.prepare(`UPDATE order_intents SET purchase_schema_revision = 3 WHERE client_order_ref = 'o_wait'`).run()).toThrow(/CHECK/);
    expect(() => db.prepare(`UPDATE order_intents SET attempts = 1 WHERE client_order_ref = 'o_wait'`).run()).toThrow(/CHECK/);
    expect(() => db.prepare(`UPDATE order_intents SET confirmed_unit_price_fen = NULL WHERE client_order_ref = 'o_wait'`).run()).toThrow(/CHECK/);
    // Once its template came, it leaves the status with the revision it was checked against.
    db.prepare(`UPDATE order_intents SET status = 'queued', purchase_schema_revision = 3 WHERE client_order_ref = 'o_wait'`).run();
    expect(() => db.prepare(`UPDATE order_intents SET status = 'paused' WHERE client_order_ref = 'o_wait'`).run()).toThrow(/CHECK/);
  });
});
