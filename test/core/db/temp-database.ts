// A database file on disk in a fresh temporary folder, removed afterwards: the tests exercise
// the real WAL and fsync settings, which an in-memory database would silently skip.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import { openDatabase } from '../../../src/core/db/open-database';
import { migrate } from '../../../src/core/db/migrate';
import type { Migration } from '../../../src/core/db/migration';

export interface TempDatabase {
  readonly dir: string;
  readonly file: string;
  readonly db: Database;
  /** Closes the connection and deletes the folder. */
  readonly dispose: () => void;
}

export function createTempDatabase(): TempDatabase {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'procure-db-'));
  const file = path.join(dir, 'procure.sqlite');
  const db = openDatabase(file);
  return {
    dir,
    file,
    db,
    dispose: () => {
      if (db.open) db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A temporary database with the given migrations applied (all shipped ones by default). */
export function createMigratedDatabase(migrations?: readonly Migration[]): TempDatabase {
  const temp = createTempDatabase();
  migrate(temp.db, migrations ? { migrations, now: () => 1_790_000_000 } : { now: () => 1_790_000_000 });
  return temp;
}

export function tableColumns(db: Database, table: string): string[] {
  return db
    .prepare<[string], { name: string }>('SELECT name FROM pragma_table_info(?) ORDER BY cid')
    .all(table)
    .map((row) => row.name);
}

export function tableNames(db: Database): string[] {
  return db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all()
    .map((row) => row.name);
}
