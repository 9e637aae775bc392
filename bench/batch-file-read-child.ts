// One batch file read the way the CLI reads it (its size first, then readBatchTable: an XLSX in the
// bounded worker), in a process of its own so that its memory is this read's alone. Prints one JSON
// line: the outcome, the process's resident memory when idle (modules loaded) and at its peak
// (sampled every 5 ms while the worker reads, so the worker thread's memory is in it), the time taken.
import { readBoundedFile } from '../src/core/batch/batch-file-open';
import { BatchFileError } from '../src/core/batch/batch-file-error';
import { readBatchTable } from '../src/core/batch/batch-file-read';
import { MAX_BATCH_FILE_BYTES } from '../src/shared/batch-file';

const MIB = 1024 * 1024;

async function main(): Promise<void> {
  const path = process.argv[2] ?? '';
  await new Promise((resolve) => setTimeout(resolve, 300));
  const idle = process.memoryUsage().rss;
  let peak = idle;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const startedAt = performance.now();
  let outcome: string;
  try {
    const bytes = readBoundedFile(path, MAX_BATCH_FILE_BYTES);
    if (bytes === null) outcome = 'tooLarge (refused unread)';
    else outcome = `read: ${(await readBatchTable(bytes)).rows.length} rows`;
  } catch (error) {
    outcome = error instanceof BatchFileError ? error.problem : `failed: ${String(error)}`;
  }
  const ms = performance.now() - startedAt;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(JSON.stringify({ outcome, idleMiB: idle / MIB, peakAboveIdleMiB: (peak - idle) / MIB, ms }));
}

void main();
