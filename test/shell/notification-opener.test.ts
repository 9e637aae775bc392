// A clicked desktop notification opens what it is about (contract §17.4): main brings the window up and
// sends the renderer `app.navigate` through the same forwarding as core's events, once the window has
// loaded; each kind of notification has its route (an order, its cards, a product of its merchant, a
// case, the dashboard); the renderer's stores then open it.
import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({ Notification: { isSupported: () => true } }));

import { forwardEvents } from '../../src/main/ipc/forward-events';
import { createNotificationOpener } from '../../src/main/notification-opener';
import { notifyOnAppEvents, type NotificationPort } from '../../src/main/notifications';
import { ipcEventName } from '../../src/shared/ipc/ipc-names';
import type { NotificationView } from '../../src/shared/ipc/views/notifications';
import { notificationRoute } from '../../src/shared/notification-route';
import { goTo } from '../../src/renderer/src/lib/app-route';
import { useUiStore } from '../../src/renderer/src/state/ui-store';
import { useAftersaleStore } from '../../src/renderer/src/state/aftersale-store';

const completed: NotificationView = { kind: 'orderCompleted', title: 'Order completed', body: 'x', clientOrderRef: 'PD_order_7', platformOrderRef: '2026112800000007', productName: '视频会员' };

describe('a clicked notification', () => {
  it('brings the window up and sends the renderer to the order it is about, through the event forwarding, once the window has loaded', async () => {
    const sent: { channel: string; payload: unknown }[] = [];
    let loading = true;
    const loaded: (() => void)[] = [];
    const contents = {
      isDestroyed: () => false,
      send: (channel: string, payload: unknown) => sent.push({ channel, payload }),
      isLoading: () => loading,
      once: (_event: 'did-finish-load', listener: () => void) => loaded.push(listener),
    };
    const showWindow = vi.fn();
    const opener = createNotificationOpener({ showWindow, window: () => ({ webContents: contents }) });
    forwardEvents({ onEvent: (listener) => opener.onEvent(listener), target: () => contents });
    const show = vi.fn<NotificationPort['show']>();
    const listener = notifyOnAppEvents({ isSupported: () => true, show }, opener.open, () => Promise.resolve('en'));

    listener('app.notification', completed);
    await vi.waitFor(() => expect(show).toHaveBeenCalledTimes(1));
    const click = show.mock.calls[0]?.[1];
    if (click === undefined) throw new Error('no click handler');
    // Started hidden at login, the window is still loading: the route waits for it.
    click();
    expect(showWindow).toHaveBeenCalledTimes(1);
    expect(sent).toEqual([]);
    loading = false;
    loaded.forEach((listener) => listener());
    expect(sent).toEqual([{ channel: ipcEventName('app.navigate'), payload: { to: 'order', clientOrderRef: 'PD_order_7' } }]);
    click();
    expect(sent).toHaveLength(2);
    expect(showWindow).toHaveBeenCalledTimes(2);
  });

  it('has a route for every kind it can open, and none where a fact is missing or malformed', () => {
    const merchant = { profileId: 'p2', name: 'B', nameSource: 'buyer' as const };
    expect(notificationRoute({ ...completed, kind: 'orderFailed' })).toEqual({ to: 'order', clientOrderRef: 'PD_order_7' });
    expect(notificationRoute({ ...completed, kind: 'credentialsReady', cards: 2 })).toEqual({ to: 'vault', clientOrderRef: 'PD_order_7' });
    expect(notificationRoute({ kind: 'productChanged', title: '', body: '', productRef: 1001, productName: '视频会员', merchant })).toEqual({ to: 'product', productRef: 1001, profileId: 'p2', productName: '视频会员' });
    expect(notificationRoute({ kind: 'aftersaleReply', title: '', body: '', platformCaseRef: 'AS2026', merchant })).toEqual({ to: 'case', platformCaseRef: 'AS2026', profileId: 'p2' });
    expect(notificationRoute({ kind: 'lowBalance', title: '', body: '', balanceFen: 100 })).toEqual({ to: 'dashboard' });
    expect(notificationRoute({ kind: 'orderCompleted', title: '', body: '' })).toBeNull();
    expect(notificationRoute({ ...completed, clientOrderRef: '../etc/passwd' })).toBeNull();
  });

  it('is opened by the renderer’s stores as the buyer’s own click would', () => {
    useUiStore.setState({ page: 'settings', productRef: 5, orderRef: null, vaultOrderRef: null });
    goTo({ to: 'order', clientOrderRef: 'PD_order_7' }, 'p1');
    expect(useUiStore.getState()).toMatchObject({ orderRef: 'PD_order_7', productRef: null });
    goTo({ to: 'vault', clientOrderRef: 'PD_order_7' }, 'p1');
    expect(useUiStore.getState()).toMatchObject({ page: 'vault', vaultOrderRef: 'PD_order_7', orderRef: null });
    goTo({ to: 'product', productRef: 1001, profileId: 'p1' }, 'p1');
    expect(useUiStore.getState().productRef).toBe(1001);
    // Another merchant's product number would name another product here: looked up by name instead.
    goTo({ to: 'product', productRef: 1001, profileId: 'p2', productName: '视频会员' }, 'p1');
    expect(useUiStore.getState()).toMatchObject({ page: 'compare', compareText: '视频会员', productRef: null });
    goTo({ to: 'case', platformCaseRef: 'AS2026' }, 'p1');
    expect(useUiStore.getState().page).toBe('aftersales');
    expect(useAftersaleStore.getState().caseRef).toBe('AS2026');
    goTo({ to: 'dashboard' }, 'p1');
    expect(useUiStore.getState().page).toBe('dashboard');
  });
});
