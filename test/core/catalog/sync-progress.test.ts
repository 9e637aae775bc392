// The sync's progress math: the overall fraction is weighted by each phase's requests, is null (an
// indeterminate bar) while some phase's work is unknown, and never goes back over any run of progress
// events; the time left is null until enough answers came and the remaining work is known, and it
// counts the catalog quota's window instead of the fast first burst.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SYNC_WORK_PHASES, type SyncWorkPhase } from '../../../src/shared/ipc/views/catalog';
import { MINUTE_WINDOW_MS } from '../../../src/shared/merchant-quotas';
import { createEtaTracker, ETA_MIN_SAMPLES, quotaBoundMs, SYNC_WINDOW_CAPACITY } from '../../../src/core/catalog/sync-eta';
import { nextFraction, remainingRequests, UNKNOWN_WORK, workFraction, type PhaseWork, type SyncWork } from '../../../src/core/catalog/sync-progress';

const known = (done: number, total: number) => ({ done, total });
const work = (patch: Partial<SyncWork>): SyncWork => ({ ...UNKNOWN_WORK, ...patch });
const each = (of: (i: number) => PhaseWork): SyncWork => ({ list: of(0), details: of(1), templates: of(2) });

describe('overall fraction', () => {
  it('weights phases by their requests and is null while a phase has no count or bound', () => {
    expect(workFraction(UNKNOWN_WORK)).toBeNull();
    // Templates still unknown: no number, whatever the details say.
    expect(workFraction(work({ list: known(2, 2), details: known(59, 60) }))).toBeNull();
    // 2 + 60 + 0 of 2 + 60 + 108: 62 / 170, not "details 59 of 60 = 98 %".
    expect(workFraction(work({ list: known(2, 2), details: known(60, 60), templates: known(0, 108) }))).toBeCloseTo(62 / 170);
    expect(workFraction(work({ list: known(0, 0), details: known(0, 0), templates: known(0, 0) }))).toBe(1);
    expect(remainingRequests(work({ list: known(2, 3), details: known(3, 10), templates: known(0, 5) }))).toBe(13);
    expect(remainingRequests(work({ list: known(1, 1) }))).toBeNull();
  });

  it('never goes back and never turns indeterminate again over any run of progress events', () => {
    const event = fc.record({
      phase: fc.constantFrom<SyncWorkPhase>(...SYNC_WORK_PHASES),
      done: fc.nat({ max: 500 }),
      total: fc.option(fc.nat({ max: 500 }), { nil: null }),
    });
    fc.assert(
      fc.property(fc.array(event, { maxLength: 60 }), (events) => {
        let state: SyncWork = UNKNOWN_WORK;
        let shown: number | null = null;
        for (const { phase, done, total } of events) {
          state = { ...state, [phase]: { done, total } };
          const next = nextFraction(shown, state);
          if (shown !== null) {
            expect(next).not.toBeNull();
            expect(next ?? -1).toBeGreaterThanOrEqual(shown);
          }
          if (next !== null) {
            expect(next).toBeGreaterThanOrEqual(0);
            expect(next).toBeLessThanOrEqual(1);
          }
          shown = next;
        }
      }),
    );
  });

  it('is 0 at the start of a known run and 1 when every request is answered', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 300 }), { minLength: 3, maxLength: 3 }), (totals) => {
        const phases = each((i) => known(0, totals[i] ?? 0));
        const sum = totals.reduce((a, b) => a + b, 0);
        expect(workFraction(phases)).toBe(sum === 0 ? 1 : 0);
        const finished = each((i) => known(totals[i] ?? 0, totals[i] ?? 0));
        expect(workFraction(finished)).toBe(1);
      }),
    );
  });
});

describe('time left', () => {
  it('is null until enough answers came and while the remaining work is unknown', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 5000 }), { maxLength: ETA_MIN_SAMPLES - 1 }), fc.nat({ max: 10_000 }), (gaps, remaining) => {
        const eta = createEtaTracker();
        let now = 1_000_000;
        for (const gap of gaps) {
          now += gap;
          eta.answered(now);
        }
        expect(eta.estimate(now, remaining === 0 ? 1 : remaining)).toBeNull();
      }),
    );
    const eta = createEtaTracker();
    for (let i = 0; i < 50; i++) eta.answered(1_000_000 + i * 100);
    expect(eta.estimate(1_005_000, null)).toBeNull();
    expect(eta.estimate(1_005_000, 0)).toBe(0);
  });

  it('counts the quota window: 60 fast answers and 2 000 left is minutes, not "about 2 s"', () => {
    const eta = createEtaTracker();
    const start = 1_000_000;
    for (let i = 0; i < 60; i++) eta.answered(start + i * 16);
    const now = start + 60 * 16;
    const left = eta.estimate(now, 2000) ?? 0;
    // The burst's pace alone would say 2 000 × 16 ms = 32 s.
    const windows = Math.ceil((2000 - (SYNC_WINDOW_CAPACITY - 60)) / SYNC_WINDOW_CAPACITY);
    expect(left).toBeGreaterThanOrEqual((windows - 1) * MINUTE_WINDOW_MS + (MINUTE_WINDOW_MS - 60 * 16));
    expect(left).toBeGreaterThan(15 * MINUTE_WINDOW_MS);
  });

  it('never promises less than the window allows, whatever the pace', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 3000 }), { minLength: ETA_MIN_SAMPLES, maxLength: 200 }), fc.integer({ min: 1, max: 5000 }), (gaps, remaining) => {
        const eta = createEtaTracker();
        const recent: number[] = [];
        let now = 5_000_000;
        for (const gap of gaps) {
          now += gap;
          eta.answered(now);
          recent.push(now);
        }
        const inWindow = recent.filter((at) => at > now - MINUTE_WINDOW_MS);
        const left = eta.estimate(now, remaining);
        if (inWindow.length < 2) return;
        expect(left).not.toBeNull();
        expect(left ?? 0).toBeGreaterThanOrEqual(quotaBoundMs(now, inWindow, remaining));
        if (remaining > SYNC_WINDOW_CAPACITY) expect(left ?? 0).toBeGreaterThan(0);
      }),
    );
  });
});
