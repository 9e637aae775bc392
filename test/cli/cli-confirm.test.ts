// PURCHASE_SCHEMA_CHANGED from the command line: `order create` parks the intent as
// needs_confirmation (exit 3; code SCHEMA_CHANGED: the price guard's product read already shows the
// new revision, so no create is sent that must fail with 409101) and sends nothing else by itself; `order confirm REF`
// checks it against the refreshed template and sends the same ref once; `order withdraw REF` gives
// up one the merchant does not hold. Against the real sandbox, over HTTPS.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { control } from '../support/merchant-http';
import { startSandbox, type RunningSandbox } from '../support/sandbox-process';
import { chargesOf, jsonOf, listOrders, runCli, type ControlProduct } from './cli-kit';

let sandbox: RunningSandbox;
let root: string;
let dir: string;
let topup: { productRef: number; field: string };

beforeAll(async () => {
  sandbox = await startSandbox(['--products', '20']);
  root = mkdtempSync(join(tmpdir(), 'procure-cli-confirm-'));
  dir = join(root, 'data');
  const connect = await runCli(dir, ['connect', '--base-url', sandbox.baseUrl, '--user-id', sandbox.userId, '--ca-cert', sandbox.caCertFile], { apiKeyEnv: sandbox.apiKey });
  expect(connect.code, connect.stderr).toBe(0);
  const sync = await runCli(dir, ['sync', '--templates']);
  expect(sync.code, sync.stderr).toBe(0);
  const products = await control<ControlProduct[]>(sandbox, 'GET', '/control/products?limit=200');
  const db = new Database(join(dir, 'procure-desk.sqlite'), { readonly: true, fileMustExist: true });
  const templates = db.prepare<[], { product_ref: number; template_json: string }>("SELECT product_ref, template_json FROM templates WHERE entry_mode = 'single' AND variant_ref = 0").all();
  db.close();
  const pick = templates
    .map((t) => ({ productRef: t.product_ref, fields: (JSON.parse(t.template_json) as { purchaseFields: { fieldRef: string; type: string }[] }).purchaseFields }))
    .find((t) => {
      const variant = products.find((p) => p.productRef === t.productRef)?.variants[0];
      return variant?.supply === 'succeed' && variant.availability === 'available' && variant.unitRule.min === 1 && t.fields.length === 1 && t.fields[0]?.type === 'mobile';
    });
  if (pick === undefined) throw new Error('no single-entry mobile top-up in the catalog');
  topup = { productRef: pick.productRef, field: pick.fields[0]?.fieldRef ?? '' };
});

afterAll(async () => {
  await sandbox?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

async function parkedOrder(): Promise<string> {
  // The merchant moves the template on; the cached one still has the old revision.
  await control(sandbox, 'POST', `/control/products/${topup.productRef}`, { variantRef: 0, purchaseSchemaRevision: 'bump' });
  const result = await runCli(dir, ['order', 'create', '--product', String(topup.productRef), '--units', '1', '--entry', `${topup.field}=13812345678`, '--json']);
  expect(result.code, result.stderr).toBe(3);
  const out = jsonOf<{ clientOrderRef: string; state: string; code: number }>(result);
  expect(out).toMatchObject({ state: 'needs_confirmation', code: 'SCHEMA_CHANGED' });
  return out.clientOrderRef;
}

describe('cli: purchase schema changed', () => {
  it('order confirm sends the same ref once against the refreshed template', async () => {
    const ref = await parkedOrder();
    expect((await chargesOf(sandbox, sandbox.userId)).filter((c) => c.clientOrderRef === ref)).toEqual([]);
    // `run` never resubmits it by itself.
    const run = await runCli(dir, ['run', '--until-idle']);
    expect(run.code, run.stderr).toBe(0);
    expect((await listOrders(dir)).find((o) => o.clientOrderRef === ref)).toMatchObject({ status: 'needs_confirmation' });

    const confirmed = await runCli(dir, ['order', 'confirm', ref, '--json']);
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(jsonOf<{ clientOrderRef: string }>(confirmed).clientOrderRef).toBe(ref);
    expect((await chargesOf(sandbox, sandbox.userId)).filter((c) => c.clientOrderRef === ref)).toHaveLength(1);
    // Confirming again is refused: it is no longer waiting.
    const again = await runCli(dir, ['order', 'confirm', ref]);
    expect(again.code).toBe(2);
    expect((await chargesOf(sandbox, sandbox.userId)).filter((c) => c.clientOrderRef === ref)).toHaveLength(1);
  });

  it('order confirm refuses entries the new template rejects, and order withdraw gives the intent up', async () => {
    const ref = await parkedOrder();
    const bad = await runCli(dir, ['order', 'confirm', ref, '--entry', `${topup.field}=123`]);
    expect(bad.code).toBe(2);
    expect((await listOrders(dir)).find((o) => o.clientOrderRef === ref)).toMatchObject({ status: 'needs_confirmation' });
    const withdrawn = await runCli(dir, ['order', 'withdraw', ref]);
    expect(withdrawn.code, withdrawn.stderr).toBe(0);
    expect(jsonOf<{ state: string }>(withdrawn).state).toBe('withdrawn');
    expect((await chargesOf(sandbox, sandbox.userId)).filter((c) => c.clientOrderRef === ref)).toEqual([]);
  });
});
