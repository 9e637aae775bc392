// Migration 0019 (reconciliation): the run, its items and the foreign orders; no table can hold a card
// list, a run is finished exactly when it has a report.
import { afterEach, describe, expect, it } from 'vitest';
import { migrations } from '../../../../src/core/db/migrations';
import { createMigratedDatabase, tableColumns, type TempDatabase } from '../temp-database';

const index = migrations.findIndex((migration) => migration.name === 'reconciliation');
const through = migrations.slice(0, index + 1);
let temp: TempDatabase | null = null;
afterEach(() => temp?.dispose());

const run = "INSERT INTO reconcile_runs (base_url, user_id, from_day, to_day, created_from, created_to, page_size, started_at_ms) VALUES ('https://m', 'u', '2026-11-25', '2026-11-25', 10, 20, 100, 1)";

describe('0019 reconciliation', () => {
  it('is migration 19 and creates the run, item and foreign order tables', () => {
    temp = createMigratedDatabase(through);
    expect(through.at(-1)?.id).toBe(19);
    expect(tableColumns(temp.db, 'reconcile_runs')).toContain('next_page');
    expect(tableColumns(temp.db, 'reconcile_items')).toEqual(['run_id', 'client_order_ref', 'revision', 'page', 'item_json']);
    expect(tableColumns(temp.db, 'foreign_orders')).toContain('detail_json');
  });

  it('refuses a card list in an item or a foreign order, a bad day, and a finished run without a report', () => {
    temp = createMigratedDatabase(through);
    const { db } = temp;
    db.prepare(run).run();
    expect(() => db.prepare("INSERT INTO reconcile_items VALUES (1, 'A', 1, 1, ?)").run(JSON.stringify({ card_list: [{ card_no: '1' }] }))).toThrow(/CHECK/);
    expect(db.prepare("INSERT INTO reconcile_items VALUES (1, 'A', 1, 1, ?)").run(JSON.stringify({ card_list: null })).changes).toBe(1);
    expect(() => db.prepare("UPDATE reconcile_runs SET status = 'finished' WHERE id = 1").run()).toThrow(/CHECK/);
    expect(() => db.prepare(run.replace("'2026-11-25', '2026-11-25'", "'25/11/2026', '2026-11-25'")).run()).toThrow(/CHECK/);
    const foreign = "INSERT INTO foreign_orders (base_url, user_id, client_order_ref, platform_order_ref, units, total_fen, state, revision, created_at, detail_json, recorded_at_ms) VALUES ('https://m', 'u', 'X', '1', 1, 100, 'completed', 1, 10, ?, 1)";
    expect(() => db.prepare(foreign).run(JSON.stringify({ card_list: [] }))).toThrow(/CHECK/);
    expect(db.prepare(foreign).run(JSON.stringify({ card_list: null })).changes).toBe(1);
  });
});
