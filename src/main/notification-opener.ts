// A clicked notification opens what it is about (contract §17.4): the window comes up (shown, focused,
// or opened) and the renderer is told where to go with `app.navigate`, sent through the same
// forwarding as core's events (ipc/forward-events.ts). A window still loading gets it once loaded.
import type { EventName } from '../shared/ipc/contract';
import type { AppRoute } from '../shared/ipc/views/navigation';
import type { NotificationView } from '../shared/ipc/views/notifications';
import { notificationRoute } from '../shared/notification-route';

/** The members of the window used here. */
export interface OpenerWindow {
  readonly webContents: { isLoading(): boolean; once(event: 'did-finish-load', listener: () => void): unknown };
}

export interface NotificationOpenerOptions {
  showWindow(): void;
  window(): OpenerWindow | null;
}

export interface NotificationOpener {
  readonly open: (view: NotificationView) => void;
  /** Main's own events for forwardEvents, beside core's. */
  onEvent(listener: (event: EventName, payload: unknown) => void): () => void;
}

export function createNotificationOpener(options: NotificationOpenerOptions): NotificationOpener {
  const listeners = new Set<(event: EventName, payload: unknown) => void>();
  const send = (route: AppRoute): void => {
    for (const listener of listeners) listener('app.navigate', route);
  };
  return {
    open(view) {
      options.showWindow();
      const route = notificationRoute(view);
      if (route === null) return;
      const contents = options.window()?.webContents;
      if (contents?.isLoading() === true) contents.once('did-finish-load', () => send(route));
      else send(route);
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
