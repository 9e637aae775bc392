// What the updater's decision reads from the installed app (updater.ts: decideUpdates): the
// app-update.yml electron-builder wrote into resources, and on macOS whether the bundle is signed.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { UpdateEnvironment } from './updater';

export interface InstalledApp {
  platform: NodeJS.Platform;
  isPackaged: boolean;
  /** process.resourcesPath. */
  resourcesPath: string;
  /** process.execPath: on macOS `<App>.app/Contents/MacOS/<name>`. */
  execPath: string;
}

export function readUpdateEnvironment(installed: InstalledApp): UpdateEnvironment {
  const ymlFile = join(installed.resourcesPath, 'app-update.yml');
  const appUpdateYml = existsSync(ymlFile) ? readFileSync(ymlFile, 'utf8') : null;
  // codesign writes the bundle's seal here; Squirrel.Mac then compares an update with it.
  const macBundleSigned = installed.platform === 'darwin' && existsSync(join(installed.execPath, '../../_CodeSignature/CodeResources'));
  return { platform: installed.platform, isPackaged: installed.isPackaged, appUpdateYml, macBundleSigned };
}
