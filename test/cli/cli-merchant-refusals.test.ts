// The CLI as a user runs it against a hostile merchant (issue 11): `catalog sync` told
// `Retry-After: 86400` ends at once with exit 4 and the time it may try again; a second process on the
// same data folder sends nothing before then; a revoked key ends with exit 3 and 401001, sent once.
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
