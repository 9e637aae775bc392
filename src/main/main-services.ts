// Composes what main runs once the app is ready: the safeStorage secret store, the core process (started
// with utilityProcess and supervised: restarted when it dies), its IPC binding, event forwarding,
// notifications (a click opens what it is about), menu and tray in the app's language, the desktop
// settings (desktop-preferences.ts, login-item.ts). Main only relays: core runs in its own process and
// reaches main's secret store and AppHost (clipboard, save dialog, passphrase file, demo merchant) over
// its port. index.ts keeps only the app's lifecycle (app-lifecycle.ts); this file keeps only the wiring.
import { join } from 'node:path';
import { homedir } from 'node:os';
import { app, clipboard, dialog, ipcMain, Notification, safeStorage, type BrowserWindow, type MessageBoxOptions } from 'electron';
import icon from '../../resources/icon.png?asset';
import { fillIn, type Labels } from './app-locale';
import { createElectronAppHost } from './app-host';
import { installAppMenu } from './app-menu';
import { createExportPathChooser } from './export-dialog';
import { createClipboardWriter } from './clipboard';
import { createCoreSupervisor, createPrivateFile, createRotatingFileSink, RedactingLogger, securePrivateFolder } from '../core';
import { coreProcessEntry, electronCoreLauncher } from './core-process-launcher';
import { bindIpcHandlers, type IpcCallHandler } from './ipc/bind-ipc-handlers';
import { forwardEvents } from './ipc/forward-events';
import { createSenderCheck } from './ipc/sender-check';
import { electronNotifications, notifyOnAppEvents } from './notifications';
import { settingsSchema } from '../shared/ipc/views/settings';
import { inFlightOrdersSchema, type InFlightOrders } from '../shared/ipc/views/orders';
import { notificationLanguage, type NotificationLanguage } from '../shared/notification-text';
import { createSafeStoragePort } from './secrets/safe-storage-port';
import { openDesktopSecrets } from './secrets/desktop-secret-store';
import { SafeStorageSecretStore, WEAK_BACKEND, type BackendChange } from './secrets/safe-storage-secret-store';
import type { UnlockGate } from './secrets/unlock-gate';
import type { AppUrlMatcher } from './security';
import { createAppTray } from './tray';
import { createDesktopPreferences } from './desktop-preferences';
import { loginItemPort } from './login-item';
import { createNotificationOpener } from './notification-opener';
import { createHideNotice } from './window-close';

export interface MainServicesOptions {
  isAppUrl: AppUrlMatcher;
  mainWindow: () => BrowserWindow | null;
  showWindow: () => void;
  /** Asks for the passphrase file's passphrase in the window before core opens (index.ts binds it early). */
  unlock: UnlockGate;
}

export interface MainServices {
  /** Main's words in the app's language now (contract §17.5). */
  labels(): Labels;
  /** Closing the window hides it to the tray (Windows, Linux; the setting, on by default). */
  closeToTray(): boolean;
  /** The orders still in flight over every profile; null when core could not say within a few seconds. */
  inFlight(): Promise<InFlightOrders | null>;
  /** The window was hidden to the tray: the first time, a notice says the app still runs. */
  windowHidden(): void;
  /** Tells the user about something found while starting, once the window can show it. */
  announce(window: BrowserWindow): void;
  stop(): Promise<void>;
}

