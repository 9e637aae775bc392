// `order create --fallback` with two merchant sandboxes on one data folder (profile p1 = merchant A,
// p2 = merchant B; different catalogs and prices): A cannot supply a linked variant and the link's
// rule names B, so the order is B's, charged in B's ledger at B's price (at or below the limit) and
// nothing at A; without the flag nothing moves (the order stays A's and waits, exit 3); B above the
// limit places nothing and exits 3 saying why. `batch FILE --fallback` (issue 24) names B in its text
// and --json preview (per merchant: B all of it, A nothing), status and results file, and charges B
// exactly the previewed amounts, A nothing.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDesk } from '../../src/core/desk/desk';
import { RedactingLogger } from '../../src/core/logging/redacting-logger';
import { MemorySecretStore } from '../../src/core/secrets/memory-secret-store';
import { parseCsvLines } from '../core/export/file-readers';
import { control } from '../support/merchant-http';
import { startSandbox, type RunningSandbox } from '../support/sandbox-process';
import { jsonOf, ledgerOf, runCli, type ControlProduct } from './cli-kit';

const LIMIT_FEN = 2800;
let sandboxA: RunningSandbox;
let sandboxB: RunningSandbox;
let root: string;
let dir: string;
const pairs: { rule: { a: number; b: number }; above: { a: number; b: number } } = { rule: { a: 0, b: 0 }, above: { a: 0, b: 0 } };

/** Plain card products (one variant, nothing to enter, supplied), the first two. */
async function plainCards(sandbox: RunningSandbox): Promise<number[]> {
  const products = await control<ControlProduct[]>(sandbox, 'GET', '/control/products?limit=200');
  return products
    .filter((p) => {
      const [v, ...others] = p.variants;
      return p.productType === 'card' && p.availability === 'available' && v !== undefined && others.length === 0 && v.variantRef === 0 && v.supply === 'succeed' && v.availability === 'available' && v.unitRule.min === 1 && v.entryMode === 'none';
    })
    .slice(0, 2)
    .map((p) => p.productRef);
}

const setVariant = (sandbox: RunningSandbox, productRef: number, change: Record<string, unknown>): Promise<unknown> => control(sandbox, 'POST', `/control/products/${productRef}`, { variantRef: 0, ...change });

/** Desk changes a person makes in the app (a second profile, links, a rule, the active profile), made here in-process. */
async function withDesk(work: (desk: ReturnType<typeof openDesk>) => void): Promise<void> {
  const desk = openDesk({ dataDir: dir, secrets: new MemorySecretStore(), logger: new RedactingLogger({ sink: () => undefined }) });
  try {
    work(desk);
  } finally {
    await desk.close();
  }
}

async function connectAndSync(sandbox: RunningSandbox): Promise<void> {
  const connect = await runCli(dir, ['connect', '--base-url', sandbox.baseUrl, '--user-id', sandbox.userId, '--ca-cert', sandbox.caCertFile], { apiKeyEnv: sandbox.apiKey });
  expect(connect.code, connect.stderr).toBe(0);
  const sync = await runCli(dir, ['sync'], { timeoutMs: 120_000 });
  expect(sync.code, sync.stderr).toBe(0);
}

beforeAll(async () => {
  [sandboxA, sandboxB] = await Promise.all([startSandbox(['--products', '50', '--seed', '11', '--time-scale', '50']), startSandbox(['--products', '50', '--seed', '29', '--time-scale', '50'])]);
  root = mkdtempSync(join(tmpdir(), 'procure-cli-fallback-'));
  dir = join(root, 'data');
  const [cardsA, cardsB] = [await plainCards(sandboxA), await plainCards(sandboxB)];
  pairs.rule = { a: cardsA[0] ?? 0, b: cardsB[0] ?? 0 };
  pairs.above = { a: cardsA[1] ?? 0, b: cardsB[1] ?? 0 };
  // A cannot supply either; B asks ¥26.00 for one (within the ¥28.00 limit) and ¥35.00 for the other.
  for (const productRef of [pairs.rule.a, pairs.above.a]) await setVariant(sandboxA, productRef, { price: '27.00', inventoryType: 'tracked', remainingUnits: 0 });
  await setVariant(sandboxB, pairs.rule.b, { price: '26.00' });
  await setVariant(sandboxB, pairs.above.b, { price: '35.00' });

  await connectAndSync(sandboxA);
  await withDesk((desk) => desk.profiles.setActive(desk.profiles.add('Merchant B', 1).id, 1));
  await connectAndSync(sandboxB);
  await withDesk((desk) => {
    for (const pair of [pairs.rule, pairs.above]) {
      const link = desk.links.link({ profileId: 'p1', productRef: pair.a, variantRef: 0 }, { profileId: 'p2', productRef: pair.b, variantRef: 0 }, 1);
      desk.links.setRule(link.linkId, { maxUnitPriceFen: LIMIT_FEN, preference: ['p2'] }, 1);
    }
    desk.profiles.setActive('p1', 2);
  });
}, 300_000);

