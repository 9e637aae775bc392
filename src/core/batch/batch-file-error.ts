// A batch file that cannot be read as a table: the problem as a code (each side words it) and a plain
// English message for the CLI and the log. Nothing was written when it is thrown.
import type { BatchFileProblem } from '../../shared/batch-file';

export class BatchFileError extends Error {
  override readonly name = 'BatchFileError';
  constructor(
    readonly problem: BatchFileProblem,
    message: string,
  ) {
    super(message);
  }
}
