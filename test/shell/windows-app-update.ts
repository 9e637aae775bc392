// app-update.yml exactly as electron-builder writes it into a Windows build, without packaging (no
// Electron download here): electron-builder's own getAppUpdatePublishConfiguration and YAML writer,
// run over this repository's electron-builder.yml with a Windows packager whose members are the real
// ones (WinPackager's prototype, the real WindowsSignToolManager reading the certificate named by
// WIN_CSC_LINK). Only the packaging state (output folders, the VM) is absent.
import { getConfig } from 'app-builder-lib/out/util/config/config';
import { getAppUpdatePublishConfiguration } from 'app-builder-lib/out/publish/PublishManager';
import { WindowsSignToolManager } from 'app-builder-lib/out/codeSign/windowsSignToolManager';
import { WinPackager } from 'app-builder-lib/out/winPackager';
import { Platform } from 'app-builder-lib/out/core';
import { join } from 'node:path';
import { serializeToYaml } from 'builder-util';

const root = join(import.meta.dirname, '..', '..');

export async function windowsAppUpdateYml(): Promise<string> {
  const config = await getConfig(root, null, null);
  const win = config.win ?? {};
  const appInfo = { channel: null, updaterCacheDirName: 'procure-desk-updater', productName: 'Procure Desk', productFilename: 'Procure Desk', name: 'procure-desk', version: '0.1.0' };
  const packager = Object.create(WinPackager.prototype) as Record<string, unknown>;
  // config and projectDir are the packager's getters over info, as in a real build.
  Object.assign(packager, {
    platform: Platform.WINDOWS,
    platformSpecificBuildOptions: win,
    appInfo,
    // The GitHub repository a release build reads from its checkout's git remote.
    info: { config, appInfo, projectDir: root, repositoryInfo: Promise.resolve({ user: 'procure-desk', project: 'procure-desk' }), tempDirManager: null },
  });
  const signing = new WindowsSignToolManager(packager as never);
  packager['signingManager'] = { value: Promise.resolve(signing) };
  const publish = await getAppUpdatePublishConfiguration(packager as never, null, 1, true);
  if (publish === null) throw new Error('electron-builder.yml yields no update configuration');
  return serializeToYaml(publish);
}
