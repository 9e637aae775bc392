// The CLI run the simplest way a script can: only PROCURE_API_KEY (or stdin), no PROCURE_PASSPHRASE.
// The data folder then keeps its own random passphrase in a 0600 key file, says so once, and still
// stores neither the API key nor anything else in plain text; a folder made with a passphrase keeps
// asking for it.
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../support/sandbox-process';
import { chargesOf, filesContaining, jsonOf, pickCardProduct, runCli } from './cli-kit';

let sandbox: RunningSandbox;
let root: string;

beforeAll(async () => {
  sandbox = await startSandbox(['--products', '20']);
  root = mkdtempSync(join(tmpdir(), 'procure-cli-keyfile-'));
});

afterAll(async () => {
  await sandbox?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('cli without PROCURE_PASSPHRASE', () => {
  it('connects with only PROCURE_API_KEY, keeps a 0600 key file, and later commands use it', async () => {
    const dir = join(root, 'plain');
    const connect = await runCli(dir, ['connect', '--base-url', sandbox.baseUrl, '--user-id', sandbox.userId, '--ca-cert', sandbox.caCertFile], {
      apiKeyEnv: sandbox.apiKey,
      passphrase: null,
    });
    expect(connect.code, connect.stderr).toBe(0);
    expect(jsonOf<{ userId: string }>(connect).userId).toBe(sandbox.userId);
    expect(connect.stderr).toContain('PROCURE_PASSPHRASE is not set');
    const keyFile = join(dir, 'passphrase.key');
    if (process.platform !== 'win32') expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(keyFile, 'utf8').trim().length).toBeGreaterThanOrEqual(40);

    const card = await pickCardProduct(sandbox);
    const order = await runCli(dir, ['order', 'create', '--product', String(card.productRef), '--units', '1', '--json'], { passphrase: null });
    expect(order.code, order.stderr).toBe(0);
    // Said once, when the file was made.
    expect(order.stderr).not.toContain('PROCURE_PASSPHRASE is not set');
    const { clientOrderRef } = jsonOf<{ clientOrderRef: string }>(order);
    expect((await chargesOf(sandbox, sandbox.userId)).filter((c) => c.clientOrderRef === clientOrderRef)).toHaveLength(1);

    // The key file protects the secret file; the API key itself is in no file of the folder.
    expect(filesContaining(dir, sandbox.apiKey)).toEqual([]);
  });

  // Only POSIX has "others can read" mode bits; src/cli/cli-passphrase.ts checks them only there.
  it.skipIf(process.platform === 'win32')('refuses a key file that others can read', async () => {
    const dir = join(root, 'loose');
    const first = await runCli(dir, ['orders', '--json'], { passphrase: null });
    expect(first.code, first.stderr).toBe(0);
    chmodSync(join(dir, 'passphrase.key'), 0o644);
    const second = await runCli(dir, ['orders', '--json'], { passphrase: null });
    expect(second.code).toBe(2);
    expect(second.stderr).toContain('chmod 600');
  });

  it('a folder protected by a passphrase asks for it instead of falling back to a key file', async () => {
    const dir = join(root, 'protected');
    const first = await runCli(dir, ['orders', '--json']);
    expect(first.code, first.stderr).toBe(0);
    const second = await runCli(dir, ['orders', '--json'], { passphrase: null });
    expect(second.code).toBe(2);
    expect(second.stderr).toContain('set PROCURE_PASSPHRASE');
    expect(() => statSync(join(dir, 'passphrase.key'))).toThrow();
  });
});
