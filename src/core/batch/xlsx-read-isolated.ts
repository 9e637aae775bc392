// Reads an XLSX in a worker thread the app survives (contract §13.1): its heap is capped
// (resourceLimits) and it has BATCH_READ_TIME_LIMIT_MS, so a file that gets past every count in the
// reader still costs at most that, and the buyer is told which limit it hit. Two reads at a time at
// most, so a buyer pressing "preview" on a hostile file again and again cannot stack up workers.
// The worker's entry lies beside this module with its extension: .ts under tsx and vitest (loaded with
// tsx's loader), .js in the app's build (out/main/), .mjs beside the tests' CLI bundle.
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { BATCH_READ_MEMORY_MB, BATCH_READ_TIME_LIMIT_MS } from '../../shared/batch-file-bounds';
import { BatchFileError } from './batch-file-error';
import { workerAnswerOf } from './xlsx-read-protocol';
import type { XlsxRow } from './xlsx-stream-read';

/** The worker entry's name without its extension (electron.vite.config.ts and the CLI bundle emit it). */
export const XLSX_READ_WORKER = 'xlsx-read-worker';

export interface ReadLimits {
  readonly timeMs: number;
  readonly memoryMb: number;
}

const LIMITS: ReadLimits = { timeMs: BATCH_READ_TIME_LIMIT_MS, memoryMb: BATCH_READ_MEMORY_MB };
const MAX_AT_ONCE = 2;

let running = 0;
const queue: (() => void)[] = [];

async function turn(): Promise<() => void> {
  if (running >= MAX_AT_ONCE) await new Promise<void>((resolve) => queue.push(resolve));
  running += 1;
  return () => {
    running -= 1;
    queue.shift()?.();
  };
}

function workerEntry(): { file: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  const extension = extname(here);
  const file = join(dirname(here), `${XLSX_READ_WORKER}${extension}`);
  return { file, execArgv: extension === '.ts' ? ['--import', import.meta.resolve('tsx')] : [] };
}

function runWorker(bytes: Uint8Array, limits: ReadLimits): Promise<XlsxRow[]> {
  const { file, execArgv } = workerEntry();
  return new Promise((resolve, reject) => {
    const worker = new Worker(file, {
      workerData: bytes,
      execArgv,
      env: {},
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    });
    let settled = false;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
      void worker.terminate();
    };
    const timer = setTimeout(() => {
      settle(() => reject(new BatchFileError('readTimeout', `reading the XLSX took more than ${limits.timeMs / 1000} s: stopped`)));
    }, limits.timeMs);
    worker.once('message', (message: unknown) => {
      const answer = workerAnswerOf(message);
      settle(() => {
        if (answer.kind === 'rows') resolve(answer.rows);
        else if (answer.kind === 'refused') reject(new BatchFileError(answer.problem, answer.message));
        else reject(new Error(`the XLSX reader failed: ${answer.message}`));
      });
    });
    worker.once('error', (error: Error & { code?: string }) => {
      settle(() => {
        if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') reject(new BatchFileError('readOutOfMemory', `reading the XLSX needed more than ${limits.memoryMb} MiB of memory: stopped`));
        else reject(new Error(`the XLSX reader failed: ${error.message}`));
      });
    });
    worker.once('exit', (code) => settle(() => reject(new Error(`the XLSX reader stopped (exit ${code}) without an answer`))));
  });
}

/** The first sheet's rows (xlsx-stream-read.ts), read in a bounded worker; throws BatchFileError. */
export async function readXlsxIsolated(bytes: Uint8Array, limits: ReadLimits = LIMITS): Promise<XlsxRow[]> {
  const done = await turn();
  try {
    return await runWorker(bytes, limits);
  } finally {
    done();
  }
}
