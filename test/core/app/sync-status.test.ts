// The sync status tells the truth over real HTTPS against the sandbox: a first sync says it is one
// (no "last synced" yet) and reports step i of 4 with a fraction that never goes back; a later sync
// that fails under the merchant's 503s keeps the last success's time and stores the failure as the
// merchant's code and requestId (no English text), through a restart of what the runner knows; the
// next good sync clears it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncProgressView, SyncStatus } from '../../../src/shared/ipc/views/catalog';
import { MERCHANT_ERROR } from '../../../src/shared/merchant-error-codes';
import { openConnectedApp, waitFor, type AppKit, type Merchant } from './app-kit';

const SCALE = 20;
let kit: AppKit;
let merchant: Merchant;

beforeAll(async () => {
  // connection.connect starts the first sync by itself.
  ({ kit, merchant } = await openConnectedApp(SCALE, { autoAdvance: false, products: 60 }));
});
afterAll(async () => {
  await kit?.close();
  await merchant?.stop();
});

const finished = (): Promise<SyncStatus> =>
  waitFor('the sync to end', async () => {
    const status = await kit.ok('catalog.syncStatus');
    return status.running ? null : status;
  }, 120_000);

const progressEvents = (): SyncProgressView[] => kit.events.filter((e) => e.event === 'catalog.syncProgress').map((e) => e.payload as SyncProgressView);

describe('sync status', () => {
  it('a first sync says so, reports step i of 4 and an overall fraction that never goes back', async () => {
    const during = await kit.ok('catalog.syncStatus');
    expect(during.running).toBe(true);
    expect(during.lastSyncedAt).toBeNull();
    expect(during.failure).toBeNull();
    expect(during.progress?.phaseCount).toBe(4);
    const done = await finished();
    expect(done.failure).toBeNull();
    expect(done.lastSyncedAt).not.toBeNull();

    const events = progressEvents();
    if (process.env['SHOW_SYNC_EVENTS'] !== undefined) console.log(events.map((e) => `${e.phase} ${e.done}/${e.total} ${e.fraction?.toFixed(3)} ${e.etaMs}`).join('\n'));
    const work = events.filter((e) => e.phaseIndex !== null);
    expect(new Set(work.map((e) => `${e.phaseIndex}:${e.phase}`))).toEqual(new Set(['1:categories', '2:pages', '3:details', '4:templates']));
    let shown = -1;
    for (const event of work) {
      if (event.fraction === null) {
        // Indeterminate only before any number was shown.
        expect(shown).toBe(-1);
        continue;
      }
      expect(event.fraction).toBeGreaterThanOrEqual(shown);
      shown = event.fraction;
    }
    // The details are weighed against the templates still to come: never 100 % before the end.
    const lastDetail = work.filter((e) => e.phase === 'details').at(-1);
    expect(lastDetail?.fraction ?? 1).toBeLessThan(1);
    // No time left is promised from the first few answers.
    expect(work.slice(0, 5).every((e) => e.etaMs === null)).toBe(true);
    expect(events.at(-1)).toMatchObject({ phase: 'done', phaseIndex: null });
  });

  it('a sync failing under 503s keeps the last success and stores the merchant code and requestId', async () => {
    const before = await kit.ok('catalog.syncStatus');
    const lastSuccess = before.lastSyncedAt;
    expect(lastSuccess).not.toBeNull();
    await merchant.control('POST', '/control/faults', { errorRate: 1, errorStatus: 503 });
    try {
      const started = await kit.ok('catalog.sync');
      expect(started.running).toBe(true);
      expect(started.lastSyncedAt).toBe(lastSuccess);
      const failed = await finished();
      expect(failed.lastSyncedAt).toBe(lastSuccess);
      expect(failed.failure).toMatchObject({ kind: 'merchant', merchantCode: MERCHANT_ERROR.TEMPORARILY_UNAVAILABLE, transportReason: null, notBeforeAt: null });
      expect(failed.failure?.requestId).toMatch(/\S/);
      // Stored, not only in the runner's memory: a restarted core shows the same.
      expect(kit.core.catalog.readSyncState()).toMatchObject({ lastSuccessAt: lastSuccess, failure: failed.failure });
      // Nothing in the status is English prose for the screen.
      expect(JSON.stringify(failed)).not.toMatch(/TEMPORARILY_UNAVAILABLE|merchant error/);
    } finally {
      await merchant.control('POST', '/control/faults', { errorRate: 0 });
    }

    await kit.ok('catalog.sync');
    const again = await finished();
    expect(again.failure).toBeNull();
    expect(again.lastSyncedAt ?? 0).toBeGreaterThanOrEqual(lastSuccess ?? Infinity);
  });
});
