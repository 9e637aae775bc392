import { describe, expect, it, vi } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';

vi.mock('electron', () => ({ Menu: { setApplicationMenu: vi.fn(), buildFromTemplate: vi.fn() }, Notification: { isSupported: () => true } }));

import { labelsFor, pickLanguage } from '../../src/main/app-locale';
import { appMenuTemplate } from '../../src/main/app-menu';
import { notifyOnAppEvents, type NotificationPort } from '../../src/main/notifications';

function roles(template: MenuItemConstructorOptions[]): string[] {
  return template.flatMap((item) => [...(item.role === undefined ? [] : [item.role]), ...(Array.isArray(item.submenu) ? roles(item.submenu) : [])]);
}

describe('app menu', () => {
  it('carries the usual shortcuts through roles on every platform', () => {
    for (const platform of ['win32', 'linux', 'darwin'] as const) {
      const template = appMenuTemplate({ platform, labels: labelsFor('en'), isPackaged: true });
      expect(roles(template)).toEqual(expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll', 'close', 'quit', 'reload', 'zoomIn', 'zoomOut', 'resetZoom', 'togglefullscreen', 'minimize']));
      expect(roles(template)).not.toContain('toggleDevTools');
    }
    expect(roles(appMenuTemplate({ platform: 'linux', labels: labelsFor('en'), isPackaged: false }))).toContain('toggleDevTools');
    expect(appMenuTemplate({ platform: 'darwin', labels: labelsFor('en'), isPackaged: true })[0]?.label).toBe('Procure Desk');
  });

  it('is labelled in Chinese when the system prefers Chinese', () => {
    expect(pickLanguage(['zh-Hans-CN', 'en-US'])).toBe('zh-CN');
    expect(pickLanguage(['en-GB', 'zh-CN'])).toBe('en');
    expect(pickLanguage([])).toBe('en');
    const zh = appMenuTemplate({ platform: 'win32', labels: labelsFor('zh-CN'), isPackaged: true });
    expect(zh.map((item) => item.label)).toEqual(['文件', '编辑', '视图', '窗口', '帮助']);
  });

  it('offers the weaker-storage choice only when asked, as a checkbox', () => {
    const onToggle = vi.fn();
    const template = appMenuTemplate({ platform: 'linux', labels: labelsFor('en'), isPackaged: true, weakStorage: { checked: false, onToggle } });
    const file = template[0]?.submenu as MenuItemConstructorOptions[];
    expect(file[0]).toMatchObject({ type: 'checkbox', checked: false, label: labelsFor('en').weakStorage });
    const without = appMenuTemplate({ platform: 'linux', labels: labelsFor('en'), isPackaged: true });
    expect((without[0]?.submenu as MenuItemConstructorOptions[]).some((item) => item.type === 'checkbox')).toBe(false);
  });
});

describe('desktop notifications', () => {
  it('shows app.notification events and nothing else, worded in the buyer’s language', async () => {
    const show = vi.fn();
    const port: NotificationPort = { isSupported: () => true, show };
    const showWindow = vi.fn();
    let language: 'zh-CN' | 'en' = 'zh-CN';
    const failures: unknown[] = [];
    const listener = notifyOnAppEvents(port, showWindow, () => Promise.resolve(language), (error) => failures.push(error));
    listener('orders.changed', { clientOrderRefs: ['PD_1'] });
    const facts = { kind: 'credentialsReady', title: 'Card codes received', body: '2 cards of order 2026112400000001 (视频会员) are in the vault.', productName: '视频会员', platformOrderRef: '2026112400000001', cards: 2, clientOrderRef: 'PD_1' };
    listener('app.notification', facts);
    listener('app.notification', { kind: 'unknownKind', title: 'x', body: 'y' });
    await vi.waitFor(() => expect(show).toHaveBeenCalledTimes(1));
    expect(show.mock.calls[0]?.[0]).toMatchObject({ kind: 'credentialsReady', title: '卡密已到账', body: '订单 2026112400000001（视频会员）的 2 张卡密已存入保险箱。' });
    (show.mock.calls[0]?.[1] as () => void)();
    expect(showWindow).toHaveBeenCalledTimes(1);
    // An unsigned macOS build cannot show it (Electron ≥ 42): the failure reaches the error callback.
    const failed = new Error('Notifications are not allowed for this application');
    (show.mock.calls[0]?.[2] as (error: Error) => void)(failed);
    expect(failures).toEqual([failed]);

    language = 'en';
    listener('app.notification', facts);
    await vi.waitFor(() => expect(show).toHaveBeenCalledTimes(2));
    expect(show.mock.calls[1]?.[0]).toMatchObject({ title: 'Card codes received', body: '2 cards of order 2026112400000001 (视频会员) are in the vault.' });
  });
});
