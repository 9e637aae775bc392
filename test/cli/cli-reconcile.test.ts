// `reconcile` as a script runs it: a child process against the sandbox (orders move only when the test
// moves them). Exit 0 on a clean day, 6 with the differences when another client placed an order on the
// same account, 2 for a bad day; --json prints the report (money in fen), the text form one line per
// difference; the key is in no output.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReconcileReport } from '../../src/shared/ipc/views/reconcile';
import { callApi, control } from '../support/merchant-http';
import { startSandbox, type RunningSandbox } from '../support/sandbox-process';
import { orderShow, waitFor, withRunner } from './cards-kit';
import { jsonOf, pickCardProduct, runCli, spawnCli, type CliResult } from './cli-kit';

let sandbox: RunningSandbox;
let root: string;
let dir: string;
let card: { productRef: number; price: string };
const runs: CliResult[] = [];

const today = (): string => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

async function cli(args: readonly string[]): Promise<CliResult> {
  const result = await runCli(dir, args, { secrets: [sandbox.apiKey] });
  runs.push(result);
  return result;
}

beforeAll(async () => {
  sandbox = await startSandbox(['--products', '20', '--auto-advance', 'off']);
  root = mkdtempSync(join(tmpdir(), 'procure-cli-reconcile-'));
  dir = join(root, 'data');
  card = await pickCardProduct(sandbox);
  const connected = await runCli(dir, ['connect', '--base-url', sandbox.baseUrl, '--user-id', sandbox.userId, '--ca-cert', sandbox.caCertFile], { apiKeyEnv: sandbox.apiKey });
  expect(connected.code, connected.stderr).toBe(0);
});

afterAll(async () => {
  await sandbox?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('cli: reconcile', () => {
  it('exits 0 when nothing differs (an order of this app, as the merchant has it)', async () => {
    const placed = await cli(['order', 'create', '--product', String(card.productRef), '--units', '1', '--json']);
    expect(placed.code, placed.stderr).toBe(0);
    const result = await cli(['reconcile', '--from', today(), '--to', today(), '--json']);
    expect(result.code, result.stderr).toBe(0);
    const report = jsonOf<ReconcileReport>(result);
    expect(report.differences).toEqual([]);
    expect(report.totals).toMatchObject({ merchantOrders: 1, appOrders: 1, differences: 0 });
    expect(report.totals.merchantChargedFen).toBe(Math.round(Number(card.price) * 100));
    expect(result.stderr).toMatch(/reconcile: page 1\/1/);
  });

  it('exits 6 with the foreign order another client placed on the same account, in JSON and in text', async () => {
    const ref = `EXT-cli-${Date.now()}`;
    const created = await callApi<{ clientOrderRef: string }>(sandbox, 'POST', '/orders/create', { body: { clientOrderRef: ref, productRef: card.productRef, units: 1 } });
    expect(created.json?.code, created.text).toBe(0);
    const json = await cli(['reconcile', '--from', today(), '--json']);
    expect(json.code, json.stderr).toBe(6);
    const report = jsonOf<ReconcileReport>(json);
    expect(report.differences).toMatchObject([{ kind: 'foreign', clientOrderRef: ref }]);
    const text = await cli(['reconcile', '--from', today()]);
    expect(text.code).toBe(6);
    expect(text.stdout).toContain(`foreign\t`);
    expect(text.stdout).toContain(ref);
    expect(text.stdout).toMatch(/1 differences/);
    // The closing balance's reading time, as every time the CLI writes (contract §16.5): local, no "T", no locale form.
    expect(text.stdout).toMatch(/closing ¥[\d.,]+ \([^)]*\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\)/);
  });

  it('exits 6 naming a card the merchant took back (2 cards to 1), though the vault and the units agree', async () => {
    const placed = await cli(['order', 'create', '--product', String(card.productRef), '--units', '2', '--json']);
    expect(placed.code, placed.stderr).toBe(0);
    const ref = jsonOf<{ clientOrderRef: string }>(placed).clientOrderRef;
    // Completed at the merchant; `run` hears of it and stores both cards in the vault.
    await withRunner(dir, async () => {
      await control(sandbox, 'POST', `/control/orders/${ref}/advance`, { to: 'processing' });
      await control(sandbox, 'POST', `/control/orders/${ref}/advance`, { to: 'completed' });
      await waitFor(`the cards of ${ref}`, async () => (await orderShow(dir, ref)).cards.length === 2);
    });
    await control(sandbox, 'POST', `/control/orders/${ref}/tamper`, { cards: 1 });
    const json = await cli(['reconcile', '--from', today(), '--json']);
    expect(json.code, json.stderr).toBe(6);
    expect(jsonOf<ReconcileReport>(json).differences).toContainEqual(expect.objectContaining({ kind: 'cards', clientOrderRef: ref, units: 2, merchantCards: 1, vaultCards: 2 }));
    const text = await cli(['reconcile', '--from', today()]);
    expect(text.code).toBe(6);
    expect(text.stdout).toContain(`cards\t`);
    expect(text.stdout).toContain('merchant 1 cards, vault 2, units 2');
    expect(text.stdout.split('\n')[0]).toMatch(/^(DIFFERENCES|NOT FULLY CHECKED)/);
  }, 120_000);

  it('exits 2 for a day that does not exist, a range backwards, or an option it does not take', async () => {
    for (const args of [['reconcile', '--from', '2026-02-30'], ['reconcile', '--from', today(), '--to', '2020-01-01'], ['reconcile', '--product', '1']]) {
      const result = await cli(args);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
    }
  });

  it('killed mid-run, continues at the page it had not stored: no stored page asked again, the same result', async () => {
    // 250 more orders (three pages of 100), each answer slowed so the kill lands mid-run.
    for (let i = 0; i < 250; i++) await control(sandbox, 'POST', `/control/accounts/${sandbox.userId}/orders`, { clientOrderRef: `SHOP-${i}`, productRef: card.productRef, units: 1 });
    await control(sandbox, 'POST', '/control/faults', { latencyMs: 1500 });
    try {
      const first = spawnCli(dir, ['reconcile', '--from', today(), '--json'], { secrets: [sandbox.apiKey] });
      let said = '';
      await new Promise<void>((resolve) => {
        first.child.stderr?.on('data', (chunk: string) => {
          said += chunk;
          if (said.includes('page 1/3')) resolve();
        });
      });
      first.child.kill('SIGKILL');
      const killed = await first.result;
      expect(killed.signal).toBe('SIGKILL');
      const resumed = await cli(['reconcile', '--from', today(), '--json']);
      expect(resumed.code, resumed.stderr).toBe(6);
      // Page 1 was stored before the kill: the resumed run starts at page 2.
      expect(resumed.stderr).not.toContain('page 1/3');
      expect(resumed.stderr).toContain('page 3/3');
      const report = jsonOf<ReconcileReport>(resumed);
      expect(report.resumed).toBe(true);
      expect(report.pagesRead).toBe(3);
      expect(report.totals.merchantOrders).toBe(253);
      expect(report.differences.filter((d) => d.kind === 'foreign')).toHaveLength(251);
    } finally {
      await control(sandbox, 'POST', '/control/faults', { latencyMs: 0 });
    }
  }, 120_000);

  it('prints its usage line in --help, and the key in no output', async () => {
    const help = await runCli(dir, ['--help']);
    expect(help.stdout).toContain('reconcile [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--json]');
    for (const run of runs) expect(`${run.stdout}${run.stderr}`).not.toContain(sandbox.apiKey);
  });
});
