// `batch FILE` with bytes that are not valid text (issue 25), against the sandbox: a CSV in broken
// GB18030 and one in UTF-8 with one broken sequence (whose bytes GB18030 would read as mojibake) are
// refused (exit 2) naming the encoding, the line and column of the first invalid bytes and how many
// rows hold them, even with --yes, and the sandbox's ledger is unchanged; --mark-invalid-rows reads
// them with those rows marked and never ordered: only the clean rows are charged.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gb18030, utf8 } from '../core/batch/batch-fixtures';
import { startSandbox, type RunningSandbox } from '../support/sandbox-process';
import { jsonOf, ledgerOf, pickCardProduct, runCli } from './cli-kit';

let sandbox: RunningSandbox;
let root: string;
let dir: string;
let product: { productRef: number; price: string };

const fenOf = (yuan: string): number => Math.round(Number(yuan) * 100);
const join8 = (...parts: (Uint8Array | readonly number[])[]): Uint8Array => Uint8Array.from(parts.flatMap((part) => [...part]));

beforeAll(async () => {
  sandbox = await startSandbox(['--products', '20']);
  root = mkdtempSync(join(tmpdir(), 'procure-cli-bytes-'));
  dir = join(root, 'data');
  const connect = await runCli(dir, ['connect', '--base-url', sandbox.baseUrl, '--user-id', sandbox.userId, '--ca-cert', sandbox.caCertFile], { apiKeyEnv: sandbox.apiKey });
  expect(connect.code, connect.stderr).toBe(0);
  product = await pickCardProduct(sandbox);
});

afterAll(async () => {
  await sandbox?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

const write = (name: string, bytes: Uint8Array): string => {
  const path = join(root, name);
  writeFileSync(path, bytes);
  return path;
};

/** The issue's file: GB18030, the third and fifth rows' customer names cut (玩家 + a lone lead byte). */
const BROKEN_GB = join8(gb18030('数量,客户\r\n1,玩家甲\r\n1,玩家'), [0xcd], gb18030('\r\n1,玩家丙\r\n2,玩家'), [0xb0], gb18030(',x\r\n'));

/** UTF-8 with the first byte of the third row's 玩 broken: the bytes are valid GB18030 (mojibake), but the evidence says UTF-8. */
function brokenUtf8(): Uint8Array {
  const bytes = utf8('数量,客户\n1,玩家甲乙\n1,玩家丙\n');
  bytes[31] = 0x80;
  new TextDecoder('gb18030', { fatal: true }).decode(bytes);
  return bytes;
}

interface StatusJson {
  counts: Record<string, number>;
  rows: { rowNumber: number; clientOrderRef: string; status: string }[];
}

describe('cli: batch with invalid bytes', () => {
  it('refuses broken GB18030 and broken UTF-8 (exit 2) with where and how many, even with --yes; the ledger unchanged', async () => {
    const before = await ledgerOf(sandbox, sandbox.userId);
    const base = ['--product', String(product.productRef), '--max-price', product.price, '--map', '数量=units'];
    const gb = await runCli(dir, ['batch', write('broken-gb.csv', BROKEN_GB), ...base, '--yes']);
    expect(gb.code, gb.stderr).toBe(2);
    expect(gb.stderr).toContain('broken-gb.csv: the file is not valid GB18030 text: invalid bytes at line 3, column 5; 2 rows hold invalid bytes (3, 5)');
    expect(gb.stderr).toContain('--mark-invalid-rows');
    const u8 = await runCli(dir, ['batch', write('broken-utf8.csv', brokenUtf8()), ...base, '--yes', '--json']);
    expect(u8.code, u8.stderr).toBe(2);
    expect(u8.stderr).toContain('the file is not valid UTF-8 text: invalid bytes at line 3, column 3; 1 row holds invalid bytes (3)');
    expect(await ledgerOf(sandbox, sandbox.userId)).toEqual(before);
  });

  it('--mark-invalid-rows previews those rows as errors and, with --yes, charges only the clean rows', async () => {
    const base = ['--product', String(product.productRef), '--max-price', product.price, '--map', '数量=units', '--mark-invalid-rows', '--json'];
    const u8 = await runCli(dir, ['batch', write('marked-utf8.csv', brokenUtf8()), ...base]);
    expect(u8.code, u8.stderr).toBe(3);
    const seen = jsonOf<{ encoding: string; totals: { ok: number; withErrors: number }; rows: { rowNumber: number; errors: { code: string; line?: number; column?: number }[] }[] }>(u8);
    expect(seen.encoding).toBe('utf-8');
    expect(seen.totals).toMatchObject({ ok: 1, withErrors: 1 });
    expect(seen.rows.map((row) => row.errors)).toEqual([[], [{ path: 'file', code: 'INVALID_BYTES', message: 'invalid UTF-8 bytes at line 3, column 3', line: 3, column: 3 }]]);

    const before = await ledgerOf(sandbox, sandbox.userId);
    const placed = await runCli(dir, ['batch', write('marked-gb.csv', BROKEN_GB), ...base, '--yes', '--allow-duplicates']);
    expect(placed.code, placed.stderr).toBe(3); // rows with errors were not ordered
    const status = jsonOf<StatusJson>(placed);
    expect(status.rows.map((row) => row.rowNumber)).toEqual([2, 4]);
    expect(status.counts).toMatchObject({ accepted: 2, failed: 0 });
    const after = await ledgerOf(sandbox, sandbox.userId);
    const charges = after.entries.slice(before.entries.length).filter((entry) => entry.kind === 'charge');
    expect(charges.map((entry) => entry.clientOrderRef).sort()).toEqual(status.rows.map((row) => row.clientOrderRef).sort());
    expect(charges.map((entry) => fenOf(entry.amount))).toEqual([fenOf(product.price), fenOf(product.price)]);
  });
});
