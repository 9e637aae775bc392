// The merchant's refusals over real HTTPS (interface v1 §5 / 7.5 / 8), against the hostile merchant
// in test/support and a core built as the app builds it (SQLite on disk, the request sender, the
// quota model): 401/403 are typed, never retried and not sent again on that key; 500 is tried at most
// 3 times and every requestId is kept; a Retry-After beyond what a call may wait ends the call at once
// with the time, is stored per quota group, and a restarted core on the same data folder obeys it; an
// HTTP-date Retry-After is read as a date.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../src/core/create-core';
import { RedactingLogger } from '../../../src/core/logging/redacting-logger';
import { MerchantAccessError, MerchantApiError, MerchantNotBeforeError } from '../../../src/core/merchant/merchant-errors';
import { createNodeHttpsPort } from '../../../src/core/merchant/node-https-port';
import { createScaledClock, type Clock } from '../../../src/core/platform/clock';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';
import { startHostileMerchant, type HostileMerchant } from '../../support/hostile-merchant';
import { recordingPort, rejectionOf, type Exchange } from './client-kit';

const SCALE = 20;
let merchant: HostileMerchant;
let dataDir: string;
let core: Core;
let clock: Clock;
let exchanges: Exchange[];
const closers: (() => void)[] = [];

async function openCore(): Promise<Core> {
  const opened = await createCore({
    dataDir,
    secrets: secrets,
    logger: new RedactingLogger({ sink: () => undefined, level: 'error' }),
    clock,
    http: (ca) => {
      const https = createNodeHttpsPort(ca === null ? {} : { ca });
      closers.push(() => https.close());
      const recording = recordingPort(https, clock);
      exchanges = recording.exchanges;
      return recording.port;
    },
  });
  return opened;
}

let secrets: MemorySecretStore;

beforeAll(async () => {
  merchant = await startHostileMerchant({ products: 30 });
});
afterAll(async () => {
  await merchant.close();
});

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'procure-refusals-'));
  secrets = new MemorySecretStore();
  clock = createScaledClock(SCALE);
  merchant.mode({ kind: 'normal' });
  core = await openCore();
  await core.connect({ baseUrl: merchant.baseUrl, userId: merchant.userId, apiKey: merchant.apiKey, caCertPem: merchant.ca });
  merchant.requests.length = 0;
});
afterEach(async () => {
  await core.close();
  for (const close of closers.splice(0)) close();
  rmSync(dataDir, { recursive: true, force: true });
});

const requestIdsSent = (): string[] => exchanges.map((e) => e.headers['x-request-id']).filter((id): id is string => id !== undefined);

