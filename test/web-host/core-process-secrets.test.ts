// The core process gets its secrets over its port only: the API key, the vault's data key and the
// passphrase never appear in its argv or environment, even when the web host itself was started with
// PROCURE_PASSPHRASE (and an API key) in its environment. Read from /proc of the running core child,
// after it connected to the demo merchant.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_SECRET, PassphraseSecretStore, RedactingLogger } from '../../src/core';
import { CURRENT_KEY_SECRET } from '../../src/core/vault/card-cipher';
import { runWebHost, type RunningWebHost } from '../../src/web-host/run-web-host';
import { fakeRendererDir } from './web-host-kit';

const PASSPHRASE = 'core-env-test-passphrase-42';
let host: RunningWebHost;
let dataDir = '';
const savedEnv = { passphrase: process.env['PROCURE_PASSPHRASE'], apiKey: process.env['PROCURE_API_KEY'] };

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'procure-core-env-'));
  // The host's environment (this process's: the host runs here) holds the passphrase, as `npm run web` does.
  process.env['PROCURE_PASSPHRASE'] = PASSPHRASE;
  host = await runWebHost({
    args: { port: 0, dataDir, demo: true, rendererDir: fakeRendererDir().dir, exitOnStdinClose: false },
    passphrase: PASSPHRASE,
    logger: new RedactingLogger({ sink: () => undefined }),
    notice: () => undefined,
  });
  const started = await host.core.handle('connection.startDemo', undefined);
  expect(started.ok).toBe(true);
}, 60_000);

afterAll(async () => {
  await host?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  for (const [name, value] of [['PROCURE_PASSPHRASE', savedEnv.passphrase], ['PROCURE_API_KEY', savedEnv.apiKey]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe.runIf(process.platform === 'linux')('the core process’s argv and environment', () => {
  it('hold neither the API key, nor the vault data key, nor the passphrase', async () => {
    const stored = await PassphraseSecretStore.open({ filePath: join(dataDir, 'secrets.json'), passphrase: PASSPHRASE });
    const apiKey = await stored.get(API_KEY_SECRET);
    const dataKey = await stored.get(CURRENT_KEY_SECRET);
    expect(apiKey).toMatch(/.{16,}/);
    expect(dataKey).toMatch(/.{16,}/);
    const secrets = { apiKey: apiKey ?? '', dataKey: dataKey ?? '', passphrase: PASSPHRASE };

    // A restart launches the child again from the host's environment: an API key there must stay there too.
    process.env['PROCURE_API_KEY'] = secrets.apiKey;
    const before = host.core.pid();
    process.kill(before ?? -1, 'SIGKILL');
    await expect.poll(() => host.core.pid() !== before && host.core.state() === 'ready', { timeout: 30_000 }).toBe(true);
    // The restarted core reads its keys over the port and answers as before.
    await expect(host.core.handle('account.get', undefined)).resolves.toMatchObject({ ok: true });

    const pid = host.core.pid();
    expect(pid).toBeTypeOf('number');
    expect(pid).not.toBe(process.pid);
    const cmdline = readFileSync(`/proc/${String(pid)}/cmdline`, 'utf8');
    const environ = readFileSync(`/proc/${String(pid)}/environ`, 'utf8');
    // The right process: the core entry, and an environment that was read (it has PATH).
    expect(cmdline).toContain('core-process-main');
    expect(environ).toContain('PATH=');
    // The host's environment, which the launcher starts the child from, does hold them.
    expect(process.env['PROCURE_PASSPHRASE']).toBe(PASSPHRASE);
    expect(process.env['PROCURE_API_KEY']).toBe(secrets.apiKey);
    for (const [what, value] of Object.entries(secrets)) {
      expect(cmdline.includes(value), `${what} in the core's argv`).toBe(false);
      expect(environ.includes(value), `${what} in the core's environment`).toBe(false);
    }
    expect(environ).not.toMatch(/PROCURE_/);
  });
});
