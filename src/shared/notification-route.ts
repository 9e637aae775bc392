// What a clicked desktop notification opens (contract §17.4): the order it is about, the vault at that
// order's cards, the product whose price or stock changed (with its merchant: product numbers are per
// merchant), the case the merchant answered, the dashboard for a low balance. Null: nothing to open
// but the window. Checked against the route's own schema, so a malformed fact opens nothing wrong.
import type { NotificationView } from './ipc/views/notifications';
import { appRouteSchema, type AppRoute } from './ipc/views/navigation';

function candidate(view: NotificationView): unknown {
  const profileId = view.merchant?.profileId;
  switch (view.kind) {
    case 'orderCompleted':
    case 'orderFailed':
      return view.clientOrderRef === undefined ? null : { to: 'order', clientOrderRef: view.clientOrderRef };
    case 'credentialsReady':
      return view.clientOrderRef === undefined ? null : { to: 'vault', clientOrderRef: view.clientOrderRef };
    case 'productChanged':
      return view.productRef === undefined
        ? null
        : { to: 'product', productRef: view.productRef, ...(profileId === undefined ? {} : { profileId }), ...(typeof view.productName === 'string' ? { productName: view.productName.slice(0, 500) } : {}) };
    case 'aftersaleReply':
      return view.platformCaseRef === undefined ? null : { to: 'case', platformCaseRef: view.platformCaseRef, ...(profileId === undefined ? {} : { profileId }) };
    case 'lowBalance':
      return { to: 'dashboard' };
  }
}

export function notificationRoute(view: NotificationView): AppRoute | null {
  const parsed = appRouteSchema.safeParse(candidate(view));
  return parsed.success ? parsed.data : null;
}
