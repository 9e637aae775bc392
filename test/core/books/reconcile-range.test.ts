// The day boundary rule: a day runs from local midnight to one second before the next, in the buyer's
// time zone; yesterday by default; odd input refused with the field named.
import { describe, expect, it } from 'vitest';
import { reconcileRange, ReconcileRangeError, yesterday } from '../../../src/core/books/reconcile-range';

const noon = new Date(2026, 10, 26, 12, 0, 0).getTime();

describe('reconcile range', () => {
  it('is yesterday by default, from local midnight to the second before the next', () => {
    const range = reconcileRange({}, noon);
    expect(range.fromDay).toBe('2026-11-25');
    expect(range.toDay).toBe('2026-11-25');
    expect(range.createdFrom * 1000).toBe(new Date(2026, 10, 25).getTime());
    expect(range.createdTo * 1000).toBe(new Date(2026, 10, 26).getTime() - 1000);
    expect(yesterday(new Date(2026, 0, 1, 0, 30).getTime())).toBe('2025-12-31');
  });

  it('takes one day for a missing end or start, and covers several days', () => {
    expect(reconcileRange({ fromDay: '2026-11-01' }, noon).toDay).toBe('2026-11-01');
    expect(reconcileRange({ toDay: '2026-11-02' }, noon).fromDay).toBe('2026-11-02');
    const month = reconcileRange({ fromDay: '2026-10-01', toDay: '2026-10-31' }, noon);
    expect(month.createdTo - month.createdFrom + 1).toBe(Math.round((new Date(2026, 10, 1).getTime() - new Date(2026, 9, 1).getTime()) / 1000));
  });

  it('refuses days that do not exist, a range that ends before it starts, the future and too long a range', () => {
    const refused = (input: { fromDay?: string; toDay?: string }): string => {
      try {
        reconcileRange(input, noon);
        return 'accepted';
      } catch (error) {
        return error instanceof ReconcileRangeError ? error.field : 'other';
      }
    };
    expect(refused({ fromDay: '2026-02-30' })).toBe('fromDay');
    expect(refused({ fromDay: '2026-11-20', toDay: '2026-11-19' })).toBe('toDay');
    expect(refused({ fromDay: '2026-11-27' })).toBe('fromDay');
    expect(refused({ fromDay: '2026-01-01', toDay: '2026-11-01' })).toBe('toDay');
    expect(refused({ fromDay: '2026-11-26' })).toBe('accepted');
  });
});