describe('401 and 403 (interface v1 §5, 7.5: never retried)', () => {
  it('a revoked key: one request, a typed keyInvalid error, and nothing more is sent on that key', async () => {
    const { client } = await core.merchant();
    merchant.mode({ kind: 'revoked' });
    const first = await rejectionOf(client.getProduct(1001));
    expect(first).toBeInstanceOf(MerchantAccessError);
    if (!(first instanceof MerchantAccessError)) return;
    expect(first.refusal).toBe('keyInvalid');
    expect(first.code).toBe(401001);
    expect(first.notSent).toBe(false);
    expect(first.requestIds).toHaveLength(1);
    expect(merchant.requests).toHaveLength(1);

    // Every other endpoint is refused here, without a request that would only be refused again.
    for (const call of [() => client.getProduct(1002), () => client.getOrder('ord-1'), () => client.listCatalog({ page: 1 })]) {
      const again = await rejectionOf(call());
      expect(again).toBeInstanceOf(MerchantAccessError);
      if (again instanceof MerchantAccessError) expect({ refusal: again.refusal, notSent: again.notSent }).toEqual({ refusal: 'keyInvalid', notSent: true });
    }
    expect(merchant.requests).toHaveLength(1);
    expect((await core.merchant()).accessRefusal()?.refusal).toBe('keyInvalid');
    // No message carries the key.
    expect(first.message).not.toContain(merchant.apiKey);

    // A key entered again (connect) is a new gate: requests go once more.
    merchant.mode({ kind: 'normal' });
    await core.connect({ baseUrl: merchant.baseUrl, userId: merchant.userId, apiKey: merchant.apiKey, caCertPem: merchant.ca });
    const { client: renewed } = await core.merchant();
    expect((await renewed.getProduct(1001)).data.productRef).toBe(1001);
  });

  it('a suspended account: 403005 typed as suspended; only GET /account is sent until it no longer says suspended', async () => {
    const { client } = await core.merchant();
    merchant.mode({ kind: 'suspended' });
    const first = await rejectionOf(client.getTemplate(1001, null));
    expect(first).toBeInstanceOf(MerchantAccessError);
    if (!(first instanceof MerchantAccessError)) return;
    expect({ refusal: first.refusal, code: first.code, httpStatus: first.httpStatus }).toEqual({ refusal: 'suspended', code: 403005, httpStatus: 403 });
    expect(merchant.requests).toHaveLength(1);
    await rejectionOf(client.getProduct(1001));
    expect(merchant.requests).toHaveLength(1);

    // GET /account still goes (interface v1 §3.3) and keeps the pause while it says suspended.
    expect((await client.getAccount()).data.accessState).toBe('suspended');
    expect(merchant.requests.map((r) => r.path)).toEqual(['/goods/tpl?productRef=1001', '/account']);
    expect(await rejectionOf(client.getProduct(1001))).toBeInstanceOf(MerchantAccessError);
    expect(merchant.requests).toHaveLength(2);

    merchant.mode({ kind: 'normal' });
    expect((await client.getAccount()).data.accessState).toBe('active');
    expect((await client.getProduct(1001)).data.productRef).toBe(1001);
  });

  it('an IP not on the allow-list: 403002 typed as ipDenied, sent once', async () => {
    const { client } = await core.merchant();
    merchant.mode({ kind: 'ipDenied' });
    const error = await rejectionOf(client.getOrder('ord-ip-1'));
    expect(error).toBeInstanceOf(MerchantAccessError);
    if (error instanceof MerchantAccessError) expect({ refusal: error.refusal, code: error.code }).toEqual({ refusal: 'ipDenied', code: 403002 });
    expect(merchant.requests).toHaveLength(1);
  });
});

describe('500 (interface v1 §7.5: a limited number of times, keep requestId)', () => {
  it('is sent at most 3 times per call, and the error carries the requestId of every attempt', async () => {
    const { client } = await core.merchant();
    merchant.mode({ kind: 'fail500' });
    const error = await rejectionOf(client.getProduct(1001));
    expect(error).toBeInstanceOf(MerchantApiError);
    if (!(error instanceof MerchantApiError)) return;
    expect(error.code).toBe(500001);
    expect(merchant.requests).toHaveLength(3);
    expect(error.requestIds).toHaveLength(3);
    expect(new Set(error.requestIds).size).toBe(3);
    expect(error.requestIds).toEqual(requestIdsSent().slice(-3));
    expect(error.requestId).toBe(error.requestIds[2]);
  });
});

