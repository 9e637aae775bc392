// `order create --entry` from the command line takes the same field cleaning as the form (contract
// §5.1): a QQ number typed `987 654 321` or `９８７６５４３２１` reaches the merchant as 987654321 and is
// charged once; one out of its pattern is refused (exit 2) naming the expected format in English, and
// nothing is sent or charged. Against the real sandbox, over HTTPS.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { control } from '../support/merchant-http';
import { startSandbox, type RunningSandbox } from '../support/sandbox-process';
import { chargesOf, jsonOf, runCli, type ControlProduct } from './cli-kit';

let sandbox: RunningSandbox;
let root: string;
let dir: string;
let productRef: number;

beforeAll(async () => {
  sandbox = await startSandbox(['--products', '60']);
  root = mkdtempSync(join(tmpdir(), 'procure-cli-cleaning-'));
  dir = join(root, 'data');
  const connect = await runCli(dir, ['connect', '--base-url', sandbox.baseUrl, '--user-id', sandbox.userId, '--ca-cert', sandbox.caCertFile], { apiKeyEnv: sandbox.apiKey });
  expect(connect.code, connect.stderr).toBe(0);
  const sync = await runCli(dir, ['sync', '--templates']);
  expect(sync.code, sync.stderr).toBe(0);
  const products = await control<ControlProduct[]>(sandbox, 'GET', '/control/products?limit=200');
  const db = new Database(join(dir, 'procure-desk.sqlite'), { readonly: true, fileMustExist: true });
  const templates = db.prepare<[], { product_ref: number; template_json: string }>("SELECT product_ref, template_json FROM templates WHERE variant_ref = 0").all();
  db.close();
  const pick = templates
    .map((t) => ({ productRef: t.product_ref, fields: (JSON.parse(t.template_json) as { purchaseFields: { fieldRef: string; pattern: string | null }[] }).purchaseFields }))
    .find((t) => {
      const variant = products.find((p) => p.productRef === t.productRef)?.variants[0];
      return variant?.supply === 'succeed' && variant.availability === 'available' && variant.unitRule.min === 1 && t.fields.length === 1 && t.fields[0]?.fieldRef === 'qq';
    });
  if (pick === undefined) throw new Error('no single-variant QQ top-up in the catalog');
  productRef = pick.productRef;
}, 240_000);

afterAll(async () => {
  await sandbox?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('cli: entries are cleaned by their field kind', () => {
  it('sends `987 654 321` and full-width digits as 987654321, each charged once', async () => {
    for (const typed of ['987 654 321', '９８７６５４３２１']) {
      const result = await runCli(dir, ['order', 'create', '--product', String(productRef), '--units', '1', '--entry', `qq=${typed}`, '--json']);
      expect(result.code, result.stderr).toBe(0);
      const ref = jsonOf<{ clientOrderRef: string }>(result).clientOrderRef;
      const received = await control<{ purchaseEntries: Record<string, string>[] }>(sandbox, 'GET', `/control/orders/${ref}/received`);
      expect(received.purchaseEntries).toEqual([{ qq: '987654321' }]);
      expect((await chargesOf(sandbox, sandbox.userId)).filter((c) => c.clientOrderRef === ref)).toHaveLength(1);
    }
  });

  it('refuses a QQ number out of its pattern with the expected format, and sends nothing', async () => {
    const before = (await chargesOf(sandbox, sandbox.userId)).length;
    for (const wrong of ['0123 4567', '98765432109876543210']) {
      const result = await runCli(dir, ['order', 'create', '--product', String(productRef), '--units', '1', '--entry', `qq=${wrong}`]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('QQ号码: expected 5–12 digits, not starting with 0');
    }
    expect((await chargesOf(sandbox, sandbox.userId)).length).toBe(before);
  });
});
