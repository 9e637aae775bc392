// toSyncStatus: the last success is the stored one whatever the run in the row is doing; a failure is
// shown only while no run goes on; the running sync's progress rides along.
import { describe, expect, it } from 'vitest';
import { toSyncStatus } from '../../../src/core/app/view-mapping';
import type { SyncFailure, SyncState } from '../../../src/core/catalog/sync-state';
import type { SyncProgressView } from '../../../src/shared/ipc/views/catalog';

const failure: SyncFailure = { kind: 'merchant', merchantCode: 503001, transportReason: null, requestId: 'req_1', notBeforeAt: null, at: 300 };
const state = (patch: Partial<SyncState>): SyncState => ({
  phase: 'details',
  nextPage: 2,
  itemsDone: 0,
  itemsTotal: null,
  startedAt: 200,
  updatedAt: 250,
  finishedAt: null,
  lastSuccessAt: 100,
  failure: null,
  ...patch,
});
const progress: SyncProgressView = { phase: 'details', phaseIndex: 2, phaseCount: 3, done: 1, total: 9, fraction: 0.2, etaMs: null, templateScope: 'wanted' };
const idle = { running: false, progress: null, failure: null };

describe('sync status mapping', () => {
  it('keeps the last success through a failed run and a new run', () => {
    expect(toSyncStatus(state({ failure }), idle, 60)).toEqual({ running: false, phase: 'details', lastSyncedAt: 100, failure, progress: null, products: 60 });
    expect(toSyncStatus(state({ failure }), { running: true, progress, failure: null }, 60)).toEqual({
      running: true,
      phase: 'details',
      lastSyncedAt: 100,
      failure: null,
      progress,
      products: 60,
    });
  });

  it('has no last success before the first finished sync, and prefers what this process saw fail', () => {
    expect(toSyncStatus(null, idle, 0)).toMatchObject({ lastSyncedAt: null, failure: null, phase: null });
    expect(toSyncStatus(state({ lastSuccessAt: null }), { running: true, progress, failure: null }, 5)).toMatchObject({ lastSyncedAt: null, running: true });
    const live: SyncFailure = { ...failure, kind: 'transport', merchantCode: null, transportReason: 'timeout' };
    expect(toSyncStatus(state({ failure }), { running: false, progress: null, failure: live }, 5).failure).toEqual(live);
  });
});
