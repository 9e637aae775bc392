import { describe, expect, it } from 'vitest';
import { formatFen, totalFen, yuanInputToFen } from '../../src/renderer/src/lib/money';

describe('formatFen', () => {
  it('shows fen as yuan with two decimals and grouped thousands', () => {
    expect(formatFen(0)).toBe('¥0.00');
    expect(formatFen(5)).toBe('¥0.05');
    expect(formatFen(1250)).toBe('¥12.50');
    expect(formatFen(123456789)).toBe('¥1,234,567.89');
    expect(formatFen(-1999)).toBe('-¥19.99');
  });

  it('shows an unknown price as a dash, never as zero', () => {
    expect(formatFen(null)).toBe('—');
    expect(formatFen(undefined)).toBe('—');
    expect(formatFen(1.5)).toBe('—');
  });
});

describe('yuanInputToFen / totalFen', () => {
  it('parses exact yuan and refuses a third decimal', () => {
    expect(yuanInputToFen('12.5')).toBe(1250);
    expect(yuanInputToFen(' 3 ')).toBe(300);
    expect(yuanInputToFen('1.234')).toBeNull();
    expect(yuanInputToFen('abc')).toBeNull();
  });

  it('multiplies in integer fen', () => {
    expect(totalFen(1999, 3)).toBe(5997);
    expect(totalFen(null, 3)).toBeNull();
    expect(totalFen(100, 0)).toBeNull();
  });
});

describe('stepChart', () => {
  it('draws a step line inside the box, extended to now', async () => {
    const { stepChart } = await import('../../src/renderer/src/lib/chart-geometry');
    const chart = stepChart([{ at: 100, value: 500 }, { at: 0, value: 1000 }], 200, 100, 10, 200);
    expect(chart?.points).toEqual([{ x: 10, y: 10 }, { x: 100, y: 90 }]);
    expect(chart?.path).toBe('M10.0,10.0 H100.0 V90.0 H190.0');
    expect(stepChart([], 200, 100, 10, 0)).toBeNull();
  });
});