export async function startMainServices(options: MainServicesOptions): Promise<MainServices> {
  const userData = app.getPath('userData');
  securePrivateFolder(userData);
  const logFile = join(userData, 'procure-desk.log');
  // 0600 on every start: the sink's mode applies only when it creates the file.
  createPrivateFile(logFile);
  // Written off the UI thread's turn and rotated by size (rotating-file-sink.ts).
  const logFileSink = createRotatingFileSink({ path: logFile, onError: (error) => console.warn('Procure Desk: the log file could not be written', error instanceof Error ? error.message : 'unknown') });
  const logger = new RedactingLogger({ sink: logFileSink.sink, level: 'info' });

  let backendChange: BackendChange | null = null;
  const desktopSecrets = await openDesktopSecrets({
    userData,
    safeStorage: createSafeStoragePort(safeStorage, process.platform),
    logger,
    askPassphrase: options.unlock.ask,
    onBackendChange: (change) => {
      backendChange = change;
      logger.warn('secret store backend changed; the old secrets are kept', { previous: change.previous, current: change.current, left: change.secretsLeftBehind });
    },
  });
  // The ask never answers null here (the window has no "give up"; closing it quits the app).
  if (desktopSecrets === null) throw new Error('the secret file was not unlocked');
  const secrets = desktopSecrets.store;
  const safeStore = (): SafeStorageSecretStore | null => (secrets.active instanceof SafeStorageSecretStore ? secrets.active : null);

  const loginItem = loginItemPort({ platform: process.platform, isPackaged: app.isPackaged, app, execPath: process.execPath, appImage: process.env['APPIMAGE'], configHome: process.env['XDG_CONFIG_HOME'] ?? join(homedir(), '.config') });
  const preferences = createDesktopPreferences({
    systemLanguages: () => app.getPreferredSystemLanguages(),
    loginItem,
    relabel: (labels) => {
      installMenu();
      tray.relabel(labels);
    },
    warn: (message, fields) => logger.warn(message, fields),
  });
  const labels = (): Labels => preferences.labels();
  const clipboardWriter = createClipboardWriter(clipboard);
  const chooseExportPath = createExportPathChooser({ window: options.mainWindow, defaultDir: () => app.getPath('documents'), language: () => preferences.current().language });
  const host = createElectronAppHost({
    clipboard: clipboardWriter,
    demoCaDir: join(userData, 'demo-merchant-ca'),
    log: (line) => logger.info(line),
    chooseExportPath,
    desktop: { closeToTray: process.platform === 'darwin' ? 'dock' : 'tray', startAtLogin: loginItem.kind },
    usePassphraseFile: async (passphrase) => {
      await desktopSecrets.usePassphraseFile(passphrase);
      // The weaker-storage menu item belongs to the store left behind.
      installMenu();
    },
  });
  // Core in its own process: main relays the contract and serves the secret store and the AppHost to it.
  const service = createCoreSupervisor({
    launch: electronCoreLauncher({
      entry: coreProcessEntry(),
      onError: (problem) => logger.error('the core process hit a fatal error', problem),
    }),
    init: { dataDir: join(userData, 'data'), logLevel: 'info' },
    secrets,
    host,
    // Redacted by core's own logger before they left the core process.
    logLine: logFileSink.sink,
    logger,
  });

  // Bound before the window exists, so the renderer's first call never finds no handler.
  const unbind = bindIpcHandlers({
    ipcMain,
    service: preferences.watch(service),
    isTrustedSender: createSenderCheck({ trustedContents: () => options.mainWindow()?.webContents ?? null, isAppUrl: options.isAppUrl }),
    onProblem: ({ channel, kind }) => logger.warn('IPC call refused or failed', { channel, kind }),
  });
  const opener = createNotificationOpener({ showWindow: options.showWindow, window: options.mainWindow });
  const stopForwarding = forwardEvents({
    // Core's events, and main's own (app.navigate) through the same door.
    onEvent: (listener) => {
      const offs = [service.onEvent(listener), opener.onEvent(listener)];
      return () => offs.forEach((off) => off());
    },
    target: () => options.mainWindow()?.webContents ?? null,
    onProblem: ({ event }) => logger.warn('event not forwarded', { event }),
  });
  // The buyer's language setting at the moment of the notification; 'system' follows the OS.
  const notificationLanguageNow = async (): Promise<NotificationLanguage> => {
    const answer = await service.handle('settings.get', undefined);
    const settings = answer.ok ? settingsSchema.safeParse(answer.value) : null;
    return notificationLanguage(settings?.success === true ? settings.data.language : 'system', app.getPreferredSystemLanguages()[0] ?? app.getLocale());
  };
  const stopNotifying = service.onEvent(
    notifyOnAppEvents(electronNotifications, opener.open, notificationLanguageNow, (error) =>
      logger.warn('a desktop notification could not be shown', { error: error instanceof Error ? error.message : 'unknown' }),
    ),
  );

  const installMenu = (): void => {
    const safe = safeStore();
    const offerWeakStorage = process.platform === 'linux' && safe !== null && safe.status().backend === WEAK_BACKEND;
    installAppMenu({
      platform: process.platform,
      labels: labels(),
      isPackaged: app.isPackaged,
      ...(offerWeakStorage ? { weakStorage: { checked: safe.status().weakStorageAccepted, onToggle: (checked: boolean) => void toggleWeakStorage(checked) } } : {}),
    });
  };

  // The explicit acceptance of basic_text storage: asked in words, never assumed.
  const toggleWeakStorage = async (checked: boolean): Promise<void> => {
    const safe = safeStore();
    try {
      if (safe === null) return;
      if (checked) {
        const window = options.mainWindow();
        const t = labels();
        const box: MessageBoxOptions = { type: 'warning', title: t.weakStorageTitle, message: t.weakStorageTitle, detail: t.weakStorageDetail, buttons: [t.weakStorageAccept, t.cancel], defaultId: 1, cancelId: 1 };
        const answer = window === null ? await dialog.showMessageBox(box) : await dialog.showMessageBox(window, box);
        if (answer.response === 0) await safe.acceptWeakerStorage(true);
      } else {
        await safe.acceptWeakerStorage(false);
      }
    } catch (error) {
      logger.error('could not change where secrets are kept', { error: error instanceof Error ? error.name : 'unknown' });
    }
    installMenu();
  };

  installMenu();
  // Quit asks core first while orders are in flight (quit-guard.ts, through app's before-quit).
  const tray = createAppTray({ iconPath: icon, labels: labels(), showWindow: options.showWindow, quit: () => app.quit() });
  await service.start();
  // Core is open and its channels are bound: a window waiting at the unlock step goes on.
  options.unlock.opened();
  await preferences.load(service).catch((error: unknown) => logger.warn('the settings could not be read at start-up', { error: error instanceof Error ? error.message : 'unknown' }));
  const hideNotice = createHideNotice({
    markerFile: join(userData, 'tray-notice'),
    show: () => {
      const t = labels();
      if (Notification.isSupported()) new Notification({ title: t.stillRunningTitle, body: t.stillRunningBody }).show();
      else if (!tray.balloon(t.stillRunningTitle, t.stillRunningBody)) void dialog.showMessageBox({ type: 'info', title: t.stillRunningTitle, message: t.stillRunningTitle, detail: t.stillRunningBody, buttons: [t.ok] });
    },
  });

  return {
    labels,
    closeToTray: () => preferences.current().closeToTray,
    inFlight: () => askInFlight(service),
    windowHidden: () => void hideNotice(),
    announce(window) {
      if (backendChange === null) return;
      const change = backendChange;
      backendChange = null;
      dialog
        .showMessageBox(window, { type: 'warning', title: labels().backendChangedTitle, message: labels().backendChangedTitle, detail: fillIn(labels().backendChangedBody, { previous: change.previous, current: change.current }) })
        .catch(() => undefined);
    },
    async stop() {
      await clipboardWriter.clearIfOurs().catch(() => undefined);
      stopNotifying();
      stopForwarding();
      unbind();
      tray.destroy();
      // Core closes its database in its own process, then exits; no restart follows.
      await service.stop();
      await host.stop();
      await logFileSink.close();
    },
  };
}

/** How long quitting waits for core's count before asking with "could not be checked". */
const IN_FLIGHT_WAIT_MS = 3000;

async function askInFlight(service: IpcCallHandler): Promise<InFlightOrders | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), IN_FLIGHT_WAIT_MS);
  });
  try {
    const answer = await Promise.race([service.handle('orders.inFlight', undefined), late]);
    if (answer === null || !answer.ok) return null;
    const parsed = inFlightOrdersSchema.safeParse(answer.value);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}
