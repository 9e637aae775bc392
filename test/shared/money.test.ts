// The one yuan formatter (shared/money.ts): what the screens and the notifications both show.
import { describe, expect, it } from 'vitest';
import { formatFen } from '../../src/renderer/src/lib/money';
import { fenToYuanText, formatYuan, parseYuanText } from '../../src/shared/money';
import { notificationText } from '../../src/shared/notification-text';

describe('formatYuan', () => {
  it('shows two decimals and groups thousands, with or without the sign', () => {
    expect([0, 5, 1250, 99_999, 100_000, 123_456_789].map((fen) => formatYuan(fen))).toEqual(['0.00', '0.05', '12.50', '999.99', '1,000.00', '1,234,567.89']);
    expect(formatYuan(123_456, { symbol: true })).toBe('¥1,234.56');
    expect(formatYuan(-1999, { symbol: true })).toBe('-¥19.99');
    expect(formatYuan(-123_456)).toBe('-1,234.56');
  });

  it('reads back to the same fen once the grouping is removed', () => {
    for (const fen of [0, 1, 10, 99, 100, 101, 123_456, 1_000_000_01, -42]) {
      expect(parseYuanText(formatYuan(fen).replace(/,/g, ''))).toBe(fen);
      expect(formatYuan(fen).replace(/,/g, '')).toBe(fenToYuanText(fen));
    }
  });

  it('is how the screens and the notifications show money', () => {
    for (const fen of [1990, 123_456]) expect(formatFen(fen)).toBe(formatYuan(fen, { symbol: true }));
    const changed = { kind: 'productChanged', productRef: 7, priceFromFen: 123_456 } as const;
    expect(notificationText(changed, 'zh-CN').body).toContain('最低价 ¥1,234.56。');
    expect(notificationText(changed, 'en').body).toContain('Price from ¥1,234.56.');
    const low = { kind: 'lowBalance', balanceFen: 123_456, currency: 'CNY' } as const;
    expect(notificationText(low, 'zh-CN').body).toContain('账户余额为 1,234.56 元');
    expect(notificationText(low, 'en').body).toContain('The account balance is 1,234.56 CNY');
  });
});
