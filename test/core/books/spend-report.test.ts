// The spend rules on SQLite on disk: what the merchant charged for accepted orders, what came back,
// per local day (the buyer's zone, not UTC), success that never includes an unknown state, the median
// time to delivery, groups and filters, and the balance runs as observed.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { recordBalance } from '../../../src/core/books/balance-history';
import { LocalDayError, daysBetween, localDayOf, startOfLocalDay } from '../../../src/core/books/local-days';
import { median, outcomeOf, spendReport } from '../../../src/core/books/spend-report';
import { createMigratedDatabase, type TempDatabase } from '../db/temp-database';
import { seedOrder, seedProduct } from './spend-fixtures';

const SH = 'Asia/Shanghai';
/** 2026-11-10 00:00 in Shanghai, in seconds. */
const NOV10 = Date.UTC(2026, 10, 9, 16) / 1000;
const HOUR = 3600;

let temp: TempDatabase | null = null;
afterEach(() => {
  temp?.dispose();
  temp = null;
});

const query = { from: '2026-11-10', to: '2026-11-12', timeZone: SH };

describe('local days', () => {
  it('starts a day at local midnight and puts an instant on its local day', () => {
    expect(startOfLocalDay(SH, '2026-11-10')).toBe(NOV10 * 1000);
    expect(localDayOf(SH, NOV10 * 1000 - 1)).toBe('2026-11-09');
    expect(localDayOf(SH, NOV10 * 1000)).toBe('2026-11-10');
    // A day with a daylight-saving change is 23 hours long where the zone has one.
    const ny = startOfLocalDay('America/New_York', '2026-03-09') - startOfLocalDay('America/New_York', '2026-03-08');
    expect(ny).toBe(23 * HOUR * 1000);
  });

  it('refuses a bad day, a reversed or too long range, an unknown zone', () => {
    expect(() => startOfLocalDay(SH, '2026-02-30')).toThrow(LocalDayError);
    expect(() => startOfLocalDay(SH, '26-1-1')).toThrow(LocalDayError);
    expect(() => daysBetween('2026-11-12', '2026-11-10', 366)).toThrow(LocalDayError);
    expect(() => daysBetween('2025-01-01', '2026-12-31', 366)).toThrow(LocalDayError);
    expect(() => startOfLocalDay('Mars/Olympus', '2026-11-10')).toThrow(LocalDayError);
    expect(daysBetween('2026-11-10', '2026-11-12', 366)).toEqual(['2026-11-10', '2026-11-11', '2026-11-12']);
  });
});

