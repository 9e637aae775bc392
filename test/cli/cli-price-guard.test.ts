// The price guard from the command line: `order create --max-price YUAN` holds the order to
// the unit price the user confirmed; a higher price at send time parks it (exit 3, both prices named,
// --json carries both) and charges nothing; `order confirm REF --max-price YUAN` sends the same ref at
// the new price; without --max-price the cached price is taken and printed; a product that cannot be
// supplied parks it too, and `order withdraw REF` says which case applied. Against the real sandbox.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { control } from '../support/merchant-http';
import { startSandbox, type RunningSandbox } from '../support/sandbox-process';
import { chargesOf, jsonOf, pickCardProduct, runCli } from './cli-kit';

let sandbox: RunningSandbox;
let root: string;
let dir: string;
let product: { productRef: number; price: string };

const fenOf = (yuan: string): number => Math.round(Number(yuan) * 100);
const yuanOf = (fen: number): string => (fen / 100).toFixed(2);
const yuanPlus = (yuan: string, fen: number): string => yuanOf(fenOf(yuan) + fen);

beforeAll(async () => {
  sandbox = await startSandbox(['--products', '20']);
  root = mkdtempSync(join(tmpdir(), 'procure-cli-guard-'));
  dir = join(root, 'data');
  const connect = await runCli(dir, ['connect', '--base-url', sandbox.baseUrl, '--user-id', sandbox.userId, '--ca-cert', sandbox.caCertFile], { apiKeyEnv: sandbox.apiKey });
  expect(connect.code, connect.stderr).toBe(0);
  product = await pickCardProduct(sandbox);
});

afterAll(async () => {
  await sandbox?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

const chargedFor = async (ref: string): Promise<string[]> => (await chargesOf(sandbox, sandbox.userId)).filter((c) => c.clientOrderRef === ref).map((c) => Number(c.amount).toFixed(2));

describe('cli: price guard', () => {
  it('parks an order whose price rose above --max-price (exit 3, both prices), then order confirm charges exactly the new price', async () => {
    const confirmed = product.price;
    const raised = yuanPlus(product.price, 50);
    await control(sandbox, 'POST', `/control/products/${product.productRef}`, { variantRef: 0, price: raised });

    const created = await runCli(dir, ['order', 'create', '--product', String(product.productRef), '--units', '2', '--max-price', confirmed, '--json']);
    expect(created.code, created.stderr).toBe(3);
    const out = jsonOf<{ clientOrderRef: string; state: string; confirmedUnitPrice: string; unitPrice: string }>(created);
    expect(out).toMatchObject({ state: 'price_changed', confirmedUnitPrice: confirmed, unitPrice: raised });
    const ref = out.clientOrderRef;
    expect(created.stderr).toContain(`price rose: confirmed ¥${confirmed}, merchant now asks ¥${raised} (order ${ref} kept; order confirm ${ref} --max-price ${raised} or order withdraw ${ref})`);
    expect(await chargedFor(ref)).toEqual([]);

    const again = await runCli(dir, ['order', 'confirm', ref, '--max-price', raised, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(jsonOf<{ clientOrderRef: string }>(again).clientOrderRef).toBe(ref);
    expect(await chargedFor(ref)).toEqual([yuanOf(fenOf(raised) * 2)]);
  });

  it('without --max-price holds the order to the cached price and prints it', async () => {
    // The guard's read above put the raised price into the cache.
    const cached = yuanPlus(product.price, 50);
    const created = await runCli(dir, ['order', 'create', '--product', String(product.productRef), '--units', '1', '--json']);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toContain(`unit price ¥${cached}`);
    expect(await chargedFor(jsonOf<{ clientOrderRef: string }>(created).clientOrderRef)).toEqual([cached]);
  });

  it('parks an order the merchant cannot supply (exit 3), and order withdraw says it was withdrawn', async () => {
    await control(sandbox, 'POST', `/control/products/${product.productRef}`, { availability: 'unavailable' });
    try {
      const created = await runCli(dir, ['order', 'create', '--product', String(product.productRef), '--units', '1', '--max-price', '9999', '--json']);
      expect(created.code, created.stderr).toBe(3);
      const out = jsonOf<{ clientOrderRef: string; state: string; unavailableReason: string }>(created);
      expect(out).toMatchObject({ state: 'unavailable', unavailableReason: 'productUnavailable' });
      expect(created.stderr).toContain('cannot be supplied now (productUnavailable');

      const withdrawn = await runCli(dir, ['order', 'withdraw', out.clientOrderRef]);
      expect(withdrawn.code, withdrawn.stderr).toBe(0);
      expect(jsonOf<{ outcome: string; state: string }>(withdrawn)).toMatchObject({ outcome: 'withdrawn', state: 'withdrawn' });
      expect(withdrawn.stderr).toContain('withdrawn: the merchant never had this order');
      expect(await chargedFor(out.clientOrderRef)).toEqual([]);
    } finally {
      await control(sandbox, 'POST', `/control/products/${product.productRef}`, { availability: 'available' });
    }
  });

  it('refuses a --max-price that is not exact yuan, sending nothing', async () => {
    const before = (await chargesOf(sandbox, sandbox.userId)).length;
    const bad = await runCli(dir, ['order', 'create', '--product', String(product.productRef), '--units', '1', '--max-price', '18.505']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max-price takes a unit price in yuan');
    expect((await chargesOf(sandbox, sandbox.userId)).length).toBe(before);
  });
});
