// The sync status tells the truth over real HTTPS against the sandbox: a first sync says it is one
// (no "last synced" yet) and reports step i of 3 with a fraction that never goes back; a later sync
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
  it('a first sync says so, reports step i of 3 and an overall fraction that never goes back', async () => {
    const during = await kit.ok('catalog.syncStatus');
    expect(during.running).toBe(true);
    expect(during.lastSyncedAt).toBeNull();
    expect(during.failure).toBeNull();
    expect(during.progress?.phaseCount).toBe(3);
    const done = await finished();
    expect(done.failure).toBeNull();
    expect(done.lastSyncedAt).not.toBeNull();

    const events = progressEvents();
    if (process.env['SHOW_SYNC_EVENTS'] !== undefined) console.log(events.map((e) => `${e.phase} ${e.done}/${e.total} ${e.fraction?.toFixed(3)} ${e.etaMs}`).join('\n'));
    const work = events.filter((e) => e.phaseIndex !== null);
    expect(new Set(work.map((e) => `${e.phaseIndex}:${e.phase}`))).toEqual(new Set(['1:list', '2:details', '3:templates']));
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
    // Nothing watched or ordered: the templates phase has no work (issue 15: templates only where wanted).
    expect(work.filter((e) => e.phase === 'templates').every((e) => e.total === 0 && e.templateScope === 'wanted')).toBe(true);
    // The list is weighed against the details still to come: never 100 % before the last detail.
    const beforeLastDetail = work.slice(0, work.findLastIndex((e) => e.phase === 'details'));
    expect(beforeLastDetail.every((e) => (e.fraction ?? 0) < 1)).toBe(true);
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
