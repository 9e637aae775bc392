// Copies card codes from main (the renderer never holds them for a copy) and clears the clipboard
// after 30 s, but only if it still holds what we wrote: something the user copied since is theirs.
// Only a SHA-256 digest of the value is kept for that comparison, not the secret itself.
// Since Electron 45 the clipboard's readText/writeText answer promises (aligned with the W3C
// Clipboard API), so a write and the check before a clear are awaited.
import { createHash } from 'node:crypto';

export const CLIPBOARD_CLEAR_MS = 30_000;

/** The members of Electron's clipboard used here. */
export interface ClipboardLike {
  writeText(text: string): Promise<void>;
  readText(): Promise<string>;
  clear(): void;
}

export interface ClipboardWriter {
  /** Writes `text` and schedules the clear (default 30 s); answers the seconds until it. */
  write(text: string, clearAfterMs?: number): Promise<{ clearsInSeconds: number }>;
  /** Clears now if the clipboard still holds our last value (on quit). */
  clearIfOurs(): Promise<void>;
}

const digest = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

export function createClipboardWriter(clipboard: ClipboardLike, defaultClearMs = CLIPBOARD_CLEAR_MS): ClipboardWriter {
  let ours: string | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const clearIfOurs = async (): Promise<void> => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const expected = ours;
    ours = null;
    if (expected === null) return;
    // Read after forgetting: a copy made while the read is pending sets `ours` anew and keeps its value.
    if (digest(await clipboard.readText()) === expected && ours === null) clipboard.clear();
  };

  return {
    async write(text, clearAfterMs = defaultClearMs) {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      await clipboard.writeText(text);
      ours = digest(text);
      timer = setTimeout(() => {
        // A failed read leaves the value; nothing else can be done about it from a timer.
        clearIfOurs().catch(() => undefined);
      }, clearAfterMs);
      // A pending clear must not keep the app alive on its own.
      timer.unref();
      return { clearsInSeconds: Math.round(clearAfterMs / 1000) };
    },
    clearIfOurs,
  };
}
