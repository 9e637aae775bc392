// The CLI against a merchant that fails or contradicts itself (hostile merchant, over HTTPS):
// - `order create` while every create answers 500: at most 3 creates (contract §7.12), then exit 7 with
//   the merchant's requestIds; `orders` and `order show` say merchant_failing; `run --until-idle` sends
//   nothing more; `order retry` once the merchant is well looks the order up first and charges it once;
// - `sync` meeting a catalog listing that changes while paged (total growing, an item on two pages, an
//   empty middle page, a page size ignored without a word, endless pages) exits 4, as `reconcile` does
//   for its listing: one code for the merchant's inconsistent answers wherever they are met.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes';
import { MAX_SERVER_FAILURES } from '../../src/core/merchant/retry-policy';
import { startHostileMerchant, type HostileMerchant, type PagingAnomaly } from '../support/hostile-merchant';
import { connectedDataDir, runCli } from './cli-kit';

let merchant: HostileMerchant;
let dataDir: string;

beforeAll(async () => {
  merchant = await startHostileMerchant({ products: 230 });
  dataDir = await connectedDataDir(merchant, 'procure-cli-failing-');
});
afterAll(async () => {
  await merchant?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const lastJson = (stdout: string): Record<string, unknown> => JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
/** Creates the merchant saw since its request log was last cleared. */
const creates = (): number => merchant.requests.filter((r) => r.method === 'POST' && r.path === '/orders/create').length;

describe('order create against a merchant that always answers 500', () => {
  it(`stops after ${MAX_SERVER_FAILURES} creates with exit 7 and the requestIds; shown as merchant_failing; retried: charged once`, async () => {
    merchant.mode({ kind: 'fail500', paths: ['/orders/create'] });
    merchant.requests.length = 0;
    const result = await runCli(dataDir, ['order', 'create', '--product', '1001', '--units', '1', '--max-price', '20']);
    expect(result.code, result.stderr).toBe(EXIT.merchantFailing);
    expect(EXIT.merchantFailing).toBe(7);
    const out = lastJson(result.stdout);
    const ref = String(out.clientOrderRef);
    expect(out).toMatchObject({ state: 'merchant_failing', serverFailures: MAX_SERVER_FAILURES });
    expect(creates()).toBe(MAX_SERVER_FAILURES);
    const ids = out.requestIds as string[];
    expect(ids.length).toBeGreaterThanOrEqual(MAX_SERVER_FAILURES);
    expect(result.stderr).toContain(`the merchant failed ${MAX_SERVER_FAILURES} times`);
    expect(result.stderr).toContain(`order retry ${ref}`);
    for (const id of ids) expect(result.stderr).toContain(id);
    expect(merchant.charges.filter((c) => c.clientOrderRef === ref)).toEqual([]);

    const list = await runCli(dataDir, ['orders', '--json']);
    expect((JSON.parse(list.stdout) as { clientOrderRef: string; status: string }[]).find((r) => r.clientOrderRef === ref)?.status).toBe('merchant_failing');
    const show = await runCli(dataDir, ['order', 'show', ref]);
    expect(show.stdout).toContain(`${ref}\tmerchant_failing`);
    expect(show.stdout).toContain('nothing more is sent until you retry');

    // Nothing is sent by `run` either: it waits for the buyer.
    const run = await runCli(dataDir, ['run', '--until-idle']);
    expect(run.code, run.stderr).toBe(0);
    expect(creates()).toBe(MAX_SERVER_FAILURES);

    merchant.mode({ kind: 'normal' });
    const before = merchant.requests.length;
    const retried = await runCli(dataDir, ['order', 'retry', ref]);
    expect(retried.code, retried.stderr).toBe(EXIT.ok);
    expect(merchant.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([`GET /orders/${ref}`, 'GET /goods/1001', 'POST /orders/create']);
    expect(merchant.charges.filter((c) => c.clientOrderRef === ref)).toHaveLength(1);
    const again = await runCli(dataDir, ['order', 'retry', ref]);
    expect(again.code).toBe(EXIT.usage);
  }, 120_000);
});

describe('sync meets an inconsistent catalog listing: exit 4, as reconcile does', () => {
  it.each<[PagingAnomaly, RegExp]>([
    ['totalGrows', /total changed from 230 to 231/],
    ['duplicates', /listed on page \d+ and again on page \d+/],
    ['emptyPage', /page 2 of 3 holds 0 items/],
    ['ignorePageSizeSilently', /page 1 of 3 holds 20 items, not 100/],
    ['samePageForever', /listed on page 1 and again on page \d+|more than \d+ pages/],
  ])('%s', async (anomaly, message) => {
    merchant.mode({ kind: 'paging', anomaly });
    const result = await runCli(dataDir, ['sync']);
    expect(result.code, result.stderr).toBe(EXIT.network);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toMatch(/inconsistent.*nothing was marked removed/);
    merchant.mode({ kind: 'normal' });
  }, 60_000);
});
