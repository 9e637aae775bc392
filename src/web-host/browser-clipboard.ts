// vault.copy in the web host. The buyer's clipboard is the browser's, not this process's (a headless
// box has none), so the copied value goes to the tab that asked — and only to it — as a clipboard
// frame; the tab writes it with the Clipboard API, clears it after the given time if it still holds
// it, and says whether the write worked. Which tab asked is carried through the call by an
// AsyncLocalStorage, set around each call the socket serves (bridge-socket.ts).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ClipboardAck, ClipboardMessage } from '../shared/ipc/web-socket-protocol';

/** How one tab is reached: sends a clipboard frame (false: the socket refused or was closed). */
export type ClipboardSender = (message: ClipboardMessage) => boolean;

/** How long the tab has to write and answer; the Clipboard API answers in milliseconds. */
const ACK_TIMEOUT_MS = 10_000;

export class BrowserClipboardError extends Error {
  override readonly name = 'BrowserClipboardError';
}

export interface BrowserClipboard {
  /** Runs one call of a tab's socket with that tab as the clipboard's target. */
  runFor<T>(sender: ClipboardSender, call: () => Promise<T>): Promise<T>;
  /** Writes into the calling tab's clipboard; resolves once the tab confirmed. */
  write(text: string, clearAfterMs: number): Promise<void>;
  /** A tab's answer to a clipboard frame. */
  acknowledge(ack: ClipboardAck): void;
}

export function createBrowserClipboard(ackTimeoutMs = ACK_TIMEOUT_MS): BrowserClipboard {
  const caller = new AsyncLocalStorage<ClipboardSender>();
  const waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void; timer: ReturnType<typeof setTimeout> }>();
  let nextId = 1;

  return {
    runFor: (sender, call) => caller.run(sender, call),

    write(text, clearAfterMs) {
      const send = caller.getStore();
      if (send === undefined) return Promise.reject(new BrowserClipboardError('no browser tab asked for this copy'));
      const id = nextId++;
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new BrowserClipboardError('the browser did not confirm the copy in time; use Reveal instead'));
        }, ackTimeoutMs);
        timer.unref();
        waiting.set(id, { resolve, reject, timer });
        if (!send({ clipboard: { id, text, clearAfterMs } })) {
          clearTimeout(timer);
          waiting.delete(id);
          reject(new BrowserClipboardError('the browser tab that asked is gone'));
        }
      });
    },

    acknowledge({ clipboardAck }) {
      const entry = waiting.get(clipboardAck.id);
      if (entry === undefined) return;
      waiting.delete(clipboardAck.id);
      clearTimeout(entry.timer);
      if (clipboardAck.ok) entry.resolve();
      // The browser's own words (permission denied, page not focused) help the buyer more than ours.
      else entry.reject(new BrowserClipboardError(`the browser refused to write the clipboard${clipboardAck.message === undefined ? '' : `: ${clipboardAck.message}`}`));
    },
  };
}
