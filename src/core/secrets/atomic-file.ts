// Replaces a file so that a crash leaves either the old or the new content, never a mix: write a
// temporary file next to it, fsync, rename over the target, fsync the directory.
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export async function writeFileAtomic(filePath: string, data: string, mode = 0o600): Promise<void> {
  const directory = dirname(filePath);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const temporary = join(directory, `.${basename(filePath)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    // `wx` refuses to follow a planted file or link; the mode is set again in case the umask cut it.
    const handle = await open(temporary, 'wx', mode);
    try {
      await handle.writeFile(data, 'utf8');
      await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, filePath);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncDirectory(directory);
}

/** Makes the rename itself durable on POSIX; not possible on Windows, where it is skipped. */
async function syncDirectory(directory: string): Promise<void> {
  let handle;
  try {
    handle = await open(directory, 'r');
    await handle.sync();
  } catch {
    // EISDIR / EPERM on platforms that cannot fsync a directory.
  } finally {
    await handle?.close();
  }
}
