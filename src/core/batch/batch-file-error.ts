// A batch file that cannot be read as a table: the problem as a code (each side words it), a plain
// English message for the CLI and the log, and the facts the words need (invalid bytes: where, how
// many rows). Nothing was written when it is thrown.
import type { BatchFileProblem } from '../../shared/batch-file';

export type BatchFileDetail = Readonly<Record<string, string | number | boolean>>;

export class BatchFileError extends Error {
  override readonly name = 'BatchFileError';
  constructor(
    readonly problem: BatchFileProblem,
    message: string,
    readonly detail: BatchFileDetail = {},
  ) {
    super(message);
  }
}
