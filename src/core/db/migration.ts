// The shape of one schema migration and the checksum that pins its SQL once applied.
import { createHash } from 'node:crypto';

export interface Migration {
  /** 1, 2, 3 … with no gaps: the order of application. */
  readonly id: number;
  readonly name: string;
  readonly sql: string;
  /**
   * Runs with foreign key enforcement switched off for the connection (SQLite's documented
   * procedure for a table rebuild: a referenced table cannot be dropped and recreated otherwise).
   * PRAGMA foreign_key_check still runs inside the transaction, so a migration that leaves a dangling
   * reference is rolled back. Not part of the checksum: it changes how, not what.
   */
  readonly rebuildsReferencedTables?: true;
}

/** sha256 of the SQL text exactly as shipped: any edit, even whitespace, is an edit. */
export function migrationChecksum(migration: Migration): string {
  return createHash('sha256').update(migration.sql, 'utf8').digest('hex');
}
