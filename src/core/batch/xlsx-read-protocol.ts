// What the XLSX reader's worker answers (xlsx-read-worker.ts → xlsx-read-isolated.ts): the rows, the
// file's refusal with its problem code, or a failure of the reader itself (a bug, never the file's).
import { BATCH_FILE_PROBLEMS, type BatchFileProblem } from '../../shared/batch-file';
import type { XlsxRow } from './xlsx-stream-read';

export type WorkerAnswer =
  | { readonly kind: 'rows'; readonly rows: XlsxRow[] }
  | { readonly kind: 'refused'; readonly problem: BatchFileProblem; readonly message: string }
  | { readonly kind: 'failed'; readonly message: string };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

const isRow = (value: unknown): value is XlsxRow =>
  isRecord(value) && typeof value['rowNumber'] === 'number' && Array.isArray(value['cells']) && value['cells'].every((cell) => typeof cell === 'string');

const isProblem = (value: unknown): value is BatchFileProblem => BATCH_FILE_PROBLEMS.some((problem) => problem === value);

/** The worker's message checked for shape (a message that is none of these is a failure). */
export function workerAnswerOf(message: unknown): WorkerAnswer {
  if (isRecord(message)) {
    const { kind } = message;
    if (kind === 'rows' && Array.isArray(message['rows']) && message['rows'].every(isRow)) return { kind, rows: message['rows'] };
    if (kind === 'refused' && isProblem(message['problem']) && typeof message['message'] === 'string') return { kind, problem: message['problem'], message: message['message'] };
    if (kind === 'failed' && typeof message['message'] === 'string') return { kind, message: message['message'] };
  }
  return { kind: 'failed', message: 'the reader answered something else than rows or a refusal' };
}
