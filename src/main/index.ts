// App lifecycle only: what the app does lives in core, the wiring in main-services.ts, the window
// in main-window.ts, closing and quitting in app-lifecycle.ts (contract §17).
import { app, dialog, ipcMain, protocol, session, type BrowserWindow } from 'electron';
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
import { createAppLifecycle, type AppLifecycle } from './app-lifecycle';
import { startedHidden } from './login-item';

// Every renderer, including any created later, runs sandboxed whatever its webPreferences say.
app.enableSandbox();
// Privileges must be granted before the app is ready; the handler is attached once it is.
protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);

const renderer = resolveRendererLocation(app.isPackaged);
const isAppUrl = createAppUrlMatcher(renderer.url);
let mainWindow: BrowserWindow | null = null;
let services: MainServices | null = null;
let lifecycle: AppLifecycle | null = null;

// Two instances would share one database and one vault; the second one hands over and quits.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', showWindow);

  app.on('web-contents-created', (_event, contents) => {
    hardenWebContents(contents, { isAppUrl });
  });

  // Closing hides, quitting asks while orders are in flight, a quit stops core cleanly.
  lifecycle = createAppLifecycle({
    app,
    platform: process.platform,
    services: () => services,
    ask: async (question) => {
      const box = { type: 'warning' as const, title: question.title, message: question.message, detail: question.detail, buttons: [question.quit, question.keep], defaultId: 1, cancelId: 1 };
      const answer = mainWindow !== null && mainWindow.isVisible() ? await dialog.showMessageBox(mainWindow, box) : await dialog.showMessageBox(box);
      return answer.response === 0;
    },
    onStopFailed: (error) => console.error('Procure Desk: shutdown failed', error),
  });

  // The Dock's icon (macOS) brings the hidden window back.
  app.on('activate', () => {
    if (services !== null) showWindow();
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
      // Started at login: the app stays in the tray (the Dock on macOS) until the buyer opens it. Read once
      // the app is ready (macOS's login item state). The passphrase is still asked: core cannot work without it.
      const hidden = startedHidden(process.platform, process.argv, app);
      if (needsUnlock) openMainWindow(true);
      services = await startMainServices({ isAppUrl, mainWindow: () => mainWindow, showWindow, unlock });
      if (mainWindow === null) openMainWindow(!hidden);
      startUpdates();
    })
    .catch((error: unknown) => {
      console.error('Procure Desk: startup failed', error);
      dialog.showErrorBox('Procure Desk', error instanceof Error ? error.message : 'startup failed');
      app.exit(1);
    });
}

function openMainWindow(visible = true): void {
  const window = createMainWindow(renderer, { show: visible });
  lifecycle?.attachWindow(window);
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
    labels: services?.labels() ?? labelsFor(pickLanguage(app.getPreferredSystemLanguages())),
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
