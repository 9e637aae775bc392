// secrets.usePassphraseFile through the app service as the desktop app wires it (main-services.ts):
// offered only while secrets are memory-only and only where the host can do it, the shared password
// rule applied, the move done, and the passphrase in no answer, event or log line.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAppService, type AppHost } from '../../src/core/app/app-service';
import { API_KEY_SECRET } from '../../src/core/connection/connection-settings';
import { createCore } from '../../src/core/create-core';
import { RedactingLogger } from '../../src/core/logging/redacting-logger';
import { PassphraseSecretStore } from '../../src/core/secrets/passphrase-secret-store';
import { MIN_SCRYPT_N } from '../../src/core/secrets/secret-file-format';
import { openDesktopSecrets } from '../../src/main/secrets/desktop-secret-store';
import { PASSPHRASE_SECRETS_FILE } from '../../src/main/secrets/passphrase-file-choice';
import type { SafeStoragePort } from '../../src/main/secrets/safe-storage-port';

const PASSPHRASE = 'Lantern-river 47 orchard';
const API_KEY = 'AK_live_3f9c2e7d41b8a0';
const basicText: SafeStoragePort = {
  backend: () => 'basic_text',
  isAvailable: () => Promise.resolve(true),
  encrypt: () => Promise.reject(new Error('not used')),
  decrypt: () => Promise.reject(new Error('not used')),
};
const noDemo = (): Promise<never> => Promise.reject(new Error('no demo merchant in this test'));

let userData: string;
beforeEach(() => {
  userData = mkdtempSync(join(tmpdir(), 'pd-passphrase-channel-'));
});
afterEach(() => rmSync(userData, { recursive: true, force: true }));

async function desktopApp(withPassphraseFile: boolean) {
  const lines: string[] = [];
  const logger = new RedactingLogger({ sink: (line) => lines.push(line), level: 'debug' });
  const secrets = await openDesktopSecrets({ userData, safeStorage: basicText, logger, askPassphrase: () => Promise.resolve(null), passphraseCost: MIN_SCRYPT_N });
  if (secrets === null) throw new Error('no secrets');
  const core = await createCore({ dataDir: join(userData, 'data'), secrets: secrets.store, logger });
  const host: AppHost = { startDemoMerchant: noDemo, ...(withPassphraseFile ? { usePassphraseFile: (passphrase: string) => secrets.usePassphraseFile(passphrase) } : {}) };
  const app = createAppService(core, host, { logger, secrets: secrets.store });
  const seen: unknown[] = [];
  app.onEvent((event, payload) => seen.push({ event, payload }));
  const call = async (channel: string, input?: unknown): Promise<unknown> => {
    const answer = await app.handle(channel, input);
    seen.push(answer);
    return answer;
  };
  return { secrets, core, app, call, lines, seen };
}

describe('secrets.usePassphraseFile', () => {
  it('moves memory-only secrets into the passphrase file, once, with the shared rule', async () => {
    const desk = await desktopApp(true);
    await desk.secrets.store.set(API_KEY_SECRET, API_KEY);
    expect(await desk.call('connection.status')).toMatchObject({ ok: true, value: { secretStore: 'memory', passphraseFileOffered: true } });

    expect(await desk.call('secrets.usePassphraseFile', { passphrase: 'password123' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(desk.secrets.store.kind).toBe('memory');

    const moved = await desk.call('secrets.usePassphraseFile', { passphrase: PASSPHRASE });
    expect(moved).toMatchObject({ ok: true, value: { secretStore: 'passphrase-file' } });
    expect(moved).not.toHaveProperty('value.passphraseFileOffered');
    expect(desk.seen).toContainEqual({ event: 'connection.changed', payload: expect.objectContaining({ secretStore: 'passphrase-file' }) as unknown });
    // Offered once: the secrets are on disk now.
    expect(await desk.call('secrets.usePassphraseFile', { passphrase: PASSPHRASE })).toMatchObject({ ok: false, error: { code: 'ACTION_NOT_ALLOWED' } });

    const file = await PassphraseSecretStore.open({ filePath: join(userData, PASSPHRASE_SECRETS_FILE), passphrase: PASSPHRASE });
    expect(await file.get(API_KEY_SECRET)).toBe(API_KEY);
    file.close();
    await desk.core.close();

    for (const line of desk.lines) expect(line).not.toContain(PASSPHRASE);
    expect(JSON.stringify(desk.seen)).not.toContain(PASSPHRASE);
  });

  it('is not offered by a host that cannot do it (the web host: --data and PROCURE_PASSPHRASE)', async () => {
    const web = await desktopApp(false);
    const status = await web.call('connection.status');
    expect(status).toMatchObject({ ok: true, value: { secretStore: 'memory' } });
    expect(status).not.toHaveProperty('value.passphraseFileOffered');
    expect(await web.call('secrets.usePassphraseFile', { passphrase: PASSPHRASE })).toMatchObject({ ok: false, error: { code: 'ACTION_NOT_ALLOWED' } });
    expect(web.secrets.store.kind).toBe('memory');
    await web.core.close();
  });
});
