// `batch FILE … --yes` against the sandbox with hostile files (issue 25, contract §13.1): a 1.7 GB zip
// bomb in a 1.7 MB XLSX whose headers lie, a million-row sheet, DOCTYPE/ENTITY in the sheet or the
// shared strings, an undeclared `&xxe;`, and a 50 MB CSV. Each exits 2 naming its reason, nothing is
// written or sent: the sandbox's ledger (balance and charges) is exactly what it was. Through the CLI
// bundle, so the XLSX reader's worker runs as bundled beside it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bombXlsx, ENTITY_SHEET, LAUGHS_STRINGS, manyRows, SHARED_SHEET, UNDECLARED_ENTITY_SHEET, workbookOf } from '../core/batch/hostile-xlsx';
import { startSandbox, type RunningSandbox } from '../support/sandbox-process';
import { chargesOf, ledgerOf, listOrders, pickCardProduct, runCli } from './cli-kit';

let sandbox: RunningSandbox;
let root: string;
let dir: string;
let product: { productRef: number; price: string };

beforeAll(async () => {
  sandbox = await startSandbox(['--products', '20']);
  root = mkdtempSync(join(tmpdir(), 'procure-cli-batch-bounds-'));
  dir = join(root, 'data');
  const connect = await runCli(dir, ['connect', '--base-url', sandbox.baseUrl, '--user-id', sandbox.userId, '--ca-cert', sandbox.caCertFile], { apiKeyEnv: sandbox.apiKey });
  expect(connect.code, connect.stderr).toBe(0);
  product = await pickCardProduct(sandbox);
});

afterAll(async () => {
  await sandbox?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** A 50 MB CSV of plausible rows, written in 1 MiB pieces. */
function writeBigCsv(path: string): void {
  const line = '13800138000,1\n';
  const piece = Buffer.from(`account,units\n${line.repeat(Math.floor((1024 * 1024 - 14) / line.length))}`);
  const rest = Buffer.from(line.repeat(Math.floor((1024 * 1024) / line.length)));
  writeFileSync(path, piece);
  for (let i = 1; i < 50; i += 1) writeFileSync(path, rest, { flag: 'a' });
}

describe('cli: batch with hostile files', () => {
  it('refuses each with its reason (exit 2), and the ledger does not move', async () => {
    const files: [string, Uint8Array | null, RegExp][] = [
      ['bomb.xlsx', await bombXlsx(1700, true), /unpacks to more than 200 times its size: refused as a possible zip bomb/],
      ['million.xlsx', await workbookOf(manyRows(1_000_000)), /more than 5000 rows below its header; reading stopped at row \d+/],
      ['entity.xlsx', await workbookOf([ENTITY_SHEET]), /declares or uses an XML entity \(DOCTYPE\/ENTITY\): refused for safety/],
      ['laughs.xlsx', await workbookOf([SHARED_SHEET], { sharedStrings: [LAUGHS_STRINGS] }), /xl\/sharedStrings\.xml declares or uses an XML entity/],
      ['xxe.xlsx', await workbookOf([UNDECLARED_ENTITY_SHEET]), /declares or uses an XML entity/],
      ['big.csv', null, /larger than 2097152 bytes, the most read as one batch \(tooLarge\): refused before reading it/],
    ];
    const balance = (await ledgerOf(sandbox, sandbox.userId)).balance;
    const charges = (await chargesOf(sandbox, sandbox.userId)).length;
    for (const [name, bytes, reason] of files) {
      const path = join(root, name);
      if (bytes === null) writeBigCsv(path);
      else writeFileSync(path, bytes);
      const run = await runCli(dir, ['batch', path, '--product', String(product.productRef), '--max-price', product.price, '--map', 'account=units', '--yes', '--json']);
      expect(run.code, `${name}: ${run.stderr}`).toBe(2);
      expect(run.stderr, name).toMatch(reason);
      expect(run.stdout, name).toBe('');
    }
    expect((await ledgerOf(sandbox, sandbox.userId)).balance).toBe(balance);
    expect((await chargesOf(sandbox, sandbox.userId)).length).toBe(charges);
    expect(await listOrders(dir)).toEqual([]);
  }, 300_000);
});
