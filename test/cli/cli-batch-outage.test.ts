// `batch --yes` when the merchant goes away after the preview: every valid row is recorded before
// anything is sent, the command exits 4 with the rows kept (queued), and `run --until-idle` sends them
// once the merchant is back: exactly one charge per row in the sandbox's ledger. The merchant is taken
// away by the CLI kit's TCP relay (same merchant, same address when it comes back).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../support/sandbox-process';
import { chargesOf, jsonOf, pickCardProduct, runCli, TcpRelay } from './cli-kit';

let sandbox: RunningSandbox;
let relay: TcpRelay;
let root: string;
let dataDir: string;
let product: { productRef: number; price: string };

beforeAll(async () => {
  sandbox = await startSandbox(['--products', '20']);
  relay = await TcpRelay.start(sandbox.baseUrl);
  root = mkdtempSync(join(tmpdir(), 'procure-cli-batch-outage-'));
  dataDir = join(root, 'data');
  product = await pickCardProduct(sandbox);
  const connect = await runCli(dataDir, ['connect', '--base-url', relay.urlFor(sandbox.baseUrl), '--user-id', sandbox.userId, '--ca-cert', sandbox.caCertFile], { apiKeyEnv: sandbox.apiKey });
  expect(connect.code, connect.stderr).toBe(0);
});

afterAll(async () => {
  await relay?.close();
  await sandbox?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('cli: batch while the merchant is away', () => {
  it('exits 4 with every valid row kept, and run --until-idle sends each exactly once when the merchant is back', async () => {
    const file = join(root, 'rows.csv');
    writeFileSync(file, 'qty,who\n1,a\n1,b\n1,c\n');
    const args = ['batch', file, '--product', String(product.productRef), '--max-price', product.price, '--map', 'qty=units', '--json'];
    // The preview fetches and caches the order form while the merchant answers.
    const preview = await runCli(dataDir, args);
    expect(preview.code, preview.stderr).toBe(0);

    await relay.cut();
    let batch: { batchId: string; counts: Record<string, number>; rows: { clientOrderRef: string; status: string }[] };
    try {
      const away = await runCli(dataDir, [...args, '--yes']);
      expect(away.code, away.stderr).toBe(4);
      batch = jsonOf(away);
      expect(batch.rows).toHaveLength(3);
      expect(batch.rows.every((row) => row.status === 'queued' || row.status === 'unknown')).toBe(true);
    } finally {
      await relay.restore();
    }
    const run = await runCli(dataDir, ['run', '--until-idle'], { timeoutMs: 120_000 });
    expect(run.code, run.stderr).toBe(0);
    const charges = await chargesOf(sandbox, sandbox.userId);
    for (const row of batch.rows) expect(charges.filter((c) => c.clientOrderRef === row.clientOrderRef).map((c) => c.amount)).toHaveLength(1);
    expect(charges).toHaveLength(3);
  });
});
