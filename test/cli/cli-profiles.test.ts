// `--profile NAME` on every command and `profiles list|add|remove` (issue 17, contract §15.5), as a
// script runs them against one sandbox with two accounts (two merchant connections): a second profile
// connected with its own key places its order on its own account only, an order's ref finds its
// profile without --profile, and removing is refused without --yes, while the profile's work is open
// (with the counts, exit 3) and for the last profile, then deletes the profile's folder and secrets.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PassphraseSecretStore } from '../../src/core/secrets/passphrase-secret-store';
import { control } from '../support/merchant-http';
import { startSandbox, type RunningSandbox } from '../support/sandbox-process';
import { chargesOf, jsonOf, PASSPHRASE, pickCardProduct, runCli, type CliOptions, type CliResult, type OrderRow } from './cli-kit';
import type { ProfileRow } from '../../src/cli/commands/profiles-commands';

let sandbox: RunningSandbox;
let root: string;
let dir: string;
let second: { userId: string; apiKey: string };

const cli = (args: readonly string[], options: CliOptions = {}): Promise<CliResult> => runCli(dir, args, options);
const profiles = async (): Promise<ProfileRow[]> => {
  const listed = await cli(['profiles', 'list', '--json']);
  expect(listed.code, listed.stderr).toBe(0);
  return jsonOf<ProfileRow[]>(listed);
};

beforeAll(async () => {
  sandbox = await startSandbox(['--products', '60']);
  second = await control<{ userId: string; apiKey: string }>(sandbox, 'POST', '/control/accounts', { balance: '500' });
  root = mkdtempSync(join(tmpdir(), 'procure-cli-profiles-'));
  dir = join(root, 'data');
}, 60_000);

