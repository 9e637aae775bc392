// Background workers pause on the merchant's refusals instead of hammering: a Retry-After
// hold stored in SQLite on a group the worker uses keeps its passes from running until the hold ends;
// a suspension keeps them from running until GET /account (asked by the paused worker now and then,
// over real HTTPS to the hostile merchant) no longer says suspended; a revoked key keeps them paused
// and asks nothing.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACCESS_RECHECK_MS, createAccessGate, type AccessGate } from '../../../src/core/merchant/access-gate';
import { MerchantAccessError } from '../../../src/core/merchant/merchant-errors';
import { createNotBeforeStore, type NotBeforeStore } from '../../../src/core/merchant/not-before-store';
import { merchantWorkerPause } from '../../../src/core/merchant/worker-pause';
import { createWorkerLoop, type WorkerLoop } from '../../../src/core/platform/worker-loop';
import { startHostileMerchant, type HostileMerchant } from '../../support/hostile-merchant';
import { createMigratedDatabase, type TempDatabase } from '../db/temp-database';
import { buildClient, silentLogger, type Kit } from './client-kit';

// Five minutes of recheck interval pass in a third of a second.
const SCALE = 1000;
let merchant: HostileMerchant;
let temp: TempDatabase;
let kit: Kit;
let store: NotBeforeStore;
let access: AccessGate;
let loop: WorkerLoop | null = null;
const passesAt: number[] = [];

beforeAll(async () => {
  merchant = await startHostileMerchant({ products: 3 });
});
afterAll(async () => {
  await merchant.close();
});
beforeEach(() => {
  merchant.mode({ kind: 'normal' });
  merchant.requests.length = 0;
  temp = createMigratedDatabase();
  kit = buildClient({ baseUrl: merchant.baseUrl, userId: merchant.userId, apiKey: merchant.apiKey, ca: merchant.ca, scale: SCALE });
  store = createNotBeforeStore(temp.db);
  access = createAccessGate(kit.clock);
  passesAt.length = 0;
});
afterEach(async () => {
  await loop?.stop();
  loop = null;
  kit.close();
  temp.dispose();
});

function startWorker(): void {
  const probe = async (): Promise<void> => {
    const { data } = await kit.client.getAccount();
    access.accountAnswered(data.accessState);
  };
  loop = createWorkerLoop({
    clock: kit.clock,
    logger: silentLogger,
    name: 'test worker',
    pass: () => {
      passesAt.push(kit.clock.nowMs());
      return Promise.resolve();
    },
    waitMs: () => 10_000,
    pause: merchantWorkerPause({ notBefore: store, access, clock: kit.clock, probe }, ['catalog']),
  });
  loop.start();
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!condition()) throw new Error(`timed out waiting for ${what}`);
}

describe('background workers pause on the merchant’s refusals', () => {
  it('a Retry-After hold on a group the worker uses: no pass before it ends, then passes again', async () => {
    const holdUntil = kit.clock.nowMs() + 120_000;
    store.hold('catalog', holdUntil, 'req_000000000000000000000001', kit.clock.nowMs());
    startWorker();
    await until(() => passesAt.length > 0, 'the first pass after the hold');
    expect(passesAt[0]).toBeGreaterThanOrEqual(holdUntil);
  });

  it('a hold on the account total pauses it as well; a hold on another group does not', async () => {
    store.hold('orderCreate', kit.clock.nowMs() + 10_000_000, null, kit.clock.nowMs());
    const totalUntil = kit.clock.nowMs() + 60_000;
    store.hold('total', totalUntil, null, kit.clock.nowMs());
    startWorker();
    await until(() => passesAt.length > 0, 'a pass');
    expect(passesAt[0]).toBeGreaterThanOrEqual(totalUntil);
  });

  it('a suspension: no pass, GET /account asked at most every 5 minutes, passes again once it is lifted', async () => {
    merchant.mode({ kind: 'suspended' });
    access.refused(new MerchantAccessError(403, 403005, null));
    startWorker();
    await until(() => merchant.requests.length >= 2, 'two GET /account rechecks');
    expect(passesAt).toEqual([]);
    expect(merchant.requests.every((r) => r.path === '/account')).toBe(true);
    const probes = kit.exchanges.filter((e) => e.url.endsWith('/account')).map((e) => e.sentAt);
    for (let i = 1; i < probes.length; i++) expect((probes[i] ?? 0) - (probes[i - 1] ?? 0)).toBeGreaterThanOrEqual(ACCESS_RECHECK_MS);

    const liftedFrom = merchant.requests.length;
    merchant.mode({ kind: 'normal' });
    await until(() => passesAt.length > 0, 'a pass after the suspension');
    expect(merchant.requests.length).toBeGreaterThan(liftedFrom);
    expect(access.refusal()).toBeNull();
  });

  it('a revoked key: paused, and not even GET /account is sent (only a new key lifts it)', async () => {
    access.refused(new MerchantAccessError(401, 401001, null));
    startWorker();
    const from = kit.clock.nowMs();
    // Let more than two recheck intervals pass on the worker's clock.
    await until(() => kit.clock.nowMs() - from > 3 * ACCESS_RECHECK_MS, 'three recheck intervals');
    expect(passesAt).toEqual([]);
    expect(merchant.requests).toEqual([]);
  });
});
