// The shape of one schema migration and the checksum that pins its SQL once applied.
import { createHash } from 'node:crypto';

export interface Migration {
  /** 1, 2, 3 … with no gaps: the order of application. */
  readonly id: number;
  readonly name: string;
  readonly sql: string;
}

/** sha256 of the SQL text exactly as shipped: any edit, even whitespace, is an edit. */
export function migrationChecksum(migration: Migration): string {
  return createHash('sha256').update(migration.sql, 'utf8').digest('hex');
}
