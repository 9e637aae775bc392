// Typed refusals of the migrator, so the shell can tell "newer database" (offer to update the
// app) from "edited migration" (a build defect) without parsing messages.
export type MigrationErrorCode =
  /** The build's own list is malformed (ids not 1..n). A programming error. */
  | 'MIGRATIONS_INVALID'
  /** The database records a migration id this build does not know: written by a newer app. */
  | 'DATABASE_NEWER'
  /** An applied migration's SQL differs from this build's file. */
  | 'MIGRATION_EDITED'
  /** schema_migrations itself is inconsistent (a gap in the ids). */
  | 'HISTORY_INVALID'
  /** A migration's SQL failed; its transaction was rolled back. */
  | 'MIGRATION_FAILED';

export class MigrationError extends Error {
  override readonly name = 'MigrationError';

  constructor(
    readonly code: MigrationErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
