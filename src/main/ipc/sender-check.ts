// Every IPC message checks its sender before it is handled (VS Code's validatedIpcMain): it must come
// from the top frame of the main window's own web contents, showing the app's own page. A subframe,
// another window, a page that navigated away or a frame already gone is refused. The types name only
// the members used, so tests can drive the check with plain objects instead of a real Electron.
import type { AppUrlMatcher } from '../security';

/** The members of Electron's WebFrameMain that the check reads. */
export interface CheckedFrame {
  readonly url: string;
  readonly parent: CheckedFrame | null;
  readonly processId: number;
  readonly routingId: number;
}

/** The members of Electron's WebContents that the check reads. */
export interface CheckedWebContents {
  readonly id: number;
  readonly mainFrame: CheckedFrame;
  isDestroyed(): boolean;
}

/** The members of Electron's IpcMainInvokeEvent that the check reads. */
export interface CheckedIpcEvent {
  readonly sender: CheckedWebContents;
  /** Null once the frame navigated or was destroyed. */
  readonly senderFrame: CheckedFrame | null;
}

export type SenderCheck = (event: CheckedIpcEvent) => boolean;

export interface SenderPolicy {
  /** The main window's web contents, or null while there is no window. */
  trustedContents(): CheckedWebContents | null;
  isAppUrl: AppUrlMatcher;
}

export function createSenderCheck(policy: SenderPolicy): SenderCheck {
  return (event) => {
    const trusted = policy.trustedContents();
    if (trusted === null || trusted.isDestroyed()) return false;
    // Web contents ids are unique for the app's lifetime: a second window has its own.
    if (event.sender.id !== trusted.id) return false;
    const frame = event.senderFrame;
    if (frame === null || frame.parent !== null) return false;
    const top = trusted.mainFrame;
    if (frame.processId !== top.processId || frame.routingId !== top.routingId) return false;
    return policy.isAppUrl(frame.url);
  };
}
