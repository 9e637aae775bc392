// What closing the main window does (contract §17.1): on Windows and Linux it hides to the tray while
// "close to tray" is on (the default) and core goes on working: webhooks, queued orders, watched
// prices; with the setting off, closing is quitting (and asks like any quit). macOS keeps its own way:
// closing hides the window, the app stays in the Dock. Once the buyer's quit is allowed, it closes.
// The first hide says once, in the app's language, that the app is still running (a marker file).
import { existsSync, writeFileSync } from 'node:fs';

export type CloseAction = 'hide' | 'quit' | 'close';

export function closeAction(options: { platform: NodeJS.Platform; quitting: boolean; closeToTray: boolean }): CloseAction {
  if (options.quitting) return 'close';
  if (options.platform === 'darwin' || options.closeToTray) return 'hide';
  return 'quit';
}

export interface HideNoticeOptions {
  /** Present once it was shown: the notice never comes back, whatever the language. */
  markerFile: string;
  show(): void;
}

/** Shows the "still running" notice the first time the window hides to the tray; answers whether it did. */
export function createHideNotice(options: HideNoticeOptions): () => boolean {
  return () => {
    if (existsSync(options.markerFile)) return false;
    options.show();
    try {
      writeFileSync(options.markerFile, 'shown\n', { mode: 0o600 });
    } catch (error) {
      console.warn('Procure Desk: the tray notice could not be marked as shown', error instanceof Error ? error.message : 'unknown');
    }
    return true;
  };
}
