// Migration 0020 (batch orders): a batch per confirm step's draftRef, a file row's current ref unique
// per batch with retired refs kept, intents referenced, remembered mappings one per product.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { migrations } from '../../../../src/core/db/migrations';
import { createMigratedDatabase, tableColumns, type TempDatabase } from '../temp-database';

const through = migrations.slice(0, migrations.findIndex((migration) => migration.name === 'batch-orders') + 1);
let temp: TempDatabase;
let db: Database;
beforeEach(() => {
  temp = createMigratedDatabase(through);
  db = temp.db;
  for (const ref of ['o_a', 'o_b', 'o_c']) {
    db.prepare(
      `INSERT INTO order_intents (client_order_ref, batch_id, product_ref, variant_ref, product_type, units, status, created_at, updated_at)
       VALUES (?, 'b_1', 101, 0, 'card', 1, 'queued', 1, 1)`,
    ).run(ref);
  }
});
afterEach(() => temp.dispose());

const batch = (id: string, draft: string): void => {
  db.prepare(
    `INSERT INTO batches (batch_id, draft_ref, product_ref, variant_ref, file_name, file_sha256, file_format, map_json, confirmed_unit_price_fen, row_count, created_at)
     VALUES (?, ?, 101, 0, 'a.csv', ?, 'csv', '{}', 100, 3, 1)`,
  ).run(id, draft, 'f'.repeat(64));
};
const row = (ref: string, rowNumber: number, retired: number | null = null): void => {
  db.prepare('INSERT INTO batch_rows (batch_id, row_number, client_order_ref, created_at, retired_at) VALUES (?, ?, ?, 1, ?)').run('b_1', rowNumber, ref, retired);
};

describe('0020 batch orders', () => {
  it('is migration 20 with three tables', () => {
    expect(through.at(-1)?.id).toBe(20);
    expect(tableColumns(db, 'batches')).toEqual([
      'batch_id', 'draft_ref', 'product_ref', 'variant_ref', 'file_name', 'file_sha256', 'file_format', 'map_json', 'default_units', 'confirmed_unit_price_fen', 'row_count', 'created_at',
    ]);
    expect(tableColumns(db, 'batch_rows')).toEqual(['batch_id', 'row_number', 'client_order_ref', 'created_at', 'retired_at']);
    expect(tableColumns(db, 'batch_column_maps')).toEqual(['product_ref', 'map_json', 'updated_at']);
  });

  it('keeps one batch per draft, one current ref per row, and the retired ones', () => {
    batch('b_1', 'bd_Zk3q9XbT0aPwL1mN8sYc');
    expect(() => batch('b_2', 'bd_Zk3q9XbT0aPwL1mN8sYc')).toThrow(/UNIQUE/);
    expect(() => batch('b_3', 'short')).toThrow(/CHECK/);
    row('o_a', 2, 5);
    row('o_b', 2);
    expect(() => row('o_c', 2)).toThrow(/UNIQUE/);
    expect(() => row('o_a', 3)).toThrow(/UNIQUE|PRIMARY/);
    expect(() => row('o_missing', 4)).toThrow(/FOREIGN KEY/);
    expect(() => row('o_c', 0)).toThrow(/CHECK/);
    db.prepare("DELETE FROM batches WHERE batch_id = 'b_1'").run();
    expect(db.prepare('SELECT count(*) FROM batch_rows').pluck().get()).toBe(0);
  });

  it('remembers one mapping object per product', () => {
    const remember = (json: string): unknown => db.prepare('INSERT OR REPLACE INTO batch_column_maps (product_ref, map_json, updated_at) VALUES (101, ?, 1)').run(json);
    remember('{"@units":"数量"}');
    remember('{"phone":"手机号"}');
    expect(db.prepare('SELECT map_json FROM batch_column_maps').pluck().all()).toEqual(['{"phone":"手机号"}']);
    expect(() => remember('[1]')).toThrow(/CHECK/);
  });
});
