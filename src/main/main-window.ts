import { BrowserWindow } from 'electron';
import icon from '../../resources/icon.png?asset';
import { preloadPath, type RendererLocation } from './renderer-location';

export function createMainWindow(renderer: RendererLocation): BrowserWindow {
  const window = new BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 800,
    minHeight: 560,
    title: 'Procure Desk',
    // Shown on ready-to-show so the user never sees an empty white frame.
    show: false,
    autoHideMenuBar: true,
    // Windows and macOS take the icon from the packaged app; Linux needs it on the window.
    ...(process.platform === 'linux' ? { icon } : {}),
    webPreferences: {
      preload: preloadPath(),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      // Middle-click would otherwise open links in a new window; window.open is denied anyway.
      disableBlinkFeatures: 'Auxclick',
    },
  });

  window.once('ready-to-show', () => window.show());

  const loaded = renderer.kind === 'dev-server' ? window.loadURL(renderer.url) : window.loadFile(renderer.path);
  loaded.catch((error: unknown) => {
    console.error('Procure Desk: the main window failed to load', error);
  });

  return window;
}
