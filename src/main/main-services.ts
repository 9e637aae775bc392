// Composes what main runs once the app is ready: the safeStorage secret store, the core process (started
// with utilityProcess and supervised: restarted when it dies), its IPC binding, event forwarding,
// notifications, menu and tray. Main only relays: core runs in its own process and reaches main's
// secret store and AppHost (clipboard, save dialog, passphrase file, demo merchant) over its port.
// index.ts keeps only the app's lifecycle; this file keeps only the wiring.
import { join } from 'node:path';
import { app, clipboard, dialog, ipcMain, safeStorage, type BrowserWindow, type MessageBoxOptions } from 'electron';
import icon from '../../resources/icon.png?asset';
import { fillIn, labelsFor, pickLanguage, type Labels } from './app-locale';
import { createElectronAppHost } from './app-host';
import { installAppMenu } from './app-menu';
import { createExportPathChooser } from './export-dialog';
import { createClipboardWriter } from './clipboard';
import { createCoreSupervisor, createPrivateFile, createRotatingFileSink, RedactingLogger, securePrivateFolder } from '../core';
import { coreProcessEntry, electronCoreLauncher } from './core-process-launcher';
import { bindIpcHandlers } from './ipc/bind-ipc-handlers';
import { forwardEvents } from './ipc/forward-events';
import { createSenderCheck } from './ipc/sender-check';
import { electronNotifications, notifyOnAppEvents } from './notifications';
import { settingsSchema } from '../shared/ipc/views/settings';
import { notificationLanguage, type NotificationLanguage } from '../shared/notification-text';
import { createSafeStoragePort } from './secrets/safe-storage-port';
import { openDesktopSecrets } from './secrets/desktop-secret-store';
import { SafeStorageSecretStore, WEAK_BACKEND, type BackendChange } from './secrets/safe-storage-secret-store';
import type { UnlockGate } from './secrets/unlock-gate';
import type { AppUrlMatcher } from './security';
import { createAppTray } from './tray';

export interface MainServicesOptions {
  isAppUrl: AppUrlMatcher;
  mainWindow: () => BrowserWindow | null;
  showWindow: () => void;
  /** Asks for the passphrase file's passphrase in the window before core opens (index.ts binds it early). */
  unlock: UnlockGate;
}

export interface MainServices {
  readonly labels: Labels;
  /** Tells the user about something found while starting, once the window can show it. */
  announce(window: BrowserWindow): void;
  stop(): Promise<void>;
}

export async function startMainServices(options: MainServicesOptions): Promise<MainServices> {
  const labels = labelsFor(pickLanguage(app.getPreferredSystemLanguages()));
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

  const clipboardWriter = createClipboardWriter(clipboard);
  const chooseExportPath = createExportPathChooser({ window: options.mainWindow, defaultDir: () => app.getPath('documents'), language: pickLanguage(app.getPreferredSystemLanguages()) });
  const host = createElectronAppHost({
    clipboard: clipboardWriter,
    demoCaDir: join(userData, 'demo-merchant-ca'),
    log: (line) => logger.info(line),
    chooseExportPath,
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
    service,
    isTrustedSender: createSenderCheck({ trustedContents: () => options.mainWindow()?.webContents ?? null, isAppUrl: options.isAppUrl }),
    onProblem: ({ channel, kind }) => logger.warn('IPC call refused or failed', { channel, kind }),
  });
  const stopForwarding = forwardEvents({
    onEvent: (listener) => service.onEvent(listener),
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
    notifyOnAppEvents(electronNotifications, options.showWindow, notificationLanguageNow, (error) =>
      logger.warn('a desktop notification could not be shown', { error: error instanceof Error ? error.message : 'unknown' }),
    ),
  );

  const installMenu = (): void => {
    const safe = safeStore();
    const offerWeakStorage = process.platform === 'linux' && safe !== null && safe.status().backend === WEAK_BACKEND;
    installAppMenu({
      platform: process.platform,
      labels,
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
        const box: MessageBoxOptions = { type: 'warning', title: labels.weakStorageTitle, message: labels.weakStorageTitle, detail: labels.weakStorageDetail, buttons: [labels.weakStorageAccept, labels.cancel], defaultId: 1, cancelId: 1 };
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
  const tray = createAppTray({ iconPath: icon, labels, showWindow: options.showWindow, quit: () => app.quit() });
  await service.start();
  // Core is open and its channels are bound: a window waiting at the unlock step goes on.
  options.unlock.opened();

  return {
    labels,
    announce(window) {
      if (backendChange === null) return;
      const change = backendChange;
      backendChange = null;
      dialog
        .showMessageBox(window, { type: 'warning', title: labels.backendChangedTitle, message: labels.backendChangedTitle, detail: fillIn(labels.backendChangedBody, { previous: change.previous, current: change.current }) })
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
