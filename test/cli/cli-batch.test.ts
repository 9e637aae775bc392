// `batch FILE --product N …` as a script runs it, against the sandbox: a preview sends nothing and
// exits 3 with rows in error (0 when every row is fine); --yes places exactly the valid rows, charged
// at the confirmed price in the sandbox's ledger, and writes the results next to the file's rows;
// a price above --max-price parks the rows (exit 3, nothing charged); --retry sends the refused rows
// again under the same refs (exit 0); identical rows and a file already placed are refused (exit 3,
// nothing sent) unless --allow-duplicates; bad usage and unreadable files exit 2.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBatchTable } from '../../src/core/batch/batch-file-read';
import { control } from '../support/merchant-http';
import { startSandbox, type RunningSandbox } from '../support/sandbox-process';
import { chargesOf, jsonOf, ledgerOf, pickCardProduct, runCli, type ControlProduct } from './cli-kit';

let sandbox: RunningSandbox;
let root: string;
let dir: string;
let product: { productRef: number; price: string };

const fenOf = (yuan: string): number => Math.round(Number(yuan) * 100);
const yuanOf = (fen: number): string => (fen / 100).toFixed(2);

beforeAll(async () => {
  sandbox = await startSandbox(['--products', '20']);
  root = mkdtempSync(join(tmpdir(), 'procure-cli-batch-'));
  dir = join(root, 'data');
  const connect = await runCli(dir, ['connect', '--base-url', sandbox.baseUrl, '--user-id', sandbox.userId, '--ca-cert', sandbox.caCertFile], { apiKeyEnv: sandbox.apiKey });
  expect(connect.code, connect.stderr).toBe(0);
  product = await pickCardProduct(sandbox);
});

