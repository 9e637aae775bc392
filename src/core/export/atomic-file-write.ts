// Writes an export so that the target path holds either nothing (or what was there before) or the
// whole file, never a part: the bytes go to a temporary file in the SAME directory (a rename is only
// atomic within one file system, and a copy left in os.tmpdir() would be a plain copy of card codes
// outside the place the buyer chose), created exclusively with mode 0600, fsynced, then renamed over
// the target and the directory fsynced so the rename survives a crash. A failure at any step removes
// the temporary file.
//
// The rename is a separate, synchronous step (StagedFile.commit) so that the export can run it
// inside the database transaction that marks the cards exported and writes the audit row: the file
// appears if and only if the audit says it was written.
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface StagedFile {
  /** The temporary file next to the target (for tests and error messages). */
  readonly temporaryPath: string;
  readonly targetPath: string;
  /** Renames the temporary file over the target and fsyncs the directory. Synchronous on purpose. */
  commit(): void;
  /** Removes the temporary file (idempotent; after commit, removes nothing). */
  discard(): Promise<void>;
  /** Removes the committed target again (a transaction that failed after the rename). */
  retract(): void;
}

/** Temporary files are hidden and say what they are, so a crash leftover is recognisable. */
export function temporaryNameFor(targetPath: string): string {
  return join(dirname(targetPath), `.${basename(targetPath)}.${randomBytes(6).toString('hex')}.partial`);
}

function fsyncDirectory(directory: string): void {
  let fd: number | null = null;
  try {
    fd = openSync(directory, 'r');
    fsyncSync(fd);
  } catch {
    // Windows cannot open or fsync a directory; the rename is as durable as that platform allows.
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** Writes `data` to a temporary file beside `targetPath` (0600, fsynced); nothing is at the target yet. */
export async function stageFile(targetPath: string, data: Uint8Array): Promise<StagedFile> {
  const temporaryPath = temporaryNameFor(targetPath);
  try {
    // 'wx': never follows or reuses a file someone planted under that name.
    const handle = await open(temporaryPath, 'wx', 0o600);
    try {
      await handle.writeFile(data);
      // The umask may have cut the mode at creation; 0600 whatever it says.
      await handle.chmod(0o600);
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    await rm(temporaryPath, { force: true });
    throw error;
  }
  let committed = false;
  return {
    temporaryPath,
    targetPath,
    commit() {
      try {
        renameSync(temporaryPath, targetPath);
      } catch (error) {
        rmSync(temporaryPath, { force: true });
        throw error;
      }
      committed = true;
      fsyncDirectory(dirname(targetPath));
    },
    async discard() {
      if (!committed) await rm(temporaryPath, { force: true });
    },
    retract() {
      if (committed) rmSync(targetPath, { force: true });
    },
  };
}
