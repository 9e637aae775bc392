// Migration 0018 (balance history): one table of balance runs per merchant, a run never ending before
// it starts, an answer count of at least one.
import { afterEach, describe, expect, it } from 'vitest';
import { migrations } from '../../../../src/core/db/migrations';
import { createMigratedDatabase, tableColumns, type TempDatabase } from '../temp-database';

const index = migrations.findIndex((migration) => migration.name === 'balance-history');
const through = migrations.slice(0, index + 1);
let temp: TempDatabase | null = null;
afterEach(() => temp?.dispose());

const insert = "INSERT INTO balance_history (base_url, user_id, account_ref, currency, balance_fen, first_seen_at_ms, last_seen_at_ms, answers) VALUES ('https://m', 'u', 1, 'CNY', 100, ?, ?, ?)";

describe('0018 balance history', () => {
  it('is migration 18 and creates balance_history', () => {
    temp = createMigratedDatabase(through);
    expect(through.at(-1)?.id).toBe(18);
    expect(tableColumns(temp.db, 'balance_history')).toEqual([
      'id',
      'base_url',
      'user_id',
      'account_ref',
      'currency',
      'balance_fen',
      'first_seen_at_ms',
      'last_seen_at_ms',
      'answers',
      'request_id',
    ]);
  });

  it('refuses a run that ends before it starts, and one of no answers', () => {
    temp = createMigratedDatabase(through);
    expect(() => temp?.db.prepare(insert).run(2_000, 1_000, 1)).toThrow(/CHECK/);
    expect(() => temp?.db.prepare(insert).run(1_000, 2_000, 0)).toThrow(/CHECK/);
    expect(temp.db.prepare(insert).run(1_000, 1_000, 1).changes).toBe(1);
  });
});
