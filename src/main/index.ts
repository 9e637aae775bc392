// App lifecycle only: what the app does lives in core (later) and its window in main-window.ts.
import { app, BrowserWindow, session } from 'electron';
import { createMainWindow } from './main-window';
import { resolveRendererLocation } from './renderer-location';
import { contentSecurityPolicy, createAppUrlMatcher, hardenSession, hardenWebContents } from './security';

// https links the renderer may hand to the OS browser. Empty until there is something to link
// to (the merchant's own site joins once the buyer connects, in a later issue).
const EXTERNAL_LINK_HOSTS: readonly string[] = [];

// Every renderer, including any created later, runs sandboxed whatever its webPreferences say.
app.enableSandbox();

const renderer = resolveRendererLocation(app.isPackaged);
const isAppUrl = createAppUrlMatcher(renderer.url);
let mainWindow: BrowserWindow | null = null;

// Two instances would share one database and one vault; the second one hands over and quits.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (mainWindow === null) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });

  app.on('web-contents-created', (_event, contents) => {
    hardenWebContents(contents, {
      isAppUrl,
      externalHosts: EXTERNAL_LINK_HOSTS,
      onError: (error) => console.error('Procure Desk: could not open an external link', error),
    });
  });

  app.on('window-all-closed', () => {
    // macOS apps stay in the dock until the user quits them explicitly.
    if (process.platform !== 'darwin') app.quit();
  });

  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openMainWindow();
  });

  app
    .whenReady()
    .then(() => {
      hardenSession(session.defaultSession, {
        isAppUrl,
        contentSecurityPolicy: contentSecurityPolicy(renderer.kind === 'dev-server' ? renderer.scriptNonce : undefined),
      });
      openMainWindow();
    })
    .catch((error: unknown) => {
      console.error('Procure Desk: startup failed', error);
      app.exit(1);
    });
}

function openMainWindow(): void {
  const window = createMainWindow(renderer);
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  mainWindow = window;
}