describe('spend report', () => {
  it('counts charges of accepted orders, refunds apart, each on its local day', () => {
    temp = createMigratedDatabase();
    const { db } = temp;
    seedProduct(db, 1, 10, '腾讯视频月卡', '视频会员');
    seedProduct(db, 2, 20, '话费充值', '话费');
    // 00:30 local on the 10th is still the 9th in UTC: it belongs to the 10th.
    seedOrder(db, { ref: 'a', productRef: 1, state: 'completed', totalFen: 30_00, createdAt: NOV10 + HOUR / 2, completedAt: NOV10 + HOUR / 2 + 60 });
    seedOrder(db, { ref: 'b', productRef: 1, state: 'failed', totalFen: 20_00, refundedFen: 20_00, createdAt: NOV10 + 2 * HOUR });
    seedOrder(db, { ref: 'c', productRef: 2, productType: 'topup', state: 'completed', totalFen: 50_00, refundedFen: 10_00, createdAt: NOV10 + 26 * HOUR, completedAt: NOV10 + 26 * HOUR + 180 });
    seedOrder(db, { ref: 'd', productRef: 2, productType: 'topup', state: 'shipped', totalFen: 7_00, createdAt: NOV10 + 27 * HOUR });
    seedOrder(db, { ref: 'e', productRef: 3, state: 'processing', totalFen: 5_00, createdAt: NOV10 + 50 * HOUR });
    // Outside the range on either side.
    seedOrder(db, { ref: 'early', productRef: 1, state: 'completed', totalFen: 999_00, createdAt: NOV10 - 1 });
    seedOrder(db, { ref: 'late', productRef: 1, state: 'completed', totalFen: 999_00, createdAt: NOV10 + 72 * HOUR });

    const report = spendReport(db, query, null);
    expect(report.totals).toMatchObject({ orders: 5, chargedFen: 112_00, refundedFen: 30_00, netFen: 82_00, completed: 2, unsuccessful: 1, inProgress: 1, unknownState: 1 });
    expect(report.totals.successRate).toBeCloseTo(2 / 3);
    expect(report.totals.medianDeliverySeconds).toBe(120);
    expect(report.days.map((d) => [d.day, d.chargedFen, d.refundedFen, d.netFen])).toEqual([
      ['2026-11-10', 50_00, 20_00, 30_00],
      ['2026-11-11', 57_00, 10_00, 47_00],
      ['2026-11-12', 5_00, 0, 5_00],
    ]);
    expect(report.byCategory.map((g) => [g.key, g.name, g.netFen])).toEqual([
      [20, '话费', 47_00],
      [10, '视频会员', 30_00],
      [null, null, 5_00],
    ]);
    expect(report.byProduct[0]).toMatchObject({ key: 2, name: '话费充值', orders: 2 });

    expect(spendReport(db, { ...query, catalogRef: 10 }, null).totals).toMatchObject({ orders: 2, netFen: 30_00 });
    expect(spendReport(db, { ...query, productType: 'topup' }, null).totals).toMatchObject({ orders: 2, chargedFen: 57_00 });
    const oneProduct = spendReport(db, { ...query, productRef: 1 }, null);
    expect(oneProduct.totals.orders).toBe(2);
    // The filters' choices stay those of the whole range.
    expect(oneProduct.choices.products.map((p) => p.key).sort()).toEqual([1, 2, 3]);
  });

  it('never counts an unknown or unsettled state as a success', () => {
    expect(outcomeOf('completed')).toBe('completed');
    expect(outcomeOf('refunded')).toBe('unsuccessful');
    expect(outcomeOf('verifying')).toBe('inProgress');
    for (const odd of ['Completed', 'COMPLETED', 'completed ', 'delivered', '', 'constructor']) expect(outcomeOf(odd)).toBe('unknownState');
    temp = createMigratedDatabase();
    seedOrder(temp.db, { ref: 'x', productRef: 1, state: 'delivered', totalFen: 1_00, createdAt: NOV10 + 10 });
    seedOrder(temp.db, { ref: 'y', productRef: 1, state: 'pending', totalFen: 1_00, createdAt: NOV10 + 20 });
    const report = spendReport(temp.db, query, null);
    expect(report.totals.successRate).toBeNull();
    expect(report.totals.medianDeliverySeconds).toBeNull();
    expect(report.totals.chargedFen).toBe(2_00);
  });

  it('answers an empty range with zero days, not an error', () => {
    temp = createMigratedDatabase();
    const report = spendReport(temp.db, query, null);
    expect(report.days).toHaveLength(3);
    expect(report.totals).toMatchObject({ orders: 0, chargedFen: 0, netFen: 0, successRate: null });
    expect(report.byProduct).toEqual([]);
  });

  it('medians: odd, even, none', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });

  it('draws the balance from the history: the run before the range and those inside it', () => {
    temp = createMigratedDatabase();
    const owner = { baseUrl: 'https://shop.example.cn/openapi/v1', userId: '170001' };
    const answer = (balanceFen: number) => ({ accountRef: 1, balanceFen, currency: 'CNY', requestId: null });
    recordBalance(temp.db, owner, answer(500_00), (NOV10 - HOUR) * 1000);
    recordBalance(temp.db, owner, answer(450_00), (NOV10 + HOUR) * 1000);
    recordBalance(temp.db, owner, answer(450_00), (NOV10 + 2 * HOUR) * 1000);
    recordBalance(temp.db, { ...owner, userId: 'other' }, answer(1_00), (NOV10 + HOUR) * 1000);
    const report = spendReport(temp.db, query, owner);
    expect(report.balance).toEqual([
      { fromMs: (NOV10 - HOUR) * 1000, toMs: (NOV10 - HOUR) * 1000, balanceFen: 500_00, currency: 'CNY' },
      { fromMs: (NOV10 + HOUR) * 1000, toMs: (NOV10 + 2 * HOUR) * 1000, balanceFen: 450_00, currency: 'CNY' },
    ]);
    expect(spendReport(temp.db, query, null).balance).toEqual([]);
  });

  it('per-day sums add up to the totals; refunds never count as spend; net is never negative (property)', () => {
    const order = fc.record({
      offsetSeconds: fc.integer({ min: -2 * 86_400, max: 5 * 86_400 }),
      totalFen: fc.integer({ min: 0, max: 1_000_000 }),
      refundShare: fc.double({ min: 0, max: 1.5, noNaN: true }),
      state: fc.constantFrom('pending', 'processing', 'verifying', 'completed', 'failed', 'cancelled', 'refunded', 'delivered', ''),
      productRef: fc.integer({ min: 1, max: 4 }),
    });
    fc.assert(
      fc.property(fc.array(order, { maxLength: 30 }), fc.constantFrom(SH, 'UTC', 'America/Los_Angeles'), (orders, timeZone) => {
        const t = createMigratedDatabase();
        try {
          orders.forEach((o, i) =>
            seedOrder(t.db, { ref: `o${i}`, productRef: o.productRef, state: o.state, totalFen: o.totalFen, refundedFen: Math.floor(o.totalFen * o.refundShare), createdAt: NOV10 + o.offsetSeconds }),
          );
          const report = spendReport(t.db, { ...query, timeZone }, null);
          const sum = (key: 'orders' | 'chargedFen' | 'refundedFen' | 'netFen') => report.days.reduce((s, d) => s + d[key], 0);
          expect(sum('orders')).toBe(report.totals.orders);
          expect(sum('chargedFen')).toBe(report.totals.chargedFen);
          expect(sum('refundedFen')).toBe(report.totals.refundedFen);
          expect(sum('netFen')).toBe(report.totals.netFen);
          expect(report.byProduct.reduce((s, g) => s + g.netFen, 0)).toBe(report.totals.netFen);
          expect(report.totals.netFen).toBe(report.totals.chargedFen - report.totals.refundedFen);
          for (const d of report.days) expect(d.netFen).toBeGreaterThanOrEqual(0);
          const inRange = orders.filter((o) => {
            const at = (NOV10 + o.offsetSeconds) * 1000;
            return at >= report.fromMs && at < report.toMs;
          });
          expect(report.totals.chargedFen).toBe(inRange.reduce((s, o) => s + o.totalFen, 0));
          const completed = inRange.filter((o) => o.state === 'completed').length;
          expect(report.totals.completed).toBe(completed);
          if (report.totals.successRate !== null) expect(report.totals.successRate * (report.totals.completed + report.totals.unsuccessful)).toBeCloseTo(completed);
        } finally {
          t.dispose();
        }
      }),
      { numRuns: 40 },
    );
  });
});