afterAll(async () => {
  await sandbox?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('cli profiles', () => {
  it('lists, adds and connects a second profile by name in any case; each works with its own account', async () => {
    const connected = await cli(['connect', '--base-url', sandbox.baseUrl, '--user-id', sandbox.userId, '--ca-cert', sandbox.caCertFile], { apiKeyEnv: sandbox.apiKey });
    expect(connected.code, connected.stderr).toBe(0);
    const added = await cli(['profiles', 'add', 'Second Shop', '--json']);
    expect(added.code, added.stderr).toBe(0);
    expect(jsonOf(added)).toEqual({ id: 'p2', name: 'Second Shop' });
    const taken = await cli(['profiles', 'add', 'SECOND shop']);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain('already has this name');

    const before = await profiles();
    expect(before.map((p) => [p.id, p.active, p.connected])).toEqual([
      ['p1', true, true],
      ['p2', false, false],
    ]);
    const connect2 = await cli(['connect', '--profile', 'second shop', '--base-url', sandbox.baseUrl, '--user-id', second.userId, '--ca-cert', sandbox.caCertFile], { apiKeyEnv: second.apiKey });
    expect(connect2.code, connect2.stderr).toBe(0);
    const after = await profiles();
    expect(after[1]).toEqual({ id: 'p2', name: 'Second Shop', active: false, connected: true, baseUrl: sandbox.baseUrl, userId: second.userId });
    expect(after[0]?.userId).toBe(sandbox.userId);
    const text = await cli(['profiles', 'list']);
    expect(text.stdout).toMatch(/^\* p1\t/m);
    // The key is never shown.
    expect(text.stdout + JSON.stringify(after)).not.toContain(second.apiKey);

    const product = await pickCardProduct(sandbox);
    const placed = await cli(['order', 'create', '--profile', 'p2', '--product', String(product.productRef), '--units', '1', '--max-price', product.price, '--json']);
    expect(placed.code, placed.stderr).toBe(0);
    const ref = jsonOf<{ clientOrderRef: string }>(placed).clientOrderRef;
    expect((await chargesOf(sandbox, second.userId)).map((c) => c.clientOrderRef)).toEqual([ref]);
    expect((await chargesOf(sandbox, sandbox.userId)).map((c) => c.clientOrderRef)).not.toContain(ref);

    const ordersOfActive = jsonOf<OrderRow[]>(await cli(['orders', '--json']));
    expect(ordersOfActive.map((o) => o.clientOrderRef)).not.toContain(ref);
    const ordersOfSecond = jsonOf<OrderRow[]>(await cli(['orders', '--profile', 'SECOND SHOP', '--json']));
    expect(ordersOfSecond.map((o) => o.clientOrderRef)).toEqual([ref]);

    // The ref finds its profile without --profile; with the wrong --profile it is unknown there.
    const shown = await cli(['order', 'show', ref, '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(jsonOf<{ intent: { clientOrderRef: string } }>(shown).intent.clientOrderRef).toBe(ref);
    const wrong = await cli(['order', 'show', ref, '--profile', 'p1']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(`no order ${ref}`);
    const unknown = await cli(['orders', '--profile', 'nobody']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no merchant profile "nobody"');
  }, 120_000);

  it('remove: --yes required, refused with open work (counts, exit 3), then deletes the folder and secrets; never the last profile', async () => {
    const third = await cli(['profiles', 'add', 'Third']);
    expect(third.code, third.stderr).toBe(0);
    const connect3 = await cli(['connect', '--profile', 'third', '--base-url', sandbox.baseUrl, '--user-id', second.userId, '--ca-cert', sandbox.caCertFile], { apiKeyEnv: second.apiKey });
    expect(connect3.code, connect3.stderr).toBe(0);
    const product = await pickCardProduct(sandbox);
    const queued = await cli(['order', 'create', '--profile', 'Third', '--product', String(product.productRef), '--units', '1', '--max-price', product.price, '--queue-only', '--json']);
    expect(queued.code, queued.stderr).toBe(0);
    const ref = jsonOf<{ clientOrderRef: string }>(queued).clientOrderRef;
    expect(existsSync(join(dir, 'profiles', 'p3', 'procure-desk.sqlite'))).toBe(true);

    const unconfirmed = await cli(['profiles', 'remove', 'third']);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('--yes');
    const busy = await cli(['profiles', 'remove', 'third', '--yes']);
    expect(busy.code, busy.stderr).toBe(3);
    expect(busy.stderr).toContain('1 order(s) not yet accepted');
    expect((await profiles()).map((p) => p.id)).toEqual(['p1', 'p2', 'p3']);

    // Withdrawn without --profile: the ref names its profile.
    const withdrawn = await cli(['order', 'withdraw', ref]);
    expect(withdrawn.code, withdrawn.stderr).toBe(0);
    const removed = await cli(['profiles', 'remove', 'p3', '--yes', '--json']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(jsonOf(removed)).toMatchObject({ removed: 'p3', name: 'Third' });
    expect(existsSync(join(dir, 'profiles', 'p3'))).toBe(false);
    expect((await profiles()).map((p) => p.id)).toEqual(['p1', 'p2']);
    const store = await PassphraseSecretStore.open({ filePath: join(dir, 'secrets.json'), passphrase: PASSPHRASE });
    expect(await store.get('profile.p3.merchant.api-key')).toBeNull();
    expect(await store.get('profile.p2.merchant.api-key')).toBe(second.apiKey);
    expect(await store.get('merchant.api-key')).toBe(sandbox.apiKey);

    // p2 holds an order the merchant has not finished (no runner tracks it here): refused too.
    const busy2 = await cli(['profiles', 'remove', 'second shop', '--yes']);
    expect(busy2.code).toBe(3);
    expect(busy2.stderr).toMatch(/order\(s\) not finished/);
    // p1 (the data folder's own database) has no work: it goes, its secrets with it; then p2 is the last one.
    const removeFirst = await cli(['profiles', 'remove', 'p1', '--yes']);
    expect(removeFirst.code, removeFirst.stderr).toBe(0);
    expect(existsSync(join(dir, 'procure-desk.sqlite'))).toBe(false);
    expect(await (await PassphraseSecretStore.open({ filePath: join(dir, 'secrets.json'), passphrase: PASSPHRASE })).get('merchant.api-key')).toBeNull();
    const last = await cli(['profiles', 'remove', 'p2', '--yes']);
    expect(last.code).toBe(2);
    expect(last.stderr).toContain('last merchant profile');
    const left = await profiles();
    expect(left.map((p) => [p.id, p.active])).toEqual([['p2', true]]);
  }, 120_000);
});
