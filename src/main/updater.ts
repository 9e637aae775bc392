// Updates through electron-updater, from the `publish` feed of electron-builder.yml. Only a packaged
// app checks: an unpackaged one has no app-update.yml and nothing to replace. Updates download in
// the background and install on the next quit; failures are logged, never shown as errors.
import electronUpdater from 'electron-updater';

export interface UpdaterOptions {
  isPackaged: boolean;
  log: (message: string) => void;
}

export function startUpdateChecks(options: UpdaterOptions): void {
  if (!options.isPackaged) return;
  // electron-updater is CommonJS: its named exports come through the default import in ESM.
  const { autoUpdater } = electronUpdater;
  autoUpdater.autoDownload = true;
  autoUpdater.autoInstallOnAppQuit = true;
  autoUpdater.on('error', (error: Error) => options.log(`update check failed: ${error.message}`));
  autoUpdater.checkForUpdatesAndNotify().catch((error: unknown) => options.log(`update check failed: ${error instanceof Error ? error.message : 'unknown'}`));
}
