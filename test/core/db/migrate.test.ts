// The migrator's guarantees: all shipped migrations in order with their checksums, idempotent
// re-runs, refusal of an edited or unknown migration, and all-or-nothing application.
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/open-database';
import { migrate } from '../../../src/core/db/migrate';
import { migrationChecksum } from '../../../src/core/db/migration';
import type { Migration } from '../../../src/core/db/migration';
import { MigrationError } from '../../../src/core/db/migration-error';
import type { MigrationErrorCode } from '../../../src/core/db/migration-error';
import { migrations } from '../../../src/core/db/migrations';
import { createTempDatabase, tableNames } from './temp-database';
import type { TempDatabase } from './temp-database';

interface HistoryRow {
  id: number;
  name: string;
  checksum: string;
  applied_at: number;
}

let temp: TempDatabase | undefined;
afterEach(() => {
  temp?.dispose();
  temp = undefined;
});

function history(temp: TempDatabase): HistoryRow[] {
  return temp.db.prepare<[], HistoryRow>('SELECT id, name, checksum, applied_at FROM schema_migrations ORDER BY id').all();
}

function expectRefusal(run: () => unknown, code: MigrationErrorCode, message: RegExp): void {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(MigrationError);
  if (caught instanceof MigrationError) {
    expect(caught.code).toBe(code);
    expect(caught.message).toMatch(message);
  }
}

const first: Migration = { id: 1, name: 'first', sql: 'CREATE TABLE a (x INTEGER) STRICT;' };
const second: Migration = { id: 2, name: 'second', sql: 'CREATE TABLE b (y INTEGER) STRICT;' };
const LATEST = migrations.length;

describe('migrate', () => {
  it('applies every shipped migration in order, recording name, sha256 checksum and time', () => {
    temp = createTempDatabase();
    const result = migrate(temp.db, { now: () => 1_790_000_123 });
    // 1 … N without gaps, whatever N this build ships (each migration's own test pins its id).
    const ids = migrations.map((_, index) => index + 1);
    expect(migrations.map((m) => m.id)).toEqual(ids);
    expect(result).toEqual({ applied: ids, version: LATEST });
    expect(history(temp)).toEqual(
      migrations.map((m) => ({ id: m.id, name: m.name, checksum: migrationChecksum(m), applied_at: 1_790_000_123 })),
    );
    expect(history(temp)[0]?.checksum).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is a no-op when run again, also from a new connection', () => {
    temp = createTempDatabase();
    migrate(temp.db, { now: () => 1 });
    const before = history(temp);
    expect(migrate(temp.db, { now: () => 2 })).toEqual({ applied: [], version: LATEST });
    const second = openDatabase(temp.file);
    try {
      expect(migrate(second, { now: () => 3 })).toEqual({ applied: [], version: LATEST });
    } finally {
      second.close();
    }
    expect(history(temp)).toEqual(before);
  });

  it('applies only the pending migrations of a database that an older build migrated', () => {
    temp = createTempDatabase();
    migrate(temp.db, { migrations: [first], now: () => 10 });
    expect(migrate(temp.db, { migrations: [first, second], now: () => 20 })).toEqual({ applied: [2], version: 2 });
    expect(history(temp).map((row) => [row.id, row.applied_at])).toEqual([
      [1, 10],
      [2, 20],
    ]);
  });

  it('refuses to start when an applied migration was edited', () => {
    temp = createTempDatabase();
    const { db } = temp;
    migrate(temp.db, { migrations: [first, second] });
    const edited: Migration = { ...second, sql: 'CREATE TABLE b (y INTEGER, z TEXT) STRICT;' };
    expectRefusal(() => migrate(db, { migrations: [first, edited] }), 'MIGRATION_EDITED', /2 "second" was changed after it had been applied/);
  });

  it('refuses a database written by a newer build', () => {
    temp = createTempDatabase();
    const { db } = temp;
    migrate(temp.db, { migrations: [first, second] });
    expectRefusal(() => migrate(db, { migrations: [first] }), 'DATABASE_NEWER', /newer version.*2 "second"/);
    // Nothing was touched by the refusal.
    expect(history(temp).map((row) => row.id)).toEqual([1, 2]);
  });

  it('refuses a list whose ids are not consecutive from 1', () => {
    temp = createTempDatabase();
    const { db } = temp;
    expectRefusal(() => migrate(db, { migrations: [second] }), 'MIGRATIONS_INVALID', /consecutive/);
    expectRefusal(() => migrate(db, { migrations: [first, { ...second, id: 3 }] }), 'MIGRATIONS_INVALID', /consecutive/);
  });

  it('rolls a failing migration back completely: no table, no record, earlier ones kept', () => {
    temp = createTempDatabase();
    const { db } = temp;
    const failing: Migration = {
      id: 2,
      name: 'failing',
      sql: 'CREATE TABLE half (x INTEGER) STRICT; CREATE INDEX half_x ON half (x); INSERT INTO no_such_table VALUES (1);',
    };
    expectRefusal(() => migrate(db, { migrations: [first, failing] }), 'MIGRATION_FAILED', /2 "failing" failed and was rolled back/);
    expect(tableNames(temp.db)).toEqual(['a', 'schema_migrations']);
    expect(temp.db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'half_x'").pluck().get()).toBe(0);
    expect(history(temp).map((row) => row.id)).toEqual([1]);
    expect(temp.db.inTransaction).toBe(false);
    // Once fixed, the same database takes it.
    expect(migrate(temp.db, { migrations: [first, second] }).applied).toEqual([2]);
  });

  it('rolls back a migration that leaves foreign key violations', () => {
    temp = createTempDatabase();
    const { db } = temp;
    const parent: Migration = { id: 1, name: 'parent', sql: 'CREATE TABLE p (id INTEGER PRIMARY KEY) STRICT;' };
    // A table rebuilt with a foreign key over rows that break it: SQLite does not check existing rows.
    const orphaned: Migration = {
      id: 2,
      name: 'orphaned',
      sql: `CREATE TABLE c (p_id INTEGER) STRICT; INSERT INTO c VALUES (7);
            CREATE TABLE c2 (p_id INTEGER REFERENCES p (id)) STRICT;
            PRAGMA defer_foreign_keys = ON; INSERT INTO c2 SELECT p_id FROM c; DROP TABLE c;`,
    };
    expectRefusal(() => migrate(db, { migrations: [parent, orphaned] }), 'MIGRATION_FAILED', /orphaned/);
    expect(tableNames(temp.db)).toEqual(['p', 'schema_migrations']);
  });
});
