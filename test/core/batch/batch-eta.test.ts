// The batch's ETA from the orderCreate quota (contract §13.4): what fits in the minute's free slots
// goes at the burst pace (10 a second), every further 120 waits one more window, and a measured pace
// slower than the quota wins; nothing left to send is no ETA.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchEtaMs, batchQuotaBoundMs } from '../../../src/core/batch/batch-eta';

const NOW = 10_000_000;

describe('batch ETA', () => {
  it('follows the quota: the burst within the window, then whole windows', () => {
    expect(batchEtaMs(NOW, [], 0)).toBeNull();
    expect(batchQuotaBoundMs(NOW, [], 1)).toBe(0);
    expect(batchQuotaBoundMs(NOW, [], 10)).toBe(0);
    expect(batchQuotaBoundMs(NOW, [], 11)).toBe(1000);
    expect(batchQuotaBoundMs(NOW, [], 120)).toBe(11_000);
    // 1,000 rows with a fresh window: 120 now, 880 more in the 8 windows that follow (at 60 s … 480 s), the last 40 at the burst pace.
    expect(batchQuotaBoundMs(NOW, [], 1000)).toBe(60_000 + 7 * 60_000 + 3000);
    // A full window that frees in 20 s: the next 120 wait for it.
    const full = Array.from({ length: 120 }, () => NOW - 40_000);
    expect(batchQuotaBoundMs(NOW, full, 1)).toBe(20_000);
    // 119 slots free and the taken one frees in 7.999 s: the 120 creates still take the burst's 11 s
    // (found by the property below: 85 rows said 8 s, 120 said 7.999 s).
    expect(batchQuotaBoundMs(NOW, [NOW - 52_001], 85)).toBe(8000);
    expect(batchQuotaBoundMs(NOW, [NOW - 52_001], 120)).toBe(11_000);
    // Measured: 1 create a second over the last minute is slower than the quota for 50 rows.
    const slow = Array.from({ length: 30 }, (_, i) => NOW - 30_000 + i * 1000);
    expect(batchEtaMs(NOW, slow, 50)).toBe(50_000);
  });

  it('never says less time for more rows, nor less than the quota allows (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 120_000 }), { maxLength: 200 }), fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 1, max: 500 }), (ages, remaining, more) => {
        const answered = ages.map((age) => NOW - age);
        const eta = batchEtaMs(NOW, answered, remaining) ?? -1;
        expect(eta).toBeGreaterThanOrEqual(batchQuotaBoundMs(NOW, [...answered].sort((a, b) => a - b), remaining));
        expect(batchQuotaBoundMs(NOW, [...answered].sort((a, b) => a - b), remaining + more)).toBeGreaterThanOrEqual(batchQuotaBoundMs(NOW, [...answered].sort((a, b) => a - b), remaining));
      }),
      { numRuns: 300 },
    );
  });
});
