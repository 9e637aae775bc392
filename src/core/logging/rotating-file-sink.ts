// The log file sink: lines (already redacted by the logger) are collected and written after the
// current turn of the event loop through an open file handle, so logging never waits for the disk on
// the thread that calls it (Electron main's UI thread included). The file is rotated by size: at
// `maxBytes` it becomes `<path>.1`, the older ones move up, and only `keep` of them stay. Lines are
// written in the order given; a line is never split across two files.
// What is not written yet is lost if the process is killed; close() writes it on a normal exit.
import { open, rename, type FileHandle } from 'node:fs/promises';
import type { LogSink } from './redacting-logger';

export interface RotatingFileSinkOptions {
  readonly path: string;
  /** The size at which the file is rotated; default 5 MiB. */
  readonly maxBytes?: number;
  /** How many rotated files are kept (`<path>.1` … `<path>.<keep>`); default 3. */
  readonly keep?: number;
  /**
   * Lines waiting beyond this many bytes (the disk is slower than the logging) are dropped and
   * counted in a line of their own; default 4 MiB.
   */
  readonly maxPendingBytes?: number;
  /** Told once per failure to write (disk full, folder removed); the lines of that write are lost. */
  readonly onError?: (error: unknown) => void;
}

export interface RotatingFileSink {
  readonly sink: LogSink;
  /** Resolves once every line given so far is in the file. */
  flush(): Promise<void>;
  /** Writes what is pending and closes the file; later lines are ignored. */
  close(): Promise<void>;
}

const MIB = 1024 * 1024;

export function createRotatingFileSink(options: RotatingFileSinkOptions): RotatingFileSink {
  const maxBytes = options.maxBytes ?? 5 * MIB;
  const keep = Math.max(1, options.keep ?? 3);
  const maxPendingBytes = options.maxPendingBytes ?? 4 * MIB;
  let pending: string[] = [];
  let pendingBytes = 0;
  let dropped = 0;
  let scheduled = false;
  let closed = false;
  let handle: FileHandle | null = null;
  let size = 0;
  // Every write goes through this chain: one at a time, in order.
  let chain: Promise<void> = Promise.resolve();

  const openFile = async (): Promise<FileHandle> => {
    if (handle !== null) return handle;
    const opened = await open(options.path, 'a', 0o600);
    size = (await opened.stat()).size;
    handle = opened;
    return opened;
  };

  const rotate = async (): Promise<void> => {
    await handle?.close();
    handle = null;
    for (let index = keep - 1; index >= 1; index--) await renameIfPresent(`${options.path}.${index}`, `${options.path}.${index + 1}`);
    await renameIfPresent(options.path, `${options.path}.1`);
  };

  const writeOut = async (): Promise<void> => {
    const lines = pending;
    pending = [];
    pendingBytes = 0;
    if (lines.length === 0 && dropped === 0) return;
    if (dropped > 0) {
      // After the lines that were waiting: the dropped ones came after them.
      lines.push(`${JSON.stringify({ time: new Date().toISOString(), level: 'warn', msg: 'log lines dropped: the disk was slower than the logging', fields: { dropped } })}\n`);
      dropped = 0;
    }
    let batch: string[] = [];
    let file = await openFile();
    for (const line of lines) {
      const bytes = Buffer.byteLength(line);
      if (size > 0 && size + bytes > maxBytes) {
        if (batch.length > 0) await file.write(batch.join(''));
        batch = [];
        await rotate();
        file = await openFile();
      }
      batch.push(line);
      size += bytes;
    }
    if (batch.length > 0) await file.write(batch.join(''));
  };

  const kick = (): Promise<void> => {
    scheduled = false;
    chain = chain.then(writeOut).catch((error: unknown) => {
      // The handle may be broken (the folder was removed): open it again next time.
      const broken = handle;
      handle = null;
      void broken?.close().catch(() => undefined);
      options.onError?.(error);
    });
    return chain;
  };

  return {
    sink(line) {
      if (closed) return;
      const text = `${line}\n`;
      const bytes = Buffer.byteLength(text);
      if (pendingBytes + bytes > maxPendingBytes) {
        dropped++;
        return;
      }
      pending.push(text);
      pendingBytes += bytes;
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => void kick());
      }
    },
    flush: () => kick(),
    async close() {
      if (closed) return chain;
      closed = true;
      await kick();
      await handle?.close();
      handle = null;
    },
  };
}

async function renameIfPresent(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'ENOENT')) throw error;
  }
}
