// Opens the app's SQLite file with the settings the money and vault rules depend on, and proves
// they took effect: a PRAGMA that silently fails (a read-only or network file system refusing
// WAL, a build without foreign keys) must stop the app rather than weaken durability unnoticed.
import Database from 'better-sqlite3';
import type { Database as SqliteDatabase } from 'better-sqlite3';

export type { SqliteDatabase };

/** How long a writer waits for another connection (the CLI next to the app) before SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5000;

// `synchronous` is reported as a number: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA.
const SYNCHRONOUS_FULL = 2;

export class DatabaseOpenError extends Error {
  override readonly name = 'DatabaseOpenError';
}

export function openDatabase(file: string): SqliteDatabase {
  const db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
  try {
    // WAL lets readers (search, UI) run while the outbox writes; FULL makes every commit durable
    // across power loss, which the exactly-once order intent and card storage rely on.
    const journalMode = String(db.pragma('journal_mode = WAL', { simple: true })).toLowerCase();
    if (journalMode !== 'wal') {
      throw new DatabaseOpenError(`SQLite refused WAL mode for ${file} (journal_mode is "${journalMode}")`);
    }
    db.pragma('synchronous = FULL');
    expectPragma(db, 'synchronous', SYNCHRONOUS_FULL, file);
    db.pragma('foreign_keys = ON');
    expectPragma(db, 'foreign_keys', 1, file);
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    expectPragma(db, 'busy_timeout', BUSY_TIMEOUT_MS, file);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

function expectPragma(db: SqliteDatabase, name: string, expected: number, file: string): void {
  const actual: unknown = db.pragma(name, { simple: true });
  if (actual !== expected) {
    throw new DatabaseOpenError(`SQLite did not accept PRAGMA ${name} = ${expected} for ${file} (read back ${String(actual)})`);
  }
}