afterAll(async () => {
  await Promise.all([sandboxA?.stop(), sandboxB?.stop()]);
  if (root) rmSync(root, { recursive: true, force: true });
});

const ledgers = async (): Promise<[number, number]> => [(await ledgerOf(sandboxA, sandboxA.userId)).entries.length, (await ledgerOf(sandboxB, sandboxB.userId)).entries.length];

describe('cli: order create --fallback', () => {
  it('without --fallback nothing moves: the order is A and waits (exit 3), nothing charged anywhere', async () => {
    const before = await ledgers();
    const result = await runCli(dir, ['order', 'create', '--product', String(pairs.rule.a), '--units', '1', '--json']);
    expect(result.code, result.stderr).toBe(3);
    expect(jsonOf<{ state: string }>(result).state).toBe('unavailable');
    expect(await ledgers()).toEqual(before);
  });

  it('with --fallback the rule orders from B at B price (within the limit): charged in B ledger only', async () => {
    const before = await ledgers();
    const result = await runCli(dir, ['order', 'create', '--product', String(pairs.rule.a), '--units', '1', '--fallback', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('the fallback rule orders from Merchant B');
    expect(result.stderr).toContain('Merchant B is paid');
    const { clientOrderRef, ...told } = jsonOf<{ clientOrderRef: string; merchant: unknown; fallback: unknown }>(result);
    // The JSON names the merchant paid and why, as stderr does.
    expect(told).toMatchObject({ merchant: { profileId: 'p2', name: 'Merchant B' }, fallback: { from: { profileId: 'p1' }, reason: 'outOfStock', limit: '28.00', fromUnitPrice: '27.00' } });
    const bookB = await ledgerOf(sandboxB, sandboxB.userId);
    expect(bookB.entries.filter((e) => e.clientOrderRef === clientOrderRef && e.kind === 'charge').map((e) => Math.round(Number(e.amount) * 100))).toEqual([2600]);
    expect(bookB.entries.length - before[1]).toBe(1);
    expect((await ledgerOf(sandboxA, sandboxA.userId)).entries.length).toBe(before[0]);
  });

  it('with --fallback and B above the limit: nothing placed, exit 3, the reason said', async () => {
    const before = await ledgers();
    const result = await runCli(dir, ['order', 'create', '--product', String(pairs.above.a), '--units', '1', '--fallback', '--json']);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain("no merchant of the link's fallback rule can supply 1 unit(s) at or below ¥28.00: nothing was placed");
    expect(jsonOf<{ state: string; reason: string }>(result)).toMatchObject({ state: 'noFallback', reason: 'outOfStock', limit: '28.00' });
    expect(await ledgers()).toEqual(before);
  });
});

describe('cli: batch --fallback', () => {
  const csv = (name: string, units: readonly number[]): string => {
    const path = join(root, name);
    writeFileSync(path, `数量\r\n${units.join('\r\n')}\r\n`);
    return path;
  };

  it('previews at B in text and --json: every row and the totals name B, A is asked nothing; nothing is charged', async () => {
    const before = await ledgers();
    const file = csv('preview.csv', [1, 2]);
    const text = await runCli(dir, ['batch', file, '--product', String(pairs.rule.a), '--fallback']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toContain('the fallback rule orders it from Merchant B');
    expect(text.stdout).toContain('3 units, total ¥78.00 at ¥26.00 at Merchant B (fallback rule;');
    expect(text.stdout).toContain('Merchant B (fallback rule): 2 orders, 3 units at ¥26.00, total ¥78.00');
    expect(text.stdout).toMatch(/: nothing \(not charged\)/);
    expect(text.stderr).toContain('--yes places the valid rows at Merchant B, paying it ¥78.00');
    const json = await runCli(dir, ['batch', file, '--product', String(pairs.rule.a), '--fallback', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const view = jsonOf<{ unitPrice: string; merchant: unknown; fallback: unknown; merchants: unknown[]; rows: { merchant?: string }[] }>(json);
    expect(view).toMatchObject({ unitPrice: '26.00', merchant: { profileId: 'p2', name: 'Merchant B' }, fallback: { from: { profileId: 'p1' }, reason: 'outOfStock', limit: '28.00' } });
    expect(view.merchants).toEqual([
      { merchant: { profileId: 'p2', name: 'Merchant B' }, fallback: true, orders: 2, units: 3, unitPrice: '26.00', total: '78.00' },
      { merchant: { profileId: 'p1', name: expect.any(String) as string }, fallback: false, orders: 0, units: 0, unitPrice: '27.00', total: '0.00' },
    ]);
    expect(view.rows.map((row) => row.merchant)).toEqual(['Merchant B', 'Merchant B']);
    expect(await ledgers()).toEqual(before);
  });

  it('--yes --json places at B: every row names B with its order number there, the results file too; B charged exactly, A nothing', async () => {
    const before = await ledgers();
    const file = csv('place.csv', [2, 1]);
    const results = join(root, 'place-results.csv');
    const run = await runCli(dir, ['batch', file, '--product', String(pairs.rule.a), '--fallback', '--yes', '--json', '--results', results], { timeoutMs: 120_000 });
    expect(run.code, run.stderr).toBe(0);
    const status = jsonOf<{ batchId: string; merchant: unknown; counts: { accepted: number }; rows: { clientOrderRef: string; platformOrderRef: string | null; merchant: string }[] }>(run);
    expect(status.merchant).toEqual({ profileId: 'p2', name: 'Merchant B' });
    expect(status.counts.accepted).toBe(2);
    expect(status.rows.map((row) => [row.merchant, typeof row.platformOrderRef])).toEqual([['Merchant B', 'string'], ['Merchant B', 'string']]);
    const bookB = await ledgerOf(sandboxB, sandboxB.userId);
    const charged = (ref: string): number[] => bookB.entries.filter((e) => e.clientOrderRef === ref && e.kind === 'charge').map((e) => Math.round(Number(e.amount) * 100));
    expect(status.rows.map((row) => charged(row.clientOrderRef))).toEqual([[2 * 2600], [2600]]);
    expect(bookB.entries.length - before[1]).toBe(2);
    expect((await ledgerOf(sandboxA, sandboxA.userId)).entries.length).toBe(before[0]);
    // The refs are code cells (contract §16.1): the ref and one TAB, so a spreadsheet keeps every digit.
    const lines = parseCsvLines(readFileSync(results, 'utf8').replace(/^\uFEFF/, ''));
    expect(lines[0]).toEqual(['数量', 'status', 'clientOrderRef', 'platformOrderRef', 'error', 'merchant']);
    expect(lines.slice(1).map((cells) => [cells[2], cells[3], cells[5]])).toEqual(status.rows.map((row) => [`${row.clientOrderRef}\t`, `${row.platformOrderRef ?? ''}\t`, 'Merchant B']));
    // Its text: every row at B with B's order number.
    const text = await runCli(dir, ['batch', csv('place-text.csv', [1]), '--product', String(pairs.rule.a), '--fallback', '--yes'], { timeoutMs: 120_000 });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/row 2: \w+ \S+ at Merchant B, order (?!\(none)\S+/);
    expect(text.stdout).toMatch(/charged ¥26\.00 at Merchant B/);
  });

  it('with B above the limit: nothing placed, exit 3, the reason said in text and JSON', async () => {
    const before = await ledgers();
    const result = await runCli(dir, ['batch', csv('above.csv', [1]), '--product', String(pairs.above.a), '--fallback', '--yes', '--json']);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain("no merchant of the link's fallback rule can supply 1 unit(s) at or below ¥28.00: nothing was placed");
    expect(jsonOf<{ state: string }>(result)).toMatchObject({ state: 'noFallback', reason: 'outOfStock', limit: '28.00' });
    expect(await ledgers()).toEqual(before);
  });
});
