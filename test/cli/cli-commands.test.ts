// The CLI as a script uses it (docs/cli.md): a child process per command against the real
// sandbox over HTTPS. Proves the key travels by env or stdin only and is stored nowhere in plain text,
// the exit codes (0, 2 usage, 3 business error with its code), the JSON outputs, offline search after
// a sync, and that queued or submitted orders are charged exactly once in the merchant's ledger.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readApiKey } from '../../src/core/connection/connection-settings';
import { PassphraseSecretStore } from '../../src/core/secrets/passphrase-secret-store';
import { control } from '../support/merchant-http';
import { startSandbox, type RunningSandbox } from '../support/sandbox-process';
import {
  chargesOf,
  filesContaining,
  jsonOf,
  listOrders,
  PASSPHRASE,
  pickCardProduct,
  runCli,
  type CliOptions,
  type CliResult,
  type ControlProduct,
} from './cli-kit';

let sandbox: RunningSandbox;
let sandboxStopped = false;
let root: string;
/** Connected with the key in PROCURE_API_KEY: the folder most commands below work in. */
let envDir: string;
/** Connected with the key on stdin. */
let stdinDir: string;
let card: { productRef: number; price: string };
/** Every CLI run of this file, to prove afterwards that none printed the key. */
const runs: CliResult[] = [];

async function cli(dataDir: string, args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const result = await runCli(dataDir, args, { ...options, secrets: [sandbox.apiKey] });
  runs.push(result);
  return result;
}

beforeAll(async () => {
  // 20 products: a sync under the client's real-clock quotas takes a few seconds, not a minute.
  sandbox = await startSandbox(['--products', '20']);
  root = mkdtempSync(join(tmpdir(), 'procure-cli-'));
  envDir = join(root, 'env');
  stdinDir = join(root, 'stdin');
  card = await pickCardProduct(sandbox);
});

