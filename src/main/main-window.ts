import { BrowserWindow, type Session } from 'electron';
import icon from '../../resources/icon.png?asset';
import { preloadPath, type RendererLocation } from './renderer-location';

/**
 * The bridge is registered on the session rather than in the window's webPreferences: one place,
 * before any window exists. It runs sandboxed in top frames only (type 'frame'), and the only
 * contents in this session are the main window's: window.open and webviews are denied
 * (security.ts), and main answers only the main window's top frame (ipc/sender-check).
 */
export function registerBridgePreload(session: Pick<Session, 'registerPreloadScript'>): void {
  session.registerPreloadScript({ type: 'frame', id: 'procure-desk-bridge', filePath: preloadPath() });
}

/** show false: loaded but kept hidden (started at login), shown from the tray or the Dock. */
export function createMainWindow(renderer: RendererLocation, options: { show: boolean } = { show: true }): BrowserWindow {
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
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      // Middle-click would otherwise open links in a new window; window.open is denied anyway.
      disableBlinkFeatures: 'Auxclick',
    },
  });

  if (options.show) window.once('ready-to-show', () => window.show());

  window.loadURL(renderer.url).catch((error: unknown) => {
    console.error('Procure Desk: the main window failed to load', error);
  });

  return window;
}
