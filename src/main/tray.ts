// The tray icon: the app stays reachable while its window is closed on Windows and Linux, and a
// click brings the window back. Its menu offers only showing the window and quitting.
import { Menu, Tray, nativeImage } from 'electron';
import type { Labels } from './app-locale';

export interface AppTrayOptions {
  iconPath: string;
  labels: Labels;
  showWindow(): void;
  quit(): void;
}

export function createAppTray(options: AppTrayOptions): Tray {
  // Tray icons are small everywhere; 16 px keeps the full-size app icon from being cropped.
  const icon = nativeImage.createFromPath(options.iconPath).resize({ width: 16, height: 16 });
  const tray = new Tray(icon);
  tray.setToolTip(options.labels.appName);
  tray.setContextMenu(
    Menu.buildFromTemplate([
      { label: options.labels.showWindow, click: () => options.showWindow() },
      { type: 'separator' },
      { label: options.labels.quit, click: () => options.quit() },
    ]),
  );
  tray.on('click', () => options.showWindow());
  return tray;
}
