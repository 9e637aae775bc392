// The CLI as a user runs it against a hostile merchant: `catalog sync` told
// `Retry-After: 86400` ends at once with exit 4 and the time it may try again; a second process on the
// same data folder sends nothing before then; a revoked key ends with exit 3 and 401001, sent once.
// `order create` (its own data folder): a key revoked ends at once with exit 3 and 401001, the intent
// kept as needs_key and sent once by `run` after `connect` with the new key; a Retry-After beyond the
// 30 s a command waits ends at once with exit 4 and the time, the intent kept queued.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostileMerchant, type HostileMerchant } from '../support/hostile-merchant';
import { runCli } from './cli-kit';

let merchant: HostileMerchant;
let dataDir: string;
let caFile: string;

beforeAll(async () => {
  merchant = await startHostileMerchant({ products: 5 });
  dataDir = mkdtempSync(join(tmpdir(), 'procure-cli-refusals-'));
  caFile = join(dataDir, 'ca.pem');
  writeFileSync(caFile, merchant.ca);
  const connected = await runCli(dataDir, ['connect', '--base-url', merchant.baseUrl, '--user-id', merchant.userId, '--ca-cert', caFile], { apiKeyEnv: merchant.apiKey });
  expect(connected.code, connected.stderr).toBe(0);
});
afterAll(async () => {
  await merchant?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('cli against a hostile merchant', () => {
  it('a revoked key: exit 3 with 401001, sent once, never retried', async () => {
    merchant.mode({ kind: 'revoked' });
    merchant.requests.length = 0;
    const result = await runCli(dataDir, ['sync']);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toMatch(/401001 INVALID_CREDENTIAL \(requestId req_[0-9a-f]{24}\)/);
    expect(result.stderr).not.toContain(merchant.apiKey);
    expect(merchant.requests).toHaveLength(1);
  });

  it('Retry-After 86400: exit 4 at once naming the time; another process sends nothing before it', async () => {
    merchant.mode({ kind: 'retryAfter', value: '86400', limit: 600 });
    merchant.requests.length = 0;
    const first = await runCli(dataDir, ['sync']);
    expect(first.code, first.stderr).toBe(4);
    expect(first.stderr).toMatch(/may be sent again from \d{4}-\d\d-\d\dT/);
    expect(merchant.requests).toHaveLength(1);

    merchant.mode({ kind: 'normal' });
    const second = await runCli(dataDir, ['sync']);
    expect(second.code, second.stderr).toBe(4);
    expect(merchant.requests).toHaveLength(1);
  });
});

describe('order create against a hostile merchant', () => {
  let orderDir: string;
  beforeAll(async () => {
    orderDir = mkdtempSync(join(tmpdir(), 'procure-cli-order-refusals-'));
    writeFileSync(join(orderDir, 'ca.pem'), merchant.ca);
    merchant.mode({ kind: 'normal' });
    const connected = await runCli(orderDir, ['connect', '--base-url', merchant.baseUrl, '--user-id', merchant.userId, '--ca-cert', join(orderDir, 'ca.pem')], { apiKeyEnv: merchant.apiKey });
    expect(connected.code, connected.stderr).toBe(0);
  });
  afterAll(() => {
    rmSync(orderDir, { recursive: true, force: true });
  });

  const creates = (): number => merchant.requests.filter((r) => r.method === 'POST' && r.path === '/orders/create').length;
  const orderJson = (stdout: string): Record<string, unknown> => JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;

  it('--max-price is taken; a revoked key ends with exit 3 and 401001, the intent kept and sent once after connect with the new key', async () => {
    merchant.mode({ kind: 'normal' });
    const queued = await runCli(orderDir, ['order', 'create', '--product', '1001', '--units', '1', '--max-price', '20', '--queue-only']);
    expect(queued.code, queued.stderr).toBe(0);
    const queuedRef = String(orderJson(queued.stdout).clientOrderRef);

    const newKey = merchant.rotateKey();
    merchant.requests.length = 0;
    const refused = await runCli(orderDir, ['order', 'create', '--product', '1001', '--units', '1', '--max-price', '20']);
    expect(refused.code, refused.stderr).toBe(3);
    const out = orderJson(refused.stdout);
    expect(out).toMatchObject({ state: 'needs_key', code: 401001 });
    expect(refused.stderr).toMatch(/refused the API key \(401001 INVALID_CREDENTIAL\)/);
    expect(refused.stderr).not.toContain(newKey);
    // One request (the price guard's product read), refused; never retried, no create.
    expect(merchant.requests).toHaveLength(1);
    const parkedRef = String(out.clientOrderRef);

    const shown = await runCli(orderDir, ['order', 'show', parkedRef, '--json']);
    expect(shown.stdout).toContain('needs_key');

    const reconnected = await runCli(orderDir, ['connect', '--base-url', merchant.baseUrl, '--user-id', merchant.userId, '--ca-cert', join(orderDir, 'ca.pem')], { apiKeyEnv: newKey });
    expect(reconnected.code, reconnected.stderr).toBe(0);
    const run = await runCli(orderDir, ['run', '--until-idle']);
    expect(run.code, run.stderr).toBe(0);
    expect(merchant.charges.filter((c) => c.clientOrderRef === parkedRef)).toHaveLength(1);
    expect(merchant.charges.filter((c) => c.clientOrderRef === queuedRef)).toHaveLength(1);
  });

  it('a Retry-After beyond 30 s on the create ends at once with exit 4 and the time; the intent stays queued', async () => {
    merchant.mode({ kind: 'retryAfter', value: '45', paths: ['/orders/create'] });
    const before = creates();
    const startedMs = Date.now();
    const result = await runCli(orderDir, ['order', 'create', '--product', '1001', '--units', '1', '--max-price', '20']);
    expect(result.code, result.stderr).toBe(4);
    expect(result.stderr).toMatch(/may be sent again from \d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
    const out = orderJson(result.stdout);
    expect(out.state).toBe('queued');
    const notBefore = Date.parse(String(out.notBefore));
    expect(notBefore).toBeGreaterThanOrEqual(startedMs + 44_000);
    // One create, refused: the command did not sit through the wait to send it again.
    expect(creates()).toBe(before + 1);
    expect(merchant.charges.filter((c) => c.clientOrderRef === out.clientOrderRef)).toEqual([]);
  });
});
