// Migration 0014 (order drafts): a review step's draftRef maps to exactly one intent, in the
// clientOrderRef alphabet, and goes with its intent.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { migrations } from '../../../../src/core/db/migrations';
import { createMigratedDatabase, tableColumns, type TempDatabase } from '../temp-database';

const through = migrations.slice(0, migrations.findIndex((migration) => migration.name === 'order-drafts') + 1);
let temp: TempDatabase;
let db: Database;
beforeEach(() => {
  temp = createMigratedDatabase(through);
  db = temp.db;
  for (const ref of ['o_a', 'o_b']) {
    db.prepare(
      `INSERT INTO order_intents (client_order_ref, product_ref, variant_ref, product_type, units, status, created_at, updated_at)
       VALUES (?, 101, 0, 'card', 1, 'queued', 1, 1)`,
    ).run(ref);
  }
});
afterEach(() => temp.dispose());

const add = (draft: string, ref: string): void => {
  db.prepare('INSERT INTO order_drafts (draft_ref, client_order_ref, created_at) VALUES (?, ?, 1)').run(draft, ref);
};

describe('0014 order drafts', () => {
  it('is migration 14 with one table', () => {
    expect(through.at(-1)?.id).toBe(14);
    expect(tableColumns(db, 'order_drafts')).toEqual(['draft_ref', 'client_order_ref', 'created_at']);
  });

  it('maps a draft to one intent and an intent to one draft, and refuses what is not a reference', () => {
    add('rv_Zk3q9XbT0aPwL1mN8sYc', 'o_a');
    expect(() => add('rv_Zk3q9XbT0aPwL1mN8sYc', 'o_b')).toThrow(/UNIQUE|PRIMARY KEY/);
    expect(() => add('rv_Other5tYu8IoP0aSdQq7w', 'o_a')).toThrow(/UNIQUE/);
    expect(() => add('short', 'o_b')).toThrow(/CHECK/);
    expect(() => add('has spaces in it, sixteen+', 'o_b')).toThrow(/CHECK/);
    expect(() => add('rv_Missing5tYu8IoP0aSdQq', 'o_missing')).toThrow(/FOREIGN KEY/);
    db.prepare("DELETE FROM order_intents WHERE client_order_ref = 'o_a'").run();
    expect(db.prepare('SELECT count(*) FROM order_drafts').pluck().get()).toBe(0);
  });
});
