// Applies the numbered migrations, as @usebruno/sqlite does: each pending migration runs in its own
// transaction together with its record in schema_migrations (with a sha256 of its SQL), so a crash
// leaves either the whole migration or none of it. The app refuses to start on a database that an
// edited migration or a newer build has touched, rather than guessing what the schema is.
import type { Database } from 'better-sqlite3';
import { migrationChecksum } from './migration';
import type { Migration } from './migration';
import { MigrationError } from './migration-error';
import { migrations as shippedMigrations } from './migrations';

export interface MigrateOptions {
  /** The list to apply; defaults to the migrations shipped with this build. Tests pass their own. */
  readonly migrations?: readonly Migration[];
  /** Unix seconds for applied_at; defaults to the wall clock. */
  readonly now?: () => number;
}

export interface MigrateResult {
  /** Ids applied by this call, in order; empty when the database was already current. */
  readonly applied: readonly number[];
  /** The highest applied id after this call (0 for an empty list). */
  readonly version: number;
}

interface AppliedRow {
  id: number;
  name: string;
  checksum: string;
}

const CREATE_HISTORY = `
  CREATE TABLE IF NOT EXISTS schema_migrations (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    checksum TEXT NOT NULL,
    applied_at INTEGER NOT NULL
  ) STRICT`;

export function migrate(db: Database, options: MigrateOptions = {}): MigrateResult {
  const list = options.migrations ?? shippedMigrations;
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  assertWellFormed(list);
  db.exec(CREATE_HISTORY);

  const readApplied = db.prepare<[], AppliedRow>('SELECT id, name, checksum FROM schema_migrations ORDER BY id');
  verifyHistory(readApplied.all(), list);

  const isApplied = db.prepare<[number], { checksum: string }>('SELECT checksum FROM schema_migrations WHERE id = ?');
  const record = db.prepare<[number, string, string, number]>(
    'INSERT INTO schema_migrations (id, name, checksum, applied_at) VALUES (?, ?, ?, ?)',
  );
  const applied: number[] = [];

  for (const migration of list) {
    const checksum = migrationChecksum(migration);
    const apply = db.transaction((): boolean => {
      // Checked again inside the write lock: another process (the CLI next to the app) may have
      // applied it since we read the history.
      const existing = isApplied.get(migration.id);
      if (existing) {
        if (existing.checksum !== checksum) throw editedError(migration, existing.checksum, checksum);
        return false;
      }
      try {
        db.exec(migration.sql);
      } catch (error) {
        throw new MigrationError(
          'MIGRATION_FAILED',
          `Migration ${label(migration)} failed and was rolled back: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      }
      const violations = db.pragma('foreign_key_check');
      if (Array.isArray(violations) && violations.length > 0) {
        throw new MigrationError('MIGRATION_FAILED', `Migration ${label(migration)} left foreign key violations and was rolled back`);
      }
      record.run(migration.id, migration.name, checksum, now());
      return true;
    });
    // IMMEDIATE takes the write lock before the check above, so two processes cannot both apply.
    if (withForeignKeysFor(db, migration, () => apply.immediate())) applied.push(migration.id);
  }

  const last = list.at(-1);
  return { applied, version: last ? last.id : 0 };
}

/**
 * foreign_keys can only change outside a transaction; it is switched back on (when it was on) even if
 * the migration fails, so the connection never goes on without enforcement.
 */
function withForeignKeysFor<T>(db: Database, migration: Migration, run: () => T): T {
  const wasOn = db.pragma('foreign_keys', { simple: true }) === 1;
  if (migration.rebuildsReferencedTables !== true || !wasOn) return run();
  db.pragma('foreign_keys = OFF');
  try {
    return run();
  } finally {
    db.pragma('foreign_keys = ON');
  }
}

function assertWellFormed(list: readonly Migration[]): void {
  list.forEach((migration, index) => {
    if (migration.id !== index + 1) {
      throw new MigrationError(
        'MIGRATIONS_INVALID',
        `Migration ids must be consecutive from 1: position ${index + 1} holds ${label(migration)}`,
      );
    }
  });
}

function verifyHistory(rows: readonly AppliedRow[], list: readonly Migration[]): void {
  const known = list.length;
  const newer = rows.filter((row) => row.id > known);
  if (newer.length > 0) {
    const names = newer.map((row) => `${row.id} "${row.name}"`).join(', ');
    throw new MigrationError(
      'DATABASE_NEWER',
      `This database was upgraded by a newer version of the app (migration ${names} is unknown to this build, which knows 1..${known}); install the newer version instead of opening it with this one`,
    );
  }
  rows.forEach((row, index) => {
    if (row.id !== index + 1) {
      throw new MigrationError('HISTORY_INVALID', `schema_migrations has a gap: expected migration ${index + 1}, found ${row.id}`);
    }
    const migration = list[index];
    if (!migration) return;
    const checksum = migrationChecksum(migration);
    if (row.checksum !== checksum) throw editedError(migration, row.checksum, checksum);
  });
}

function editedError(migration: Migration, recorded: string, current: string): MigrationError {
  return new MigrationError(
    'MIGRATION_EDITED',
    `Migration ${label(migration)} was changed after it had been applied to this database (recorded sha256 ${recorded.slice(0, 12)}…, this build ${current.slice(0, 12)}…); ship schema changes as a new migration instead of editing an applied one`,
  );
}

function label(migration: Migration): string {
  return `${migration.id} "${migration.name}"`;
}
