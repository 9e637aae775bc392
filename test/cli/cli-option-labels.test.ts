// The CLI's --entry for a field with choices (contract §7.11 "Filled by label"): `--entry zone=苹果QQ区`
// orders with the code ios-qq (read back from the sandbox's control API), charged once; a zone that fits
// no choice is bad usage (exit 2) naming the value and the choices, and nothing is recorded or charged.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { control } from '../support/merchant-http';
import { startSandbox, type RunningSandbox } from '../support/sandbox-process';
import { chargesOf, jsonOf, listOrders, runCli, type CliOptions, type CliResult, type ControlProduct } from './cli-kit';

let sandbox: RunningSandbox;
let root: string;
let dataDir: string;
let game: { productRef: number; variantRef: number; priceFen: number };

const cli = (args: readonly string[], options: CliOptions = {}): Promise<CliResult> => runCli(dataDir, args, { ...options, secrets: [sandbox.apiKey] });

beforeAll(async () => {
  sandbox = await startSandbox(['--products', '40']);
  root = mkdtempSync(join(tmpdir(), 'procure-cli-options-'));
  dataDir = join(root, 'data');
  const products = await control<ControlProduct[]>(sandbox, 'GET', '/control/products?limit=200');
  const product = products.find((p) => p.name.startsWith('王者荣耀点券直充') && p.availability === 'available');
  const variant = product?.variants.find((v) => v.supply === 'succeed' && v.availability === 'available' && v.unitRule.min === 1);
  if (product === undefined || variant === undefined) throw new Error('the sandbox catalog has no 王者荣耀 top-up to order');
  game = { productRef: product.productRef, variantRef: variant.variantRef, priceFen: Math.round(Number(variant.price) * 100) };
  const connected = await cli(['connect', '--base-url', sandbox.baseUrl, '--user-id', sandbox.userId, '--ca-cert', sandbox.caCertFile], { apiKeyEnv: sandbox.apiKey });
  expect(connected.code, connected.stderr).toBe(0);
}, 120_000);

afterAll(async () => {
  await sandbox?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('cli: --entry names a choice by its label', () => {
  it('orders 苹果QQ区 as ios-qq, charged once', async () => {
    const args = ['order', 'create', '--product', String(game.productRef), '--variant', String(game.variantRef), '--units', '1'];
    const result = await cli([...args, '--entry', 'zone=苹果QQ区', '--entry', 'account=player98765', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const { clientOrderRef } = jsonOf<{ clientOrderRef: string }>(result);
    const received = await control<{ purchaseEntries: Record<string, string>[] }>(sandbox, 'GET', `/control/orders/${clientOrderRef}/received`);
    expect(received.purchaseEntries).toEqual([{ zone: 'ios-qq', account: 'player98765' }]);
    const charges = (await chargesOf(sandbox, sandbox.userId)).filter((c) => c.clientOrderRef === clientOrderRef);
    expect(charges.map((c) => Math.round(Number(c.amount) * 100))).toEqual([game.priceFen]);
  });

  it('refuses a zone that fits no choice with the choices named (exit 2); nothing recorded or charged', async () => {
    const ordersBefore = (await listOrders(dataDir)).length;
    const chargesBefore = (await chargesOf(sandbox, sandbox.userId)).length;
    const args = ['order', 'create', '--product', String(game.productRef), '--variant', String(game.variantRef), '--units', '1'];
    const result = await cli([...args, '--entry', 'zone=苹果Q区', '--entry', 'account=player98765', '--json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('游戏区服: "苹果Q区" is not one of the options (安卓QQ区, 苹果QQ区, 安卓微信区, 苹果微信区)');
    expect((await listOrders(dataDir)).length).toBe(ordersBefore);
    expect((await chargesOf(sandbox, sandbox.userId)).length).toBe(chargesBefore);
  });
});
