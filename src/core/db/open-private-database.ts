// A database file of the data folder, private (folder 0700, files 0600 on every start:
// platform/private-files.ts) and migrated. Core's per-profile database and the desk's registry both
// open this way, each with its own list of migrations.
import { dirname } from 'node:path';
import type { Database } from 'better-sqlite3';
import { createPrivateFile, securePrivateFile, securePrivateFolder, sqliteFiles } from '../platform/private-files';
import { migrate } from './migrate';
import type { Migration } from './migration';
import { openDatabase } from './open-database';

export function openPrivateDatabase(databaseFile: string, migrations?: readonly Migration[]): Database {
  securePrivateFolder(dirname(databaseFile));
  createPrivateFile(databaseFile);
  for (const file of sqliteFiles(databaseFile)) securePrivateFile(file);
  const db = openDatabase(databaseFile);
  // WAL mode has just made the -wal and -shm files, if they were not there yet.
  for (const file of sqliteFiles(databaseFile)) securePrivateFile(file);
  try {
    migrate(db, migrations === undefined ? {} : { migrations });
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