describe('Retry-After (interface v1 §7.5, 8.2)', () => {
  it('86400 s: the call ends at once with the time it may be sent again, and the hold is kept per group for every process', async () => {
    const { client } = await core.merchant();
    merchant.mode({ kind: 'retryAfter', value: '86400' });
    const before = clock.nowMs();
    const error = await rejectionOf(client.getProduct(1001));
    const waited = clock.nowMs() - before;
    expect(error).toBeInstanceOf(MerchantNotBeforeError);
    if (!(error instanceof MerchantNotBeforeError)) return;
    expect(error.scope).toBe('catalog');
    expect(error.notBeforeMs).toBeGreaterThanOrEqual(before + 86_400_000);
    expect(error.notBeforeMs).toBeLessThanOrEqual(clock.nowMs() + 86_400_000);
    expect(error.requestIds).toHaveLength(1);
    expect(waited).toBeLessThan(30_000);
    expect(merchant.requests).toHaveLength(1);

    expect((await core.merchant()).notBeforeOn(['orderRead', 'catalog'])?.untilMs).toBe(error.notBeforeMs);
    expect((await core.merchant()).notBeforeOn(['orderRead'])).toBeNull();
    // Same group: refused here, nothing sent. Another group is not held.
    merchant.mode({ kind: 'normal' });
    const held = await rejectionOf(client.getTemplate(1002, null));
    expect(held).toBeInstanceOf(MerchantNotBeforeError);
    expect(merchant.requests).toHaveLength(1);
    expect((await client.getAccount()).data.accessState).toBe('active');
    expect(merchant.requests).toHaveLength(2);

    // A restarted process on the same data folder obeys it too.
    await core.close();
    core = await openCore();
    const { client: restarted } = await core.merchant();
    const afterRestart = await rejectionOf(restarted.getProduct(1003));
    expect(afterRestart).toBeInstanceOf(MerchantNotBeforeError);
    if (afterRestart instanceof MerchantNotBeforeError) expect(afterRestart.notBeforeMs).toBe(error.notBeforeMs);
    expect(merchant.requests).toHaveLength(2);
  });

  it('a 429 on the account total (X-RateLimit-Limit 600) holds every group', async () => {
    const { client } = await core.merchant();
    merchant.mode({ kind: 'retryAfter', value: '3600', limit: 600 });
    const error = await rejectionOf(client.getOrder('ord-total-1'));
    expect(error).toBeInstanceOf(MerchantNotBeforeError);
    if (error instanceof MerchantNotBeforeError) expect(error.scope).toBe('total');
    merchant.mode({ kind: 'normal' });
    expect(await rejectionOf(client.getProduct(1001))).toBeInstanceOf(MerchantNotBeforeError);
    expect(await rejectionOf(client.listCategories())).toBeInstanceOf(MerchantNotBeforeError);
    expect(merchant.requests).toHaveLength(1);
  });

  it('an HTTP-date is read as a date, against the answer’s Date header', async () => {
    const { client } = await core.merchant();
    const serverNow = Date.UTC(2030, 0, 1, 0, 0, 0);
    const dateHeader = new Date(serverNow).toUTCString();
    merchant.mode({ kind: 'retryAfter', value: new Date(serverNow + 3_600_000).toUTCString(), date: dateHeader, status: 503 });
    const before = clock.nowMs();
    const far = await rejectionOf(client.getProduct(1001));
    expect(far).toBeInstanceOf(MerchantNotBeforeError);
    if (!(far instanceof MerchantNotBeforeError)) return;
    expect(far.notBeforeMs - before).toBeGreaterThanOrEqual(3_600_000);
    expect(far.notBeforeMs - clock.nowMs()).toBeLessThanOrEqual(3_600_000);
  });

  it('a near HTTP-date is waited for between attempts (a 503 is retried, never earlier than the date)', async () => {
    const { client } = await core.merchant();
    const serverNow = Date.UTC(2030, 0, 1, 0, 0, 0);
    merchant.mode({ kind: 'retryAfter', value: new Date(serverNow + 4000).toUTCString(), date: new Date(serverNow).toUTCString(), status: 503 });
    // It ends as the last 503, or (once the waits add up past the call's 30 s) with the time to come back.
    const error = await rejectionOf(client.getAccount());
    expect(error instanceof MerchantApiError || error instanceof MerchantNotBeforeError).toBe(true);
    const sent = exchanges.filter((e) => e.url.endsWith('/account') && e.status === 503);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < sent.length; i++) expect((sent[i]?.sentAt ?? 0) - (sent[i - 1]?.sentAt ?? 0)).toBeGreaterThanOrEqual(4000);
  });
});
