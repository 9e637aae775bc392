// Desktop notifications for what the app service pushes as `app.notification` (order completed or
// failed, credentials ready, a watched product's price or stock changed, low balance, a merchant's
// after-sales reply). The service pushes facts; they are worded here in the language the buyer
// chose (shared/notification-text.ts), free of secrets. A click brings the window up at what the
// notification is about (shared/notification-route.ts, contract §17.4). Since Electron
// 42, macOS shows notifications through UNNotification only for a signed app; otherwise the
// notification reports `failed`, which is passed on (logged) rather than lost.
import { Notification } from 'electron';
import type { EventName } from '../shared/ipc/contract';
import { notificationSchema, type NotificationView } from '../shared/ipc/views/notifications';
import { notificationText, type NotificationLanguage } from '../shared/notification-text';

export interface NotificationPort {
  isSupported(): boolean;
  show(notification: NotificationView, onClick: () => void, onFailed: (error: Error) => void): void;
}

export const electronNotifications: NotificationPort = {
  isSupported: () => Notification.isSupported(),
  show(view, onClick, onFailed) {
    const notification = new Notification({ title: view.title, body: view.body, silent: view.kind === 'productChanged' });
    notification.on('click', onClick);
    notification.on('failed', (_event, error) => onFailed(new Error(error)));
    notification.show();
  },
};

/** A listener for the app service's events that shows `app.notification` ones in `language()`. */
export function notifyOnAppEvents(
  port: NotificationPort,
  /** The buyer clicked the notification about `view` (the facts as pushed). */
  open: (view: NotificationView) => void,
  language: () => Promise<NotificationLanguage>,
  onError: (error: unknown) => void = () => undefined,
): (event: EventName, payload: unknown) => void {
  return (event, payload) => {
    if (event !== 'app.notification' || !port.isSupported()) return;
    const parsed = notificationSchema.safeParse(payload);
    if (!parsed.success) return;
    const view = parsed.data;
    language()
      .catch(() => 'en' as const)
      .then((lang) => port.show({ ...view, ...notificationText(view, lang) }, () => open(view), onError))
      .catch(onError);
  };
}
