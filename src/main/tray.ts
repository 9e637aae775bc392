// The tray icon: the app stays reachable while its window is hidden (closing hides it on Windows and
// Linux, contract §17.1), and a click brings the window back. Its menu offers showing the window and
// quitting (which asks while orders are in flight, quit-guard.ts), labelled in the app's language and
// relabelled at once when the buyer switches it.
import { Menu, Tray, nativeImage, type MenuItemConstructorOptions } from 'electron';
import type { Labels } from './app-locale';

export interface AppTrayOptions {
  iconPath: string;
  labels: Labels;
  showWindow(): void;
  quit(): void;
}

export interface AppTray {
  relabel(labels: Labels): void;
  /** Windows' balloon from the tray icon (where native notifications are off); false elsewhere. */
  balloon(title: string, content: string): boolean;
  destroy(): void;
}

export function trayMenuTemplate(labels: Labels, options: Pick<AppTrayOptions, 'showWindow' | 'quit'>): MenuItemConstructorOptions[] {
  return [
    { label: labels.showWindow, click: () => options.showWindow() },
    { type: 'separator' },
    { label: labels.quit, click: () => options.quit() },
  ];
}

export function createAppTray(options: AppTrayOptions): AppTray {
  // Tray icons are small everywhere; 16 px keeps the full-size app icon from being cropped.
  const icon = nativeImage.createFromPath(options.iconPath).resize({ width: 16, height: 16 });
  const tray = new Tray(icon);
  const relabel = (labels: Labels): void => {
    tray.setToolTip(labels.appName);
    tray.setContextMenu(Menu.buildFromTemplate(trayMenuTemplate(labels, options)));
  };
  relabel(options.labels);
  tray.on('click', () => options.showWindow());
  return {
    relabel,
    balloon(title, content) {
      if (process.platform !== 'win32') return false;
      tray.displayBalloon({ title, content, iconType: 'info' });
      return true;
    },
    destroy: () => tray.destroy(),
  };
}
