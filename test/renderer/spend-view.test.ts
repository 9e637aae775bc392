// The dashboard's pure parts: the low-balance field in yuan (0 off; empty, junk, negative, huge
// refused), the balance runs as a line that breaks between runs (never interpolated), the axes' yuan.
import { describe, expect, it } from 'vitest';
import { MAX_LOW_BALANCE_FEN } from '../../src/shared/ipc/views/settings';
import { axisYuan, balancePoints, lastDays, parseLowBalanceYuan, yuanTicks } from '../../src/renderer/src/lib/spend-view';

describe('low-balance field', () => {
  it('takes yuan with at most two decimals, 0, grouping and a ¥ pasted in', () => {
    expect(parseLowBalanceYuan('200')).toEqual({ fen: 200_00 });
    expect(parseLowBalanceYuan(' 99.5 ')).toEqual({ fen: 99_50 });
    expect(parseLowBalanceYuan('0')).toEqual({ fen: 0 });
    expect(parseLowBalanceYuan('¥1,000.00')).toEqual({ fen: 1_000_00 });
    expect(parseLowBalanceYuan('10000000')).toEqual({ fen: MAX_LOW_BALANCE_FEN });
  });

  it('refuses empty, junk, three decimals, negative and huge amounts', () => {
    expect(parseLowBalanceYuan('  ')).toEqual({ problem: 'empty' });
    for (const junk of ['abc', '1e3', '12.345', '١٢', 'NaN', '100元', '--5']) expect(parseLowBalanceYuan(junk)).toEqual({ problem: 'notYuan' });
    expect(parseLowBalanceYuan('-1')).toEqual({ problem: 'negative' });
    expect(parseLowBalanceYuan('10000000.01')).toEqual({ problem: 'tooLarge' });
    expect(parseLowBalanceYuan('99999999999999')).toEqual({ problem: 'notYuan' });
  });
});

describe('balance line', () => {
  const run = (fromMs: number, toMs: number, balanceFen: number) => ({ fromMs, toMs, balanceFen, currency: 'CNY' });

  it('draws each run flat and breaks between runs; a run from before the range starts at the range', () => {
    expect(balancePoints([run(0, 150, 500), run(300, 400, 450), run(500, 500, 400)], 100, 1000)).toEqual([
      { at: 100, balanceFen: 500 },
      { at: 150, balanceFen: 500 },
      { at: 299, balanceFen: null },
      { at: 300, balanceFen: 450 },
      { at: 400, balanceFen: 450 },
      { at: 499, balanceFen: null },
      { at: 500, balanceFen: 400 },
    ]);
    expect(balancePoints([], 0, 10)).toEqual([]);
  });
});

describe('axes and ranges', () => {
  it('writes yuan for an axis: whole yuan, 万 or k when large, cents only for small amounts', () => {
    expect(axisYuan(123_456, 'en')).toBe('¥1,235');
    expect(axisYuan(5_50, 'zh-CN')).toBe('¥5.50');
    expect(axisYuan(2_500_000_00, 'zh-CN')).toBe('¥250万');
    expect(axisYuan(2_500_000_00, 'en')).toBe('¥2,500k');
    expect(axisYuan(0, 'en')).toBe('¥0');
    expect(axisYuan(1_000_000, 'zh-CN')).toBe('¥10,000');
  });

  it('puts money ticks at round yuan steps up to the largest amount', () => {
    expect(yuanTicks(37_00)).toEqual([0, 10_00, 20_00, 30_00, 40_00]);
    expect(yuanTicks(0)).toEqual([0, 50, 100]);
    expect(yuanTicks(123_456_78)).toEqual([0, 50_000_00, 100_000_00, 150_000_00]);
    expect(yuanTicks(20_00)).toEqual([0, 5_00, 10_00, 15_00, 20_00]);
  });

  it('the last N days end today and hold N days', () => {
    expect(lastDays(30, Date.UTC(2026, 10, 26, 15, 59), 'Asia/Shanghai')).toEqual({ from: '2026-10-28', to: '2026-11-26' });
    expect(lastDays(1, Date.UTC(2026, 0, 1, 12), 'Asia/Shanghai')).toEqual({ from: '2026-01-01', to: '2026-01-01' });
    // 00:30 in Shanghai is still the day before in UTC and in New York: the day is the zone's.
    expect(lastDays(2, Date.UTC(2026, 10, 26, 16, 30), 'Asia/Shanghai')).toEqual({ from: '2026-11-26', to: '2026-11-27' });
    expect(lastDays(2, Date.UTC(2026, 10, 26, 16, 30), 'America/New_York')).toEqual({ from: '2026-11-25', to: '2026-11-26' });
  });
});
