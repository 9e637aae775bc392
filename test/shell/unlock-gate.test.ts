// The unlock step through main's IPC (shared/ipc/unlock.ts), as the window drives it: the window
// learns a passphrase is needed before main asks, a wrong one is answered "wrong" and asked again, the
// right one is answered "unlocked" only once core's channels are bound (opened()), and a frame that is
// not the app's learns nothing and unlocks nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { API_KEY_SECRET } from '../../src/core/connection/connection-settings';
import { RedactingLogger } from '../../src/core/logging/redacting-logger';
import { PassphraseSecretStore } from '../../src/core/secrets/passphrase-secret-store';
import { MIN_SCRYPT_N } from '../../src/core/secrets/secret-file-format';
import { createSenderCheck } from '../../src/main/ipc/sender-check';
import { openDesktopSecrets } from '../../src/main/secrets/desktop-secret-store';
import { passphraseFileChosen, PASSPHRASE_SECRETS_FILE } from '../../src/main/secrets/passphrase-file-choice';
import type { SafeStoragePort } from '../../src/main/secrets/safe-storage-port';
import { createUnlockGate } from '../../src/main/secrets/unlock-gate';
import { UNLOCK_STATE_CHANNEL, UNLOCK_SUBMIT_CHANNEL } from '../../src/shared/ipc/unlock';
import { fakeIpcMain, fakeWebContents } from './fake-electron-ipc';

const PASSPHRASE = 'Lantern-river 47 orchard';
const API_KEY = 'AK_live_3f9c2e7d41b8a0';
const unusedSafeStorage: SafeStoragePort = {
  backend: () => 'basic_text',
  isAvailable: () => Promise.resolve(true),
  encrypt: () => Promise.reject(new Error('not used')),
  decrypt: () => Promise.reject(new Error('not used')),
};

let userData: string;
beforeEach(() => {
  userData = mkdtempSync(join(tmpdir(), 'pd-unlock-gate-'));
});
afterEach(() => rmSync(userData, { recursive: true, force: true }));

describe('unlock step before core opens', () => {
  it('asks in the window, says a wrong passphrase, and goes on only once core is open', async () => {
    const seeded = await PassphraseSecretStore.open({ filePath: join(userData, PASSPHRASE_SECRETS_FILE), passphrase: PASSPHRASE, cost: MIN_SCRYPT_N });
    await seeded.set(API_KEY_SECRET, API_KEY);
    seeded.close();
    expect(passphraseFileChosen(userData)).toBe(true);

    const ipcMain = fakeIpcMain();
    const window = fakeWebContents();
    const stranger = fakeWebContents('https://evil.example/');
    const gate = createUnlockGate({
      ipcMain,
      isTrustedSender: createSenderCheck({ trustedContents: () => window, isAppUrl: (url) => url === window.mainFrame.url }),
      needed: true,
    });
    const call = (channel: string, ...args: unknown[]): Promise<unknown> => ipcMain.invoke(channel, window, window.mainFrame, ...args);

    // Before main has even asked, the window knows to show the unlock step.
    expect(await call(UNLOCK_STATE_CHANNEL)).toEqual({ needed: true, wrong: false });
    expect(await ipcMain.invoke(UNLOCK_STATE_CHANNEL, stranger, stranger.mainFrame)).toEqual({ needed: false, wrong: false });

    const lines: string[] = [];
    const opening = openDesktopSecrets({ userData, safeStorage: unusedSafeStorage, logger: new RedactingLogger({ sink: (line) => lines.push(line), level: 'debug' }), askPassphrase: gate.ask });

    // A frame that is not the app's cannot answer the question.
    expect(await ipcMain.invoke(UNLOCK_SUBMIT_CHANNEL, stranger, stranger.mainFrame, PASSPHRASE)).toEqual({ unlocked: false, wrong: false });
    // The window's first submit may arrive before main asks: it is answered with the state, not lost silently.
    // A wrong passphrase costs one scrypt, seconds on a loaded machine: poll well past the default second.
    await expect.poll(() => call(UNLOCK_SUBMIT_CHANNEL, 'Lantern-river 48 orchard'), { timeout: 20_000 }).toEqual({ unlocked: false, wrong: true });
    expect(await call(UNLOCK_STATE_CHANNEL)).toEqual({ needed: true, wrong: true });

    const answered = call(UNLOCK_SUBMIT_CHANNEL, PASSPHRASE);
    const secrets = await opening;
    if (secrets === null) throw new Error('not unlocked');
    expect(await secrets.store.get(API_KEY_SECRET)).toBe(API_KEY);
    // Core opens now; only then does the window go on.
    let settled = false;
    void answered.then(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    gate.opened();
    expect(await answered).toEqual({ unlocked: true, wrong: false });
    expect(await call(UNLOCK_STATE_CHANNEL)).toEqual({ needed: false, wrong: false });
    for (const line of lines) expect(line).not.toContain(PASSPHRASE);

    gate.dispose();
    expect(ipcMain.handlers.size).toBe(0);
  });
});