afterAll(async () => {
  if (!sandboxStopped) await sandbox?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('cli: connect', () => {
  it('takes the key from PROCURE_API_KEY and prints the account with the balance as yuan text', async () => {
    const result = await cli(envDir, ['connect', '--base-url', sandbox.baseUrl, '--user-id', sandbox.userId, '--ca-cert', sandbox.caCertFile], { apiKeyEnv: sandbox.apiKey });
    expect(result.code, result.stderr).toBe(0);
    const account = jsonOf<{ userId: string; accessState: string; balance: unknown }>(result);
    expect(account.userId).toBe(sandbox.userId);
    expect(account.accessState).toBe('active');
    const ledger = await control<{ balance: string }>(sandbox, 'GET', `/control/ledger/${sandbox.userId}`);
    expect(account.balance).toBe(ledger.balance);
    expect(typeof account.balance === 'string' && /^\d+\.\d{2}$/.test(account.balance)).toBe(true);
  });

  it('reads the key from stdin when PROCURE_API_KEY is unset', async () => {
    const result = await cli(stdinDir, ['connect', '--base-url', sandbox.baseUrl, '--user-id', sandbox.userId, '--ca-cert', sandbox.caCertFile], { stdin: `${sandbox.apiKey}\n` });
    expect(result.code, result.stderr).toBe(0);
    expect(jsonOf<{ userId: string; balance: unknown }>(result)).toMatchObject({ userId: sandbox.userId, balance: '10000.00' });
    // Connected for real: a later command uses the stored key without being given it again.
    const sync = await cli(stdinDir, ['orders', '--json']);
    expect(sync.code, sync.stderr).toBe(0);
  });

  it('a wrong key exits 3 with 401001 and stores no credentials', async () => {
    const dir = join(root, 'wrong-key');
    const wrongKey = `AK_${'0'.repeat(32)}`;
    const result = await runCli(dir, ['connect', '--base-url', sandbox.baseUrl, '--user-id', sandbox.userId, '--ca-cert', sandbox.caCertFile], { apiKeyEnv: wrongKey });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('401001');
    expect(result.stdout).toBe('');
    expect(`${result.stdout}${result.stderr}`).not.toContain(wrongKey);
    // Nothing stored: the secret file holds no key and a command needing the merchant says so.
    const secrets = await PassphraseSecretStore.open({ filePath: join(dir, 'secrets.json'), passphrase: PASSPHRASE });
    expect(await readApiKey(secrets)).toBeNull();
    secrets.close();
    const sync = await runCli(dir, ['sync']);
    expect(sync.code).toBe(2);
    expect(sync.stderr).toContain('not connected');
    expect(filesContaining(dir, wrongKey)).toEqual([]);
  });
});

describe('cli: bad usage exits 2', () => {
  it.each([
    ['an unknown command', ['frobnicate']],
    ['a missing --units', ['order', 'create', '--product', '1001']],
    ['--units that is not a number', ['order', 'create', '--product', '1001', '--units', 'abc']],
    ['an unknown option', ['order', 'create', '--product', '1001', '--units', '1', '--colour', 'red']],
    ['an option without its value', ['search', '--data-dir']],
  ])('%s', async (_what, args) => {
    const before = (await chargesOf(sandbox, sandbox.userId)).length;
    const result = await cli(envDir, args);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('usage:');
    expect(result.stdout).toBe('');
    expect((await chargesOf(sandbox, sandbox.userId)).length).toBe(before);
  });

});

describe('cli: catalog and orders', () => {
  it('sync prints progress on stderr and a JSON summary on stdout; templates only where wanted unless --templates', async () => {
    const result = await cli(envDir, ['sync']);
    expect(result.code, result.stderr).toBe(0);
    type Summary = { detailsFetched: number; templateScope: string; templatesFetched: number; counts: { products: number; variants: number; templates: number } };
    const summary = jsonOf<Summary>(result);
    expect(summary.counts.products).toBe(20);
    expect(summary.detailsFetched).toBe(20);
    // Nothing watched, nothing ordered: no template yet (an order fetches its own).
    expect(summary).toMatchObject({ templateScope: 'wanted', templatesFetched: 0 });
    expect(summary.counts.templates).toBe(0);
    expect(result.stderr).toMatch(/sync \w+: \d+\/\d+/);
    const all = await cli(envDir, ['sync', '--templates']);
    expect(all.code, all.stderr).toBe(0);
    const full = jsonOf<Summary>(all);
    expect(full).toMatchObject({ templateScope: 'all', detailsFetched: 0 });
    expect(full.counts.templates).toBe(full.counts.variants);
  });

  it('order create for a card product prints {clientOrderRef, state}, exits 0 and is charged once', async () => {
    const result = await cli(envDir, ['order', 'create', '--product', String(card.productRef), '--units', '1', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const out = jsonOf<{ clientOrderRef: string; state: string }>(result);
    expect(out.clientOrderRef).toMatch(/^o_[A-Za-z0-9_-]+$/);
    expect(typeof out.state).toBe('string');
    const charges = (await chargesOf(sandbox, sandbox.userId)).filter((c) => c.clientOrderRef === out.clientOrderRef);
    expect(charges).toHaveLength(1);
    expect(charges[0]?.amount).toBe(card.price);
    const row = (await listOrders(envDir)).find((o) => o.clientOrderRef === out.clientOrderRef);
    expect(row).toMatchObject({ status: 'accepted', total: card.price });
  });

  it('a top-up takes its account with --entry field=value', async () => {
    const products = await control<ControlProduct[]>(sandbox, 'GET', '/control/products?limit=200');
    // The template's fields come from the CLI's own cache (filled by sync above).
    const db = new Database(join(envDir, 'procure-desk.sqlite'), { readonly: true, fileMustExist: true });
    const templates = db.prepare<[], { product_ref: number; template_json: string }>("SELECT product_ref, template_json FROM templates WHERE entry_mode = 'single' AND variant_ref = 0").all();
    db.close();
    const pick = templates
      .map((t) => ({ productRef: t.product_ref, fields: (JSON.parse(t.template_json) as { purchaseFields: { fieldRef: string; type: string; required: boolean }[] }).purchaseFields }))
      .find((t) => {
        const variant = products.find((p) => p.productRef === t.productRef)?.variants[0];
        return variant?.supply === 'succeed' && variant.availability === 'available' && variant.unitRule.min === 1 && t.fields.length === 1 && t.fields[0]?.type === 'mobile';
      });
    expect(pick, 'a single-entry mobile top-up in the catalog').toBeDefined();
    if (pick === undefined) return;
    const field = pick.fields[0]?.fieldRef ?? '';
    const mobile = '13812345678';
    const result = await cli(envDir, ['order', 'create', '--product', String(pick.productRef), '--units', '1', '--entry', `${field}=${mobile}`, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const out = jsonOf<{ clientOrderRef: string; state: string }>(result);
    expect((await chargesOf(sandbox, sandbox.userId)).filter((c) => c.clientOrderRef === out.clientOrderRef)).toHaveLength(1);
    // The account number is sensitive in the template: the log must not carry it.
    expect(filesContaining(envDir, mobile).filter((name) => name.endsWith('.log'))).toEqual([]);
  });

  it('a business error exits 3 and prints the code in the JSON; nothing is charged', async () => {
    await control(sandbox, 'POST', `/control/accounts/${sandbox.userId}`, { balance: '0.01' });
    try {
      const result = await cli(envDir, ['order', 'create', '--product', String(card.productRef), '--units', '1', '--json']);
      expect(result.code, result.stderr).toBe(3);
      const out = jsonOf<{ clientOrderRef: string; state: string; code: number; requestId: string | null }>(result);
      expect(out).toMatchObject({ state: 'rejected', code: 422103 });
      expect(out.requestId).toBeTruthy();
      expect((await chargesOf(sandbox, sandbox.userId)).filter((c) => c.clientOrderRef === out.clientOrderRef)).toEqual([]);
      expect((await listOrders(envDir)).find((o) => o.clientOrderRef === out.clientOrderRef)).toMatchObject({ status: 'rejected', lastErrorCode: '422103' });
    } finally {
      await control(sandbox, 'POST', `/control/accounts/${sandbox.userId}`, { balance: '10000' });
    }
  });

  it('--queue-only records without sending; run --until-idle sends it exactly once', async () => {
    const chargesBefore = (await chargesOf(sandbox, sandbox.userId)).length;
    const queued = await cli(envDir, ['order', 'create', '--product', String(card.productRef), '--units', '1', '--queue-only', '--json']);
    expect(queued.code, queued.stderr).toBe(0);
    const { clientOrderRef } = jsonOf<{ clientOrderRef: string; state: string }>(queued);
    expect(jsonOf<{ state: string }>(queued).state).toBe('queued');
    expect((await chargesOf(sandbox, sandbox.userId)).length).toBe(chargesBefore);
    expect((await listOrders(envDir)).find((o) => o.clientOrderRef === clientOrderRef)).toMatchObject({ status: 'queued', platformOrderRef: null });

    // Another order submitted meanwhile goes alone: the parked one still waits for `run`.
    const other = await cli(envDir, ['order', 'create', '--product', String(card.productRef), '--units', '1', '--json']);
    expect(other.code, other.stderr).toBe(0);
    const otherRef = jsonOf<{ clientOrderRef: string }>(other).clientOrderRef;
    expect((await chargesOf(sandbox, sandbox.userId)).map((c) => c.clientOrderRef).filter((ref) => ref === clientOrderRef || ref === otherRef)).toEqual([otherRef]);
    expect((await listOrders(envDir)).find((o) => o.clientOrderRef === clientOrderRef)).toMatchObject({ status: 'queued', platformOrderRef: null });

    const run = await cli(envDir, ['run', '--until-idle']);
    expect(run.code, run.stderr).toBe(0);
    // A second run finds nothing to send: still one charge.
    const again = await cli(envDir, ['run', '--until-idle']);
    expect(again.code, again.stderr).toBe(0);
    const charges = await chargesOf(sandbox, sandbox.userId);
    expect(charges.filter((c) => c.clientOrderRef === clientOrderRef)).toHaveLength(1);
    expect(charges.length).toBe(chargesBefore + 2);
    expect((await listOrders(envDir)).find((o) => o.clientOrderRef === clientOrderRef)).toMatchObject({ status: 'accepted' });
  });

  it('a multi-variant product without --variant (or with one it lacks) is bad usage naming its variants; nothing is sent', async () => {
    const products = await control<ControlProduct[]>(sandbox, 'GET', '/control/products?limit=200');
    const multi = products.find((p) => p.variants.length > 1);
    expect(multi, 'a multi-variant product in the catalog').toBeDefined();
    if (multi === undefined) return;
    const before = (await chargesOf(sandbox, sandbox.userId)).length;
    const intentsBefore = (await listOrders(envDir)).length;
    for (const args of [[], ['--variant', '999']]) {
      const result = await cli(envDir, ['order', 'create', '--product', String(multi.productRef), ...args, '--units', '1', '--json']);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain('--variant');
      for (const variant of multi.variants) expect(result.stderr).toContain(`${variant.variantRef} (`);
    }
    expect((await chargesOf(sandbox, sandbox.userId)).length).toBe(before);
    expect((await listOrders(envDir)).length).toBe(intentsBefore);
  });

  it('every merchant charge is an accepted order on this machine, once', async () => {
    const accepted = (await listOrders(envDir)).filter((o) => o.status === 'accepted').map((o) => o.clientOrderRef);
    const charged = (await chargesOf(sandbox, sandbox.userId)).map((c) => c.clientOrderRef);
    expect([...charged].sort()).toEqual([...accepted].sort());
  });
});

describe('cli: the key stays secret', () => {
  it('appears in no argv, no output, and no file of the data folders (log, database, -wal, secret file)', () => {
    const key = sandbox.apiKey;
    expect(runs.length).toBeGreaterThan(5);
    for (const run of runs) {
      expect(run.argv.some((arg) => arg.includes(key))).toBe(false);
      expect(run.stdout).not.toContain(key);
      expect(run.stderr).not.toContain(key);
    }
    for (const dir of [envDir, stdinDir]) {
      expect(filesContaining(dir, key)).toEqual([]);
      // Not even the key's hex part (e.g. a log that dropped the prefix).
      expect(filesContaining(dir, key.slice(3))).toEqual([]);
    }
  });
});

describe('cli: offline', () => {
  it('search finds products from the cache with the sandbox stopped', async () => {
    await sandbox.stop();
    sandboxStopped = true;
    const result = await cli(envDir, ['search', '会员', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const found = jsonOf<{ total: number; items: { name: string; priceFrom: string | null }[] }>(result);
    expect(found.total).toBeGreaterThan(0);
    // A category's name finds its products too (contract §11.3: 腾讯视频VIP is in 视频会员), so not
    // every name says 会员; those that do come first (more of their lines hold it).
    expect(found.items[0]?.name).toContain('会员');
    expect(found.items.filter((item) => item.name.includes('会员')).length).toBeGreaterThan(found.items.length / 2);
    expect(found.items[0]?.priceFrom).toMatch(/^\d+\.\d{2}$/);
    const none = await cli(envDir, ['search', '不存在的商品名', '--json']);
    expect(jsonOf<{ total: number }>(none).total).toBe(0);
  });
});
