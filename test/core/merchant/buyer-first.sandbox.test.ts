// The buyer first (contract §8.1, issue 15 point 3): while a catalog sync of a few hundred products
// runs against the sandbox (HTTPS, both clocks 10× faster, SQLite on disk), the buyer opens products and
// fetches templates, ten a minute. Each waits at most 1 s of merchant time before it is sent, the sync
// still finishes, and nothing meets a 429. Waits are measured in the scaled clock's merchant time.
//
// Why it holds (quota-model.ts, contract §8.1.1): the sync keeps free what the buyer may ask before the
// window frees other slots (6 at once, 12 a minute pro rata in catalog) and yields to any buyer request
// waiting on a window it counts against. With the fixed twentieth the sync left before, the 7th
// request of the sync's first minute found the catalog minute spent and waited for the sync's slots to
// age out (13.6 s).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogRepository } from '../../../src/core/catalog/catalog-repository';
import { startSandbox, type RunningSandbox } from '../../support/sandbox-process';
import { evenBuyerLoad, syncUnderLoad } from '../../support/sync-under-load';
import { createMigratedDatabase, type TempDatabase } from '../db/temp-database';

const SCALE = 10;
const PRODUCTS = 360;
/**
 * One buyer request every 6 s of merchant time for 2.6 minutes: inside the sync, whose ~365 list and
 * detail requests take 3 minutes of the catalog group's 120 a minute (templates only where wanted).
 */
const BUYER_REQUESTS = 25;
const BUYER_SPAN_MS = 6_000 * (BUYER_REQUESTS + 1);
/** What the model guarantees a buyer's request while the buyer stays within the reserve. */
const MAX_WAIT_MS = 1_000;

let sandbox: RunningSandbox;
let temp: TempDatabase | null = null;

beforeAll(async () => {
  sandbox = await startSandbox(['--products', String(PRODUCTS), '--time-scale', String(SCALE)]);
});

afterAll(async () => {
  temp?.dispose();
  await sandbox?.stop();
});

describe('the buyer first: interactive requests during a catalog sync', () => {
  it('every product open and template fetch waits ≤ 1 s of merchant time, the sync finishes, 0 × 429', async () => {
    const db = createMigratedDatabase();
    temp = db;
    const run = await syncUnderLoad({ sandbox, scale: SCALE, repository: (clock) => createCatalogRepository(db.db, clock), load: evenBuyerLoad(BUYER_REQUESTS, BUYER_SPAN_MS) });

    expect(run.summary.detailsFetched).toBe(PRODUCTS);
    expect(run.waits).toHaveLength(BUYER_REQUESTS);
    // Every buyer request was made while the sync was still running (else it proves nothing).
    expect(Math.max(...run.waits.map((w) => w.askedAtMs))).toBeLessThan(run.syncMs);
    expect(run.waits.filter((w) => w.kind === 'template').length).toBeGreaterThan(0);
    const slow = run.waits.filter((w) => w.waitMs > MAX_WAIT_MS).map((w) => `${w.kind} asked at ${(w.askedAtMs / 1000).toFixed(1)} s waited ${(w.waitMs / 1000).toFixed(1)} s`);
    expect(slow).toEqual([]);
    expect(run.tooMany).toBe(0);
  });
});
