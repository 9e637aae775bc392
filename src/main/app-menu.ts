// The application menu: the usual items with their usual shortcuts (Electron's roles carry them:
// Ctrl/Cmd+Z, X, C, V, A, W, R, 0, +, -, F11/Ctrl+Cmd+F; Quit is Ctrl/Cmd+Q everywhere, which Windows'
// role lacks), labelled in the app's language and rebuilt when the buyer switches it.
// Developer tools only in an unpackaged app. The template is built by a pure function so that tests
// can read it without Electron.
import { Menu, type MenuItemConstructorOptions } from 'electron';
import type { Labels } from './app-locale';

/** Quitting is explicit (contract §17.2); it asks while orders are in flight (quit-guard.ts). */
export const QUIT_ACCELERATOR = 'CommandOrControl+Q';

export interface AppMenuOptions {
  platform: NodeJS.Platform;
  labels: Labels;
  isPackaged: boolean;
  /** Offered only on Linux's basic_text backend (see safe-storage-secret-store.ts). */
  weakStorage?: { checked: boolean; onToggle: (checked: boolean) => void };
}

export function appMenuTemplate(options: AppMenuOptions): MenuItemConstructorOptions[] {
  const { labels: t, platform } = options;
  const mac = platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [];

  if (mac) {
    template.push({
      label: t.appName,
      submenu: [
        { role: 'about', label: t.about },
        { type: 'separator' },
        { role: 'hide', label: t.hide },
        { role: 'hideOthers', label: t.hideOthers },
        { role: 'unhide', label: t.unhide },
        { type: 'separator' },
        { role: 'quit', label: t.quit, accelerator: QUIT_ACCELERATOR },
      ],
    });
  }

  const file: MenuItemConstructorOptions[] = [];
  if (options.weakStorage !== undefined) {
    const { checked, onToggle } = options.weakStorage;
    file.push({ label: t.weakStorage, type: 'checkbox', checked, click: (item) => onToggle(item.checked) }, { type: 'separator' });
  }
  file.push({ role: 'close', label: t.close });
  if (!mac) file.push({ type: 'separator' }, { role: 'quit', label: t.quit, accelerator: QUIT_ACCELERATOR });
  template.push({ label: t.file, submenu: file });

  template.push({
    label: t.edit,
    submenu: [
      { role: 'undo', label: t.undo },
      { role: 'redo', label: t.redo },
      { type: 'separator' },
      { role: 'cut', label: t.cut },
      { role: 'copy', label: t.copy },
      { role: 'paste', label: t.paste },
      { role: 'selectAll', label: t.selectAll },
    ],
  });

  template.push({
    label: t.view,
    submenu: [
      { role: 'reload', label: t.reload },
      ...(options.isPackaged ? [] : [{ role: 'toggleDevTools', label: t.toggleDevTools } as const]),
      { type: 'separator' },
      { role: 'resetZoom', label: t.resetZoom },
      { role: 'zoomIn', label: t.zoomIn },
      { role: 'zoomOut', label: t.zoomOut },
      { type: 'separator' },
      { role: 'togglefullscreen', label: t.fullScreen },
    ],
  });

  template.push({
    label: t.window,
    submenu: [{ role: 'minimize', label: t.minimize }, { role: 'close', label: t.close }, ...(mac ? [{ type: 'separator' } as const, { role: 'front' } as const] : [])],
  });

  if (!mac) template.push({ label: t.help, submenu: [{ role: 'about', label: t.about }] });
  return template;
}

export function installAppMenu(options: AppMenuOptions): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate(options)));
}
