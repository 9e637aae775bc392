// Updates through electron-updater, from the `publish` feed of electron-builder.yml, only where the
// update's signature is checked against the running app's:
// - Windows: electron-updater checks the installer's Authenticode signature against the publisher
//   named in app-update.yml, and skips that check silently when none is named (an unsigned build):
//   such a build does not update itself.
// - macOS: Squirrel.Mac installs only an update signed like the running app; an unsigned bundle
//   (no Contents/_CodeSignature) does not update itself.
// - Linux: an AppImage carries no signature electron-updater could check: never updates itself.
// A refusal, and an update whose signature did not match, are told to the buyer (who should then
// download the release from its page); other failures (offline, feed down) are only logged.
// Only a packaged app checks: an unpackaged one has no app-update.yml and nothing to replace.
import electronUpdater from 'electron-updater';

export type UpdateRefusal =
  /** Linux: the AppImage has no signature to check. */
  | 'appimage'
  /** This build was not signed, so the signature of an update cannot be compared with it. */
  | 'unsigned-build'
  /** An update was downloaded, but its signature is not the running app's publisher's. */
  | 'signature-mismatch';

export type UpdateDecision = { check: true } | { check: false; refusal: UpdateRefusal | null; why: string };

export interface UpdateEnvironment {
  platform: NodeJS.Platform;
  isPackaged: boolean;
  /** The text of resources/app-update.yml, or null when the build has none. */
  appUpdateYml: string | null;
  /** macOS: whether the app bundle carries a code signature (Contents/_CodeSignature/CodeResources). */
  macBundleSigned: boolean;
}

/**
 * The publisher names in app-update.yml, as electron-builder writes them (js-yaml: a block list
 * `publisherName:\n  - CN` or a single scalar). Only this key is read; electron-updater reads the rest.
 */
export function publisherNamesOf(appUpdateYml: string): string[] {
  const lines = appUpdateYml.split(/\r?\n/);
  const at = lines.findIndex((line) => /^publisherName\s*:/.test(line));
  if (at < 0) return [];
  const unquote = (value: string): string => value.trim().replace(/^(['"])(.*)\1$/, '$2').trim();
  const inline = unquote(lines[at]?.replace(/^publisherName\s*:/, '') ?? '');
  if (inline !== '' && inline !== 'null' && inline !== '~' && inline !== '[]') return [inline];
  const names: string[] = [];
  for (const line of lines.slice(at + 1)) {
    const item = /^\s*-\s+(.*)$/.exec(line);
    if (item === null) break;
    const name = unquote(item[1] ?? '');
    if (name !== '') names.push(name);
  }
  return names;
}

export function decideUpdates(env: UpdateEnvironment): UpdateDecision {
  if (!env.isPackaged) return { check: false, refusal: null, why: 'not packaged' };
  if (env.platform === 'linux') return { check: false, refusal: 'appimage', why: 'an AppImage has no signature to check' };
  if (env.appUpdateYml === null) return { check: false, refusal: null, why: 'no app-update.yml in this build' };
  if (env.platform === 'win32' && publisherNamesOf(env.appUpdateYml).length === 0) {
    return { check: false, refusal: 'unsigned-build', why: 'app-update.yml names no publisher: this build was not signed' };
  }
  if (env.platform === 'darwin' && !env.macBundleSigned) {
    return { check: false, refusal: 'unsigned-build', why: 'the app bundle carries no code signature' };
  }
  if (env.platform !== 'win32' && env.platform !== 'darwin') return { check: false, refusal: null, why: `no signed updates on ${env.platform}` };
  return { check: true };
}

/** What a failed update check says when the update's signature was refused. */
export function isSignatureFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if ((error as Error & { code?: unknown }).code === 'ERR_UPDATER_INVALID_SIGNATURE') return true;
  // Squirrel.Mac's words when the update's designated requirement differs from the running app's.
  return /code ?signature|not signed by the application owner|did not pass validation/i.test(error.message);
}

/** The members of electron-updater's AppUpdater used here (a fake in tests). */
export interface UpdaterPort {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  on(event: 'error', listener: (error: Error) => void): unknown;
  checkForUpdates(): Promise<unknown>;
}

export interface UpdaterOptions {
  environment: UpdateEnvironment;
  log: (message: string) => void;
  /** Tells the buyer why this app does not update itself (updateRefusalLabels in app-locale.ts). */
  tell: (refusal: UpdateRefusal) => void;
  /** Default: electron-updater's autoUpdater. */
  updater?: UpdaterPort;
}

export function startUpdateChecks(options: UpdaterOptions): UpdateDecision {
  const decision = decideUpdates(options.environment);
  if (!decision.check) {
    options.log(`updates off: ${decision.why}`);
    if (decision.refusal !== null) options.tell(decision.refusal);
    return decision;
  }
  // electron-updater is CommonJS: its named exports come through the default import in ESM.
  const updater: UpdaterPort = options.updater ?? electronUpdater.autoUpdater;
  // The publisher check (verifyUpdateCodeSignature) is left exactly as electron-updater sets it.
  updater.autoDownload = true;
  updater.autoInstallOnAppQuit = true;
  let toldMismatch = false;
  const failed = (error: unknown): void => {
    options.log(`update check failed: ${error instanceof Error ? error.message : 'unknown'}`);
    if (isSignatureFailure(error) && !toldMismatch) {
      toldMismatch = true;
      options.tell('signature-mismatch');
    }
  };
  updater.on('error', failed);
  // checkForUpdates, not checkForUpdatesAndNotify: the OS notification it would show is not worded
  // in the buyer's language, and an update installs quietly on the next quit anyway.
  updater.checkForUpdates().catch(failed);
  return decision;
}
