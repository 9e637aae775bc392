// `report spend` as a script runs it: orders placed through the CLI against the sandbox, then the
// report (default range: the last 30 days) whose charged total equals the merchant's ledger, the
// --json shape, the human table, and exit 2 for a bad day, a reversed range, an unknown option or
// report. Offline: the report reads only this machine's books.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpendReport } from '../../src/shared/ipc/views/books';
import { parseYuanText } from '../../src/shared/money';
import { startSandbox, type RunningSandbox } from '../support/sandbox-process';
import { chargesOf, jsonOf, pickCardProduct, runCli, type CliOptions, type CliResult } from './cli-kit';

let sandbox: RunningSandbox;
let root: string;
let dir: string;

const cli = (args: readonly string[], options: CliOptions = {}): Promise<CliResult> => runCli(dir, args, { ...options, secrets: [sandbox.apiKey] });

beforeAll(async () => {
  sandbox = await startSandbox(['--products', '20']);
  root = mkdtempSync(join(tmpdir(), 'procure-cli-report-'));
  dir = join(root, 'data');
});

afterAll(async () => {
  await sandbox?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('cli: report spend', () => {
  it("prints the charged total the merchant's ledger holds, as JSON and as a table", async () => {
    const connected = await cli(['connect', '--base-url', sandbox.baseUrl, '--user-id', sandbox.userId, '--ca-cert', sandbox.caCertFile], { apiKeyEnv: sandbox.apiKey });
    expect(connected.code, connected.stderr).toBe(0);
    const empty = await cli(['report', 'spend', '--json']);
    expect(empty.code, empty.stderr).toBe(0);
    expect(jsonOf<SpendReport>(empty).totals).toMatchObject({ orders: 0, chargedFen: 0, netFen: 0, successRate: null });

    const card = await pickCardProduct(sandbox);
    for (let i = 0; i < 2; i += 1) {
      const placed = await cli(['order', 'create', '--product', String(card.productRef), '--units', '1', '--json']);
      expect(placed.code, placed.stderr).toBe(0);
    }
    const charged = (await chargesOf(sandbox, sandbox.userId)).reduce((s, c) => s + (parseYuanText(c.amount) ?? Number.NaN), 0);

    const result = await cli(['report', 'spend', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const report = jsonOf<SpendReport>(result);
    expect(Object.keys(report).sort()).toEqual(['balance', 'byCategory', 'byProduct', 'choices', 'days', 'fromMs', 'query', 'toMs', 'totals']);
    expect(report.days).toHaveLength(30);
    expect(report.totals.orders).toBe(2);
    expect(report.totals.chargedFen).toBe(charged);
    expect(report.totals.netFen).toBe(charged);
    expect(report.byProduct).toEqual([expect.objectContaining({ key: card.productRef, orders: 2, chargedFen: charged })]);
    expect(report.balance.length).toBeGreaterThanOrEqual(1);

    const oneProduct = jsonOf<SpendReport>(await cli(['report', 'spend', '--product', String(card.productRef + 1), '--json']));
    expect(oneProduct.totals.orders).toBe(0);

    const today = report.query.to;
    const table = await cli(['report', 'spend', '--from', today, '--to', today]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain(`spend ${today} … ${today}`);
    expect(table.stdout).toContain(`orders 2\tcharged ¥${(charged / 100).toFixed(2)}`);
  });

  it('exits 2 for a bad day, a reversed or too long range, an unknown option or report', async () => {
    for (const args of [
      ['report', 'spend', '--from', '2026-02-30'],
      ['report', 'spend', '--from', 'yesterday'],
      ['report', 'spend', '--from', '2026-11-10', '--to', '2026-11-01'],
      ['report', 'spend', '--from', '2020-01-01', '--to', '2026-01-01'],
      ['report', 'spend', '--product', 'abc'],
      ['report', 'spend', '--units', '3'],
      ['report', 'spend', '--from', '2026-11-01', '--from', '2026-11-02'],
      ['report', 'money'],
      ['report'],
    ]) {
      const result = await cli(args);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toMatch(/^error: /);
      expect(result.stdout).toBe('');
    }
  });
});
