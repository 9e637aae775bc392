// A batch file from disk (the CLI's `batch FILE`, the bench), never read whole when it is over the
// bound: its size is asked first (fstat of the opened file), and at most one byte past the bound is
// read, so a file that grows meanwhile is refused too (contract §13.1).
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** The file's bytes, or null when it holds more than `maxBytes`; fs errors (missing, a folder) are thrown. */
export function readBoundedFile(path: string, maxBytes: number): Uint8Array | null {
  const fd = openSync(path, 'r');
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error('not a file');
    if (stat.size > maxBytes) return null;
    const bytes = new Uint8Array(maxBytes + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length <= maxBytes; length += read) read = readSync(fd, bytes, length, bytes.length - length, null);
    return length > maxBytes ? null : bytes.slice(0, length);
  } finally {
    closeSync(fd);
  }
}
