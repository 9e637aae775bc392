// Pushes the app service's events to the main window. Only the payload crosses, on the event's own
// wire name; the preload hands it to listeners without Electron's IPC event object. A window that
// is gone or not yet created simply misses the event: its queries refetch when it opens.
import { EVENTS, type EventName } from '../../shared/ipc/contract';
import { ipcEventName } from '../../shared/ipc/ipc-names';

/** The members of Electron's WebContents used here. */
export interface EventTarget {
  isDestroyed(): boolean;
  send(channel: string, payload: unknown): void;
}

export type EventSource = (listener: (event: EventName, payload: unknown) => void) => () => void;

export interface ForwardOptions {
  onEvent: EventSource;
  target(): EventTarget | null;
  onProblem?: (problem: { event: EventName; error: unknown }) => void;
}

/** Starts forwarding; returns the unsubscribe function. */
export function forwardEvents(options: ForwardOptions): () => void {
  return options.onEvent((event, payload) => {
    // Checked here too, so a bug in main never sends the renderer something off-contract.
    const checked = EVENTS[event].safeParse(payload);
    if (!checked.success) {
      options.onProblem?.({ event, error: checked.error });
      return;
    }
    const target = options.target();
    if (target === null || target.isDestroyed()) return;
    try {
      target.send(ipcEventName(event), checked.data);
    } catch (error) {
      options.onProblem?.({ event, error });
    }
  });
}
