// Migration 0022 (the ceiling on the merchant's 500 answers, contract §7.12): order_intents is rebuilt
// with a count that survives a restart and one more status, merchant_failing; every row and every
// reference to it survive, and a merchant_failing row always has a count and is never due.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { migrate } from '../../../../src/core/db/migrate';
import { migrations } from '../../../../src/core/db/migrations';
import { createMigratedDatabase, tableColumns, type TempDatabase } from '../temp-database';

const index = migrations.findIndex((migration) => migration.name === 'order-server-failures');
let temp: TempDatabase;
let db: Database;
beforeEach(() => {
  temp = createMigratedDatabase(migrations.slice(0, index));
  db = temp.db;
});
afterEach(() => temp.dispose());

function insertIntent(ref: string, status: string, parkedFrom: string | null = null): void {
  db.prepare(
    `INSERT INTO order_intents (client_order_ref, product_ref, variant_ref, product_type, units, status, parked_from, created_at, updated_at, confirmed_unit_price_fen, request_ids_json, next_attempt_at)
     VALUES (?, 101, 0, 'card', 1, ?, ?, 10, 10, 1000, '["req_1"]', 10)`,
  ).run(ref, status, parkedFrom);
}

describe('0022 order server failures', () => {
  it('is migration 22 and adds server_failures to the columns there were', () => {
    expect(index).toBe(21);
    expect(migrations[index]?.id).toBe(22);
    const before = tableColumns(db, 'order_intents');
    migrate(db);
    expect(tableColumns(db, 'order_intents')).toEqual([...before, 'server_failures']);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
  });

  it('keeps every intent, its parks and its references, each with a count of 0', () => {
    insertIntent('o_accepted', 'accepted');
    db.prepare(
      `INSERT INTO orders (client_order_ref, platform_order_ref, product_ref, variant_ref, units, unit_price_fen, total_fen, state,
                           allowed_actions_json, revision, created_at, updated_at, detail_json, fetched_at)
       VALUES ('o_accepted', 'P1', 101, 0, 1, 1000, 1000, 'completed', '[]', 1, 1, 1, '{}', 1)`,
    ).run();
    db.prepare(`INSERT INTO order_drafts (draft_ref, client_order_ref, created_at) VALUES ('draft_0000000000000001', 'o_accepted', 1)`).run();
    insertIntent('o_parked', 'needs_key', 'unknown');
    insertIntent('o_unknown', 'unknown');
    migrate(db);
    expect(db.prepare('SELECT client_order_ref, status, parked_from, request_ids_json, server_failures FROM order_intents ORDER BY client_order_ref').all()).toEqual([
      { client_order_ref: 'o_accepted', status: 'accepted', parked_from: null, request_ids_json: '["req_1"]', server_failures: 0 },
      { client_order_ref: 'o_parked', status: 'needs_key', parked_from: 'unknown', request_ids_json: '["req_1"]', server_failures: 0 },
      { client_order_ref: 'o_unknown', status: 'unknown', parked_from: null, request_ids_json: '["req_1"]', server_failures: 0 },
    ]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(() => db.prepare(`DELETE FROM order_intents WHERE client_order_ref = 'o_accepted'`).run()).toThrow(/FOREIGN KEY/);
  });

  it('admits merchant_failing only with a count and no due time; a count is never negative', () => {
    migrate(db);
    insertIntent('o_fail', 'unknown');
    // Due, or without a count: refused.
    expect(() => db.prepare(`UPDATE order_intents SET status = 'merchant_failing' WHERE client_order_ref = 'o_fail'`).run()).toThrow(/CHECK/);
    expect(() => db.prepare(`UPDATE order_intents SET status = 'merchant_failing', next_attempt_at = NULL WHERE client_order_ref = 'o_fail'`).run()).toThrow(/CHECK/);
    db.prepare(`UPDATE order_intents SET status = 'merchant_failing', next_attempt_at = NULL, server_failures = 3 WHERE client_order_ref = 'o_fail'`).run();
    expect(() => db.prepare(`UPDATE order_intents SET next_attempt_at = 99 WHERE client_order_ref = 'o_fail'`).run()).toThrow(/CHECK/);
    expect(() => db.prepare(`UPDATE order_intents SET server_failures = -1 WHERE client_order_ref = 'o_fail'`).run()).toThrow(/CHECK/);
    expect(() => db.prepare(`UPDATE order_intents SET status = 'failing' WHERE client_order_ref = 'o_fail'`).run()).toThrow(/CHECK/);
    // The buyer's retry: back to unknown, due, the count from 0.
    db.prepare(`UPDATE order_intents SET status = 'unknown', server_failures = 0, next_attempt_at = 20 WHERE client_order_ref = 'o_fail'`).run();
  });
});
