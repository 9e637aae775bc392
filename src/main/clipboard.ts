// Copies card codes from main (the renderer never holds them for a copy) and clears the clipboard
// after 30 s, but only if it still holds what we wrote: something the user copied since is theirs.
// Only a SHA-256 digest of the value is kept for that comparison, not the secret itself.
import { createHash } from 'node:crypto';

export const CLIPBOARD_CLEAR_MS = 30_000;

/** The members of Electron's clipboard used here. */
export interface ClipboardLike {
  writeText(text: string): void;
  readText(): string;
  clear(): void;
}

export interface ClipboardWriter {
  /** Writes `text` and schedules the clear (default 30 s); answers the seconds until it. */
  write(text: string, clearAfterMs?: number): { clearsInSeconds: number };
  /** Clears now if the clipboard still holds our last value (on quit). */
  clearIfOurs(): void;
}

const digest = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

export function createClipboardWriter(clipboard: ClipboardLike, defaultClearMs = CLIPBOARD_CLEAR_MS): ClipboardWriter {
  let ours: string | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const clearIfOurs = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (ours !== null && digest(clipboard.readText()) === ours) clipboard.clear();
    ours = null;
  };

  return {
    write(text, clearAfterMs = defaultClearMs) {
      if (timer !== null) clearTimeout(timer);
      clipboard.writeText(text);
      ours = digest(text);
      timer = setTimeout(clearIfOurs, clearAfterMs);
      // A pending clear must not keep the app alive on its own.
      timer.unref();
      return { clearsInSeconds: Math.round(clearAfterMs / 1000) };
    },
    clearIfOurs,
  };
}
