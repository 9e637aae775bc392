// The entry of the XLSX reader's worker thread (started by xlsx-read-isolated.ts, which finds this
// file beside itself: the source under tsx, out/main/xlsx-read-worker.js in the app's build, beside the
// CLI bundle in tests). It reads the bytes it was given and posts one answer: rows, or the refusal.
import { parentPort, workerData } from 'node:worker_threads';
import { BatchFileError } from './batch-file-error';
import { readXlsxRows } from './xlsx-stream-read';
import type { WorkerAnswer } from './xlsx-read-protocol';

function answer(): WorkerAnswer {
  if (!(workerData instanceof Uint8Array)) return { kind: 'failed', message: 'the reader was given no bytes' };
  try {
    return { kind: 'rows', rows: readXlsxRows(workerData) };
  } catch (error) {
    if (error instanceof BatchFileError) return { kind: 'refused', problem: error.problem, message: error.message };
    return { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
}

parentPort?.postMessage(answer());
