// app-update.yml exactly as electron-builder writes it into a Windows build, without packaging (no
// Electron download here): electron-builder's own getAppUpdatePublishConfiguration and YAML writer,
// run over this repository's electron-builder.yml with a Windows packager whose members are the real
// ones (WinPackager's prototype, the real WindowsSignToolManager reading the certificate named by
// WIN_CSC_LINK). Only the packaging state (output folders, the VM) is absent.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import forge from 'node-forge';
import { getConfig } from 'app-builder-lib/out/util/config/config';
import { getAppUpdatePublishConfiguration } from 'app-builder-lib/out/publish/PublishManager';
import { WindowsSignToolManager } from 'app-builder-lib/out/codeSign/windowsSignToolManager';
import { WinPackager } from 'app-builder-lib/out/winPackager';
import { Platform } from 'app-builder-lib/out/core';
import { serializeToYaml } from 'builder-util';

const root = new URL('../..', import.meta.url).pathname;

/** A self-signed code-signing certificate in a PKCS#12 file, as a release machine would hold one. */
export function writeCodeSigningPfx(dir: string, commonName: string, password: string): string {
  const keys = forge.pki.rsa.generateKeyPair(2048);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date(Date.now() - 86_400_000);
  cert.validity.notAfter = new Date(Date.now() + 365 * 86_400_000);
  const subject = [{ name: 'commonName', value: commonName }, { name: 'organizationName', value: commonName }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([{ name: 'extKeyUsage', codeSigning: true }]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  const p12 = forge.pkcs12.toPkcs12Asn1(keys.privateKey, [cert], password, { algorithm: '3des' });
  const file = join(dir, 'signing.pfx');
  writeFileSync(file, Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary'));
  return file;
}

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
