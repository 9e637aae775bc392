// Where the web host stages exports. A browser tab cannot be handed a native save dialog from this
// process (and a headless box has no screen), so an export is written into one folder the operator
// chose (`--exports DIR`, default `<data dir>/exports`), private to this user (0700), each in a folder
// of its own, and handed to the browser as a download, after which it is deleted (export-downloads.ts).
import { chmodSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Creates the folder if needed; a folder this call created gets 0700 whatever the umask says. */
export function openExportFolder(dir: string): string {
  const absolute = resolve(dir);
  const created = mkdirSync(absolute, { recursive: true, mode: 0o700 });
  if (created !== undefined) chmodSync(absolute, 0o700);
  return absolute;
}

/** What core's atomic write names its temporary file (`.<target>.<12 hex>.partial`, atomic-file-write.ts). */
const PARTIAL_FILE = /^\..+\.[0-9a-f]{12}\.partial$/;

/**
 * Removes the temporary files of exports a core process did not finish (it was killed while writing:
 * a CSV's would hold card codes in plain text). Only when no export can be running: at start-up, and
 * while the core process is being restarted. Answers the names removed.
 */
export function removeUnfinishedExports(dir: string): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(dir)) {
    if (!PARTIAL_FILE.test(name)) continue;
    rmSync(join(dir, name), { force: true });
    removed.push(name);
  }
  return removed;
}
