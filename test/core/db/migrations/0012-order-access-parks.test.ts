// Migration 0012 (access parks, requestIds): order_intents is rebuilt with needs_key,
// account_suspended and access_denied, each bound to the status it returns to; every row and every
// reference to it survive, and each row starts its requestId list with the one it had.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { migrate } from '../../../../src/core/db/migrate';
import { migrations } from '../../../../src/core/db/migrations';
import { createMigratedDatabase, tableColumns, type TempDatabase } from '../temp-database';

let temp: TempDatabase;
let db: Database;
beforeEach(() => {
  temp = createMigratedDatabase(migrations.slice(0, 11));
  db = temp.db;
});
afterEach(() => temp.dispose());

function insertIntent(ref: string, status: string, requestId: string | null): void {
  db.prepare(
    `INSERT INTO order_intents (client_order_ref, product_ref, variant_ref, product_type, units, status, last_request_id, created_at, updated_at, confirmed_unit_price_fen)
     VALUES (?, 101, 0, 'card', 1, ?, ?, 10, 10, 1000)`,
  ).run(ref, status, requestId);
}

describe('0012 order access parks', () => {
  it('is migration 12 and adds parked_from and request_ids_json after the old columns', () => {
    expect(migrations[11]?.id).toBe(12);
    expect(migrations[11]?.name).toBe('order-access-parks');
    // Through 12 only: later migrations add columns of their own (0022).
    migrate(db, { migrations: migrations.slice(0, 12) });
    expect(tableColumns(db, 'order_intents').slice(-2)).toEqual(['parked_from', 'request_ids_json']);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
  });

  it('keeps every intent and its references, and seeds the requestId list with the last one', () => {
    insertIntent('o_accepted', 'accepted', 'req_000000000000000000000001');
    db.prepare(
      `INSERT INTO orders (client_order_ref, platform_order_ref, product_ref, variant_ref, units, unit_price_fen, total_fen, state,
                           allowed_actions_json, revision, created_at, updated_at, detail_json, fetched_at)
       VALUES ('o_accepted', 'P1', 101, 0, 1, 1000, 1000, 'completed', '[]', 1, 1, 1, '{}', 1)`,
    ).run();
    insertIntent('o_queued', 'queued', null);
    migrate(db);
    expect(db.prepare('SELECT client_order_ref, status, request_ids_json, parked_from FROM order_intents ORDER BY client_order_ref').all()).toEqual([
      { client_order_ref: 'o_accepted', status: 'accepted', request_ids_json: '["req_000000000000000000000001"]', parked_from: null },
      { client_order_ref: 'o_queued', status: 'queued', request_ids_json: '[]', parked_from: null },
    ]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(() => db.prepare(`DELETE FROM order_intents WHERE client_order_ref = 'o_accepted'`).run()).toThrow(/FOREIGN KEY/);
  });

  it('admits the three parks only with the status they return to, and nothing else', () => {
    migrate(db);
    insertIntent('o_park', 'queued', null);
    for (const status of ['needs_key', 'account_suspended', 'access_denied']) {
      expect(() => db.prepare(`UPDATE order_intents SET status = ? WHERE client_order_ref = 'o_park'`).run(status)).toThrow(/CHECK/);
      db.prepare(`UPDATE order_intents SET status = ?, parked_from = 'unknown' WHERE client_order_ref = 'o_park'`).run(status);
      db.prepare(`UPDATE order_intents SET status = 'queued', parked_from = NULL WHERE client_order_ref = 'o_park'`).run();
    }
    expect(() => db.prepare(`UPDATE order_intents SET status = 'needs_key', parked_from = 'accepted' WHERE client_order_ref = 'o_park'`).run()).toThrow(/CHECK/);
    expect(() => db.prepare(`UPDATE order_intents SET parked_from = 'queued' WHERE client_order_ref = 'o_park'`).run()).toThrow(/CHECK/);
    expect(() => db.prepare(`UPDATE order_intents SET status = 'paused' WHERE client_order_ref = 'o_park'`).run()).toThrow(/CHECK/);
    expect(() => db.prepare(`UPDATE order_intents SET request_ids_json = '{}' WHERE client_order_ref = 'o_park'`).run()).toThrow(/CHECK/);
  });
});
