// `order create` when the merchant cannot be reached, or when its answer is lost after it charged:
// exit 4, the intent kept (visible, not accepted), and a later `run --until-idle` settles it with
// exactly one charge in the sandbox ledger.
//
// Why a relay: the outage must end with the SAME merchant coming back (a new sandbox would not know
// the account, its orders or its ledger), at the SAME address the data folder stored at `connect`.
// The CLI is connected through a TCP relay on a fixed loopback port; `cut()` closes that port (the
// connection is refused, exactly what a client sees of a merchant that is down) and `restore()`
// listens on it again. Fault injection (503s) would not do: the merchant still answers, so it
// tests retries of an answering server, not an unreachable one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { control } from '../support/merchant-http';
import { startSandbox, type RunningSandbox } from '../support/sandbox-process';
import { chargesOf, jsonOf, listOrders, pickCardProduct, runCli, TcpRelay } from './cli-kit';

let sandbox: RunningSandbox;
let relay: TcpRelay;
let root: string;
let dataDir: string;
let productRef: number;

beforeAll(async () => {
  sandbox = await startSandbox(['--products', '20']);
  relay = await TcpRelay.start(sandbox.baseUrl);
  root = mkdtempSync(join(tmpdir(), 'procure-cli-outage-'));
  dataDir = join(root, 'data');
  productRef = (await pickCardProduct(sandbox)).productRef;
  const connect = await runCli(dataDir, ['connect', '--base-url', relay.urlFor(sandbox.baseUrl), '--user-id', sandbox.userId, '--ca-cert', sandbox.caCertFile], {
    apiKeyEnv: sandbox.apiKey,
  });
  expect(connect.code, connect.stderr).toBe(0);
  // The template must be cached to order while the merchant is away.
  const sync = await runCli(dataDir, ['sync', '--templates']);
  expect(sync.code, sync.stderr).toBe(0);
});

afterAll(async () => {
  await relay?.close();
  await sandbox?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

async function statusOf(ref: string): Promise<string | undefined> {
  return (await listOrders(dataDir)).find((o) => o.clientOrderRef === ref)?.status;
}

describe('cli: the merchant is unreachable', () => {
  it('order create exits 4 and keeps the intent; run --until-idle sends it exactly once when the merchant is back', async () => {
    await relay.cut();
    let ref: string;
    try {
      const result = await runCli(dataDir, ['order', 'create', '--product', String(productRef), '--units', '1', '--json']);
      expect(result.code, result.stderr).toBe(4);
      const out = jsonOf<{ clientOrderRef: string; state: string }>(result);
      ref = out.clientOrderRef;
      expect(['queued', 'unknown']).toContain(out.state);
      // Kept, visible, not accepted; and the merchant never saw it.
      expect(['queued', 'unknown']).toContain(await statusOf(ref));
      expect((await chargesOf(sandbox, sandbox.userId)).filter((c) => c.clientOrderRef === ref)).toEqual([]);
    } finally {
      await relay.restore();
    }
    const run = await runCli(dataDir, ['run', '--until-idle']);
    expect(run.code, run.stderr).toBe(0);
    expect(await statusOf(ref)).toBe('accepted');
    expect((await chargesOf(sandbox, sandbox.userId)).filter((c) => c.clientOrderRef === ref)).toHaveLength(1);
  });

  it('with no template cached, order create keeps the order as needs_template (exit 4, nothing sent); run --until-idle fetches the template and sends it once', async () => {
    // As after a sync that fetched templates only for watched and recently ordered variants.
    const db = new Database(join(dataDir, 'procure-desk.sqlite'));
    db.prepare('DELETE FROM templates WHERE product_ref = ?').run(productRef);
    db.close();
    await relay.cut();
    let ref: string;
    try {
      const result = await runCli(dataDir, ['order', 'create', '--product', String(productRef), '--units', '1', '--json']);
      expect(result.code, result.stderr).toBe(4);
      const out = jsonOf<{ clientOrderRef: string; state: string }>(result);
      ref = out.clientOrderRef;
      expect(out.state).toBe('needs_template');
      expect(result.stderr).toMatch(/needs_template/);
      expect(await statusOf(ref)).toBe('needs_template');
      expect((await chargesOf(sandbox, sandbox.userId)).filter((c) => c.clientOrderRef === ref)).toEqual([]);
    } finally {
      await relay.restore();
    }
    const run = await runCli(dataDir, ['run', '--until-idle']);
    expect(run.code, run.stderr).toBe(0);
    expect(await statusOf(ref)).toBe('accepted');
    expect((await chargesOf(sandbox, sandbox.userId)).filter((c) => c.clientOrderRef === ref)).toHaveLength(1);
  });

  it('an answer lost after the merchant charged: exit 4, then resolved by its ref with one charge', async () => {
    // The sandbox creates the order, then drops the connection: every retry of the same ref is
    // answered (and dropped) from the order it already holds. Only the create's answers: the price
    // guard's product read before it must get through.
    await control(sandbox, 'POST', '/control/faults', { dropRate: 1, dropPaths: ['/orders/create'] });
    let ref: string;
    try {
      const result = await runCli(dataDir, ['order', 'create', '--product', String(productRef), '--units', '1', '--json']);
      expect(result.code, result.stderr).toBe(4);
      ref = jsonOf<{ clientOrderRef: string }>(result).clientOrderRef;
      expect(await statusOf(ref)).toBe('unknown');
      expect((await chargesOf(sandbox, sandbox.userId)).filter((c) => c.clientOrderRef === ref)).toHaveLength(1);
    } finally {
      await control(sandbox, 'POST', '/control/faults', { dropRate: 0, dropPaths: [] });
    }
    const run = await runCli(dataDir, ['run', '--until-idle']);
    expect(run.code, run.stderr).toBe(0);
    expect(await statusOf(ref)).toBe('accepted');
    expect((await chargesOf(sandbox, sandbox.userId)).filter((c) => c.clientOrderRef === ref)).toHaveLength(1);
  });

  it('leaves exactly one charge per accepted order and nothing else', async () => {
    const orders = await listOrders(dataDir);
    expect(orders.every((o) => o.status === 'accepted')).toBe(true);
    const charged = (await chargesOf(sandbox, sandbox.userId)).map((c) => c.clientOrderRef).sort();
    expect(charged).toEqual(orders.map((o) => o.clientOrderRef).sort());
  });
});
