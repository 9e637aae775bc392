// App lifecycle only: what the app does lives in core, the wiring in main-services.ts, the window
// in main-window.ts.
import { app, BrowserWindow, dialog, ipcMain, protocol, session } from 'electron';
import { contentSecurityPolicy } from '../shared/content-security-policy';
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, createAppProtocolHandler } from './app-protocol';
import { createMerchantImageFetcher } from '../core';
import { createMainWindow, registerBridgePreload } from './main-window';
import { startMainServices, type MainServices } from './main-services';
import { resolveRendererLocation } from './renderer-location';
import { createAppUrlMatcher, hardenSession, hardenWebContents } from './security';
import { createSenderCheck } from './ipc/sender-check';
import { passphraseFileChosen } from './secrets/passphrase-file-choice';
import { createUnlockGate } from './secrets/unlock-gate';
import { join } from 'node:path';
import { labelsFor, pickLanguage } from './app-locale';
import { readUpdateEnvironment } from './update-environment';
import { createUpdateNotice } from './update-notice';
import { startUpdateChecks } from './updater';

// Every renderer, including any created later, runs sandboxed whatever its webPreferences say.
app.enableSandbox();
// Privileges must be granted before the app is ready; the handler is attached once it is.
protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);

const renderer = resolveRendererLocation(app.isPackaged);
const isAppUrl = createAppUrlMatcher(renderer.url);
let mainWindow: BrowserWindow | null = null;
let services: MainServices | null = null;
let quitting: 'no' | 'stopping' | 'done' = 'no';

// Two instances would share one database and one vault; the second one hands over and quits.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', showWindow);

  app.on('web-contents-created', (_event, contents) => {
    hardenWebContents(contents, { isAppUrl });
  });

  app.on('window-all-closed', () => {
    // macOS apps stay in the dock until the user quits them explicitly.
    if (process.platform !== 'darwin') app.quit();
  });

  app.on('activate', () => {
    if (services !== null && BrowserWindow.getAllWindows().length === 0) openMainWindow();
  });

  // Core closes its database and the clipboard loses our value before the process ends.
  app.on('will-quit', (event) => {
    if (quitting === 'done' || services === null) return;
    event.preventDefault();
    if (quitting === 'stopping') return;
    quitting = 'stopping';
    const stopping = services;
    stopping
      .stop()
      .catch((error: unknown) => console.error('Procure Desk: shutdown failed', error))
      .finally(() => {
        quitting = 'done';
        app.quit();
      });
  });

  app
    .whenReady()
    .then(async () => {
      const policy = contentSecurityPolicy({ devScriptNonce: renderer.kind === 'dev-server' ? renderer.scriptNonce : undefined });
      hardenSession(session.defaultSession, { isAppUrl, contentSecurityPolicy: policy });
      if (renderer.kind === 'app-protocol') {
        // Merchant images reach the page only through core's fetcher, on the page's own origin.
        const images = createMerchantImageFetcher({ log: (message, fields) => console.warn(`Procure Desk: ${message}`, fields) });
        protocol.handle(APP_SCHEME, createAppProtocolHandler({ rendererRoot: renderer.root, contentSecurityPolicy: policy, merchantImage: (url) => images.fetch(url) }));
      }
      registerBridgePreload(session.defaultSession);
      // With the passphrase file chosen, the window opens first and asks for the passphrase before core
      // opens (the unlock step); otherwise it opens once core is ready, as before.
      const needsUnlock = passphraseFileChosen(app.getPath('userData'));
      const unlock = createUnlockGate({
        ipcMain,
        isTrustedSender: createSenderCheck({ trustedContents: () => mainWindow?.webContents ?? null, isAppUrl }),
        needed: needsUnlock,
      });
      if (needsUnlock) openMainWindow();
      services = await startMainServices({ isAppUrl, mainWindow: () => mainWindow, showWindow, unlock });
      if (mainWindow === null) openMainWindow();
      startUpdates();
    })
    .catch((error: unknown) => {
      console.error('Procure Desk: startup failed', error);
      dialog.showErrorBox('Procure Desk', error instanceof Error ? error.message : 'startup failed');
      app.exit(1);
    });
}

function openMainWindow(): void {
  const window = createMainWindow(renderer);
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  window.once('ready-to-show', () => services?.announce(window));
  mainWindow = window;
}

function showWindow(): void {
  if (services === null) return;
  if (mainWindow === null) {
    openMainWindow();
    return;
  }
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

function startUpdates(): void {
  const tell = createUpdateNotice({
    labels: labelsFor(pickLanguage(app.getPreferredSystemLanguages())),
    markerFile: join(app.getPath('userData'), 'update-notice'),
    appVersion: app.getVersion(),
    show: ({ title, detail, button }) => {
      void dialog.showMessageBox({ type: 'warning', title, message: title, detail, buttons: [button] });
    },
  });
  startUpdateChecks({
    environment: readUpdateEnvironment({ platform: process.platform, isPackaged: app.isPackaged, resourcesPath: process.resourcesPath, execPath: process.execPath }),
    log: (message) => console.warn(`Procure Desk: ${message}`),
    tell,
  });
}
