// The data folder holds top-up accounts, the callback token and sealed cards (database, and its WAL
// and SHM beside it), and logs that say what the buyer did: readable by this OS user only. Modes are
// set on every start, not only on creation, because a folder made by an older version, by hand, or
// under a loose umask (0755 / 0644) would otherwise stay open to every other user for good.
import { chmodSync, closeSync, lstatSync, mkdirSync, openSync } from 'node:fs';

const PRIVATE_FOLDER_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;

function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}

/** Creates the folder (and parents) if needed and makes it 0700; a symlink is left to its target's owner. */
export function securePrivateFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  if (lstatSync(dir).isDirectory()) chmodSync(dir, PRIVATE_FOLDER_MODE);
}

/** Makes an existing regular file 0600; an absent one is fine (SQLite's WAL and SHM come and go). */
export function securePrivateFile(file: string): void {
  try {
    if (lstatSync(file).isFile()) chmodSync(file, PRIVATE_FILE_MODE);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
}

/**
 * Creates the file empty with 0600 when it does not exist yet, then makes it 0600 either way. SQLite
 * gives a new WAL and SHM the database file's own mode, so a database created this way never has a
 * moment at 0644, nor do its companions.
 */
export function createPrivateFile(file: string): void {
  // 'a': create if absent, never truncate what is there.
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  securePrivateFile(file);
}

/** The database and the files SQLite keeps beside it. */
export function sqliteFiles(databaseFile: string): string[] {
  return [databaseFile, `${databaseFile}-wal`, `${databaseFile}-shm`, `${databaseFile}-journal`];
}
