// Migration 0015 (catalog sync outcome): the last success is backfilled from a finished run, a stored
// English failure becomes a failure of kind other, and the kind is one the screen knows.
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../../../src/core/db/migrate';
import { migrations } from '../../../../src/core/db/migrations';
import { createMigratedDatabase, tableColumns, type TempDatabase } from '../temp-database';

const index = migrations.findIndex((migration) => migration.name === 'catalog-sync-outcome');
const before = migrations.slice(0, index);
const through = migrations.slice(0, index + 1);
let temp: TempDatabase | null = null;
afterEach(() => temp?.dispose());

const insert = (phase: string, finishedAt: number | null, lastError: string | null): void => {
  temp?.db
    .prepare(
      `INSERT INTO catalog_sync_state (id, phase, next_page, items_done, items_total, started_at, updated_at, finished_at, last_error)
       VALUES (1, ?, 1, 0, NULL, 100, 250, ?, ?)`,
    )
    .run(phase, finishedAt, lastError);
};
const row = (): Record<string, unknown> | undefined =>
  temp?.db.prepare('SELECT * FROM catalog_sync_state WHERE id = 1').get() as Record<string, unknown> | undefined;

describe('0015 catalog sync outcome', () => {
  it('is migration 15 and replaces last_error by the last success and a structured failure', () => {
    temp = createMigratedDatabase(through);
    expect(through.at(-1)?.id).toBe(15);
    expect(tableColumns(temp.db, 'catalog_sync_state')).toEqual([
      'id', 'phase', 'next_page', 'items_done', 'items_total', 'started_at', 'updated_at', 'finished_at',
      'last_success_at', 'failure_kind', 'failure_code', 'failure_transport', 'failure_request_id', 'failure_not_before', 'failure_at',
    ]);
  });

  it('keeps a finished sync as the last success', () => {
    temp = createMigratedDatabase(before);
    insert('done', 200, null);
    migrate(temp.db, { migrations: through, now: () => 1_790_000_000 });
    expect(row()).toMatchObject({ last_success_at: 200, failure_kind: null, failure_at: null });
  });

  it('keeps that a run failed (kind other, at its last update), without its English text', () => {
    temp = createMigratedDatabase(before);
    insert('details', null, 'merchant error 503001 TEMPORARILY_UNAVAILABLE (HTTP 503) [req_1]');
    migrate(temp.db, { migrations: through, now: () => 1_790_000_000 });
    expect(row()).toMatchObject({ last_success_at: null, failure_kind: 'other', failure_at: 250, failure_code: null });
  });

  it('refuses a failure kind the screen does not know', () => {
    temp = createMigratedDatabase(before);
    insert('done', 200, null);
    migrate(temp.db, { migrations: through, now: () => 1_790_000_000 });
    expect(() => temp?.db.prepare("UPDATE catalog_sync_state SET failure_kind = 'boom'").run()).toThrow(/CHECK/);
  });
});