afterAll(async () => {
  await sandbox?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

const write = (name: string, text: string): string => {
  const path = join(root, name);
  writeFileSync(path, `\uFEFF${text}`);
  return path;
};

interface StatusJson {
  batchId: string;
  counts: Record<string, number>;
  rows: { rowNumber: number; clientOrderRef: string; status: string; error: string | null }[];
}

describe('cli: batch', () => {
  it('previews without sending, then --yes places exactly the valid rows at the confirmed price and writes the results', async () => {
    const file = write('orders.csv', '数量,客户\r\n1,"张三, 北京"\r\n2,李四\r\nx,坏行\r\n1,"多行\r\n备注"\r\n');
    const base = ['batch', file, '--product', String(product.productRef), '--max-price', product.price];
    const before = (await chargesOf(sandbox, sandbox.userId)).length;

    const preview = await runCli(dir, [...base, '--json']);
    expect(preview.code, preview.stderr).toBe(3);
    const seen = jsonOf<{ mapping: Record<string, string>; totals: { ok: number; withErrors: number; total: string }; rows: { rowNumber: number; errors: { code: string }[] }[] }>(preview);
    expect(seen.mapping).toEqual({ '@units': '数量' });
    expect(seen.totals).toMatchObject({ ok: 3, withErrors: 1, total: yuanOf(fenOf(product.price) * 4) });
    expect(seen.rows.filter((r) => r.errors.length > 0).map((r) => [r.rowNumber, r.errors[0]?.code])).toEqual([[4, 'UNITS_NOT_WHOLE']]);
    expect(preview.stderr).toContain('nothing was sent');
    expect((await chargesOf(sandbox, sandbox.userId)).length).toBe(before);

    const results = join(root, 'orders-results.xlsx');
    const placed = await runCli(dir, [...base, '--yes', '--json', '--results', results]);
    expect(placed.code, placed.stderr).toBe(3); // the row in error was not ordered
    const status = jsonOf<StatusJson>(placed);
    expect(status.counts).toMatchObject({ accepted: 3, failed: 0 });
    const charges = (await chargesOf(sandbox, sandbox.userId)).filter((c) => status.rows.some((r) => r.clientOrderRef === c.clientOrderRef));
    expect(charges.map((c) => fenOf(c.amount)).sort()).toEqual([1, 1, 2].map((u) => u * fenOf(product.price)).sort());
    expect((await chargesOf(sandbox, sandbox.userId)).length).toBe(before + 3);

    const table = await readBatchTable(new Uint8Array(readFileSync(results)));
    expect(table.header).toEqual(['数量', '客户', '状态', '订单参考号', '商户订单号', '错误']);
    expect(table.rows.map((r) => [r.cells[1], r.cells[2]])).toEqual([
      ['张三, 北京', '待处理'],
      ['李四', '待处理'],
      ['坏行', '有错误，未下单'],
      ['多行\r\n备注', '待处理'],
    ]);
    expect(table.rows[2]?.cells[5]).toBe('数量不是整数');
    // --json keeps the interface's words whatever the files' language (contract §16.4).
    expect(status.rows.map((r) => r.status)).toEqual(['pending', 'pending', 'pending']);
    // --language en: the same results in English (a retry with nothing failed sends nothing and writes them).
    const english = join(root, 'orders-results-en.csv');
    const again = await runCli(dir, [...base, '--retry', status.batchId, '--json', '--results', english, '--language', 'en']);
    expect(again.stderr).toContain('0 rows sent again');
    const en = await readBatchTable(new Uint8Array(readFileSync(english)));
    expect(en.header).toEqual(['数量', '客户', 'Status', 'Order ref', 'Merchant order no.', 'Error']);
    expect(en.rows.map((r) => [r.cells[2], r.cells[5]])).toEqual([
      ['Pending', ''],
      ['Pending', ''],
      ['Not placed: errors', 'The quantity is not a whole number'],
      ['Pending', ''],
    ]);
    // A language the CLI does not write is refused before anything is read or sent.
    const bad = await runCli(dir, [...base, '--yes', '--results', english, '--language', 'fr']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--language takes zh-CN or en');
    expect((await chargesOf(sandbox, sandbox.userId)).length).toBe(before + 3);

    // A file whose rows are all fine previews with exit 0.
    const clean = await runCli(dir, ['batch', write('clean.csv', 'qty\n1\n'), '--product', String(product.productRef), '--max-price', product.price, '--map', 'qty=units']);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toContain('1 rows: 1 ok, 0 with errors');
  }, 180_000);

  it('parks the rows when the merchant asks more than --max-price (exit 3, nothing charged)', async () => {
    const raised = yuanOf(fenOf(product.price) + 70);
    await control(sandbox, 'POST', `/control/products/${product.productRef}`, { variantRef: 0, price: raised });
    const before = (await chargesOf(sandbox, sandbox.userId)).length;
    const run = await runCli(dir, ['batch', write('rise.csv', 'qty\n1\n1\n'), '--product', String(product.productRef), '--max-price', product.price, '--map', 'qty=units', '--yes', '--json']);
    expect(run.code, run.stderr).toBe(3);
    expect(jsonOf<StatusJson>(run).rows.map((r) => r.status)).toEqual(['price_changed', 'price_changed']);
    expect(run.stderr).toContain(`the merchant now asks ¥${raised}`);
    expect((await chargesOf(sandbox, sandbox.userId)).length).toBe(before);
    product = { ...product, price: raised };
  });

  it('retries the refused rows under the same refs once the balance allows (exit 0), charging each once', async () => {
    const price = fenOf(product.price);
    const balance = fenOf((await ledgerOf(sandbox, sandbox.userId)).balance);
    await control(sandbox, 'POST', `/control/accounts/${sandbox.userId}`, { balance: yuanOf(price + 1) });
    const file = write('retry.csv', 'qty\n1\n1\n1\n');
    // The same rows (1 unit each) as rise.csv within 7 days: placed again only with --allow-duplicates.
    const args = ['--product', String(product.productRef), '--max-price', product.price, '--map', 'qty=units', '--json', '--allow-duplicates'];
    const first = await runCli(dir, ['batch', file, ...args, '--yes']);
    expect(first.code, first.stderr).toBe(3);
    const out = jsonOf<StatusJson>(first);
    expect(out.rows.map((r) => [r.status, r.error])).toEqual([
      ['pending', null],
      ['rejected', '422103'],
      ['rejected', '422103'],
    ]);
    await control(sandbox, 'POST', `/control/accounts/${sandbox.userId}`, { balance: yuanOf(balance) });
    const again = await runCli(dir, ['batch', file, ...args, '--retry', out.batchId]);
    expect(again.code, again.stderr).toBe(0);
    const after = jsonOf<StatusJson>(again);
    expect(after.rows.map((r) => r.clientOrderRef)).toEqual(out.rows.map((r) => r.clientOrderRef));
    const charges = await chargesOf(sandbox, sandbox.userId);
    for (const row of out.rows) expect(charges.filter((c) => c.clientOrderRef === row.clientOrderRef).map((c) => fenOf(c.amount))).toEqual([price]);
  });

  it('refuses identical rows and a file already placed without --allow-duplicates (exit 3, nothing sent), and places them with it', async () => {
    const products = await control<ControlProduct[]>(sandbox, 'GET', '/control/products?limit=200');
    const topup = products.find((p) => p.productType === 'topup' && p.availability === 'available' && /直充|话费|流量/.test(p.name) && p.variants.some((v) => v.entryMode === 'single' && v.supply === 'succeed' && v.availability === 'available'));
    if (topup === undefined) throw new Error('the sandbox catalog has no phone top-up');
    const variant = topup.variants.find((v) => v.entryMode === 'single' && v.supply === 'succeed' && v.availability === 'available');
    if (variant === undefined) throw new Error('unreachable');
    const units = variant.unitRule.min;
    const price = fenOf(Number(variant.price).toFixed(2));
    const args = ['--product', String(topup.productRef), '--variant', String(variant.variantRef), '--max-price', Number(variant.price).toFixed(2), '--json'];
    // Row 4 is row 2 written another way: the same account after the form's cleaning.
    const file = write('phones.csv', `手机号,数量\n138 0013 8000,${units}\n13900139000,${units}\n13800138000,${units}\n`);
    const before = (await chargesOf(sandbox, sandbox.userId)).length;

    const refused = await runCli(dir, ['batch', file, ...args, '--yes']);
    expect(refused.code, refused.stderr).toBe(3);
    expect(jsonOf<{ refused: string; duplicates: { rows: unknown[] } }>(refused)).toMatchObject({ refused: 'duplicates', duplicates: { rows: [{ rowNumber: 4, sameAs: 2 }] } });
    expect(refused.stderr).toContain('--allow-duplicates');
    expect((await chargesOf(sandbox, sandbox.userId)).length).toBe(before);
    const text = await runCli(dir, ['batch', file, ...args.filter((a) => a !== '--json'), '--yes']);
    expect(text.code).toBe(3);
    expect(text.stderr).toContain('row 4: the same entries as row 2 (a duplicate)');
    expect(text.stderr).toContain('nothing was written or sent');

    const placed = await runCli(dir, ['batch', file, ...args, '--yes', '--allow-duplicates']);
    expect(placed.code, placed.stderr).toBe(0);
    const status = jsonOf<StatusJson>(placed);
    expect(status.rows.map((r) => r.rowNumber)).toEqual([2, 3, 4]);
    const charges = (await chargesOf(sandbox, sandbox.userId)).slice(before);
    expect(charges.map((c) => c.clientOrderRef).sort()).toEqual(status.rows.map((r) => r.clientOrderRef).sort());
    expect(charges.map((c) => fenOf(c.amount))).toEqual([price * units, price * units, price * units]);

    // The same bytes again, and the same rows typed again (other order, other spacing, other bytes): named with the batch and when.
    const afterFirst = (await chargesOf(sandbox, sandbox.userId)).length;
    for (const again of [file, write('phones-retyped.csv', `数量,手机号\n${units},13800138000\n${units},139 0013 9000\n${units},+86 138-0013-8000\n`)]) {
      const run = await runCli(dir, ['batch', again, ...args, '--yes']);
      expect(run.code, run.stderr).toBe(3);
      const found = jsonOf<{ duplicates: { placedBefore: { batchId: string; match: string; placedAt: string }[] } }>(run).duplicates.placedBefore;
      expect(found.map((b) => [b.batchId, b.match])).toEqual([[status.batchId, again === file ? 'sameFile' : 'sameRows']]);
      expect(Math.abs(Date.parse(found[0]?.placedAt ?? '') - Date.now())).toBeLessThan(5 * 60_000);
      const words = await runCli(dir, ['batch', again, ...args.filter((a) => a !== '--json')]);
      expect(words.code).toBe(3);
      expect(words.stderr).toMatch(new RegExp(`was already placed on \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} \\(UTC[+-]\\d{2}:\\d{2}\\) as batch ${status.batchId} \\(phones\\.csv\\)`));
    }
    expect((await chargesOf(sandbox, sandbox.userId)).length).toBe(afterFirst);
  });

  it('exits 2 for bad usage and files that are not a table', async () => {
    const p = String(product.productRef);
    expect((await runCli(dir, ['batch', write('a.csv', 'qty\n1\n')])).code).toBe(2);
    const empty = await runCli(dir, ['batch', write('empty.csv', ''), '--product', p, '--max-price', '1']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('the file has no rows');
    const headerOnly = await runCli(dir, ['batch', write('h.csv', 'qty\n'), '--product', p, '--max-price', '1']);
    expect(headerOnly.stderr).toContain('no rows to order');
    expect(headerOnly.code).toBe(2);
    const junkPath = join(root, 'junk.bin');
    writeFileSync(junkPath, Buffer.from(Array.from({ length: 2048 }, (_, i) => (i * 31) % 256)));
    expect((await runCli(dir, ['batch', junkPath, '--product', p, '--max-price', '1'])).code).toBe(2);
    expect((await runCli(dir, ['batch', write('b.csv', 'qty\n1\n'), '--product', p, '--max-price', '1', '--map', 'nope=units'])).code).toBe(2);
    expect((await runCli(dir, ['batch', join(root, 'missing.csv'), '--product', p])).code).toBe(2);
    const help = await runCli(dir, ['--help']);
    expect(help.stdout).toContain('batch FILE --product N');
  });
});
