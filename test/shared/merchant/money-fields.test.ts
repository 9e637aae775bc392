import { describe, expect, it } from 'vitest';
import { accountSchema, nonNegativeYuanAsFen, orderSchema, variantSchema, yuanAsFen } from '../../../src/shared/merchant';
import { orderWire, variantWire } from './fixtures';

describe('money fields', () => {
  it('turns yuan with up to two decimals into integer fen', () => {
    expect(yuanAsFen.parse(12.5)).toBe(1250);
    expect(yuanAsFen.parse(0.01)).toBe(1);
    expect(yuanAsFen.parse(19.9)).toBe(1990);
    expect(yuanAsFen.parse(0.29)).toBe(29);
    expect(yuanAsFen.parse(100)).toBe(10000);
  });

  it('rejects a third decimal with a clear issue, never rounding it away', () => {
    const result = yuanAsFen.safeParse(12.345);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/at most two decimals/);
    expect(variantSchema.safeParse({ ...variantWire(), price: 0.001 }).success).toBe(false);
  });

  it('rejects money that is not a finite number', () => {
    expect(yuanAsFen.safeParse('12.50').success).toBe(false);
    expect(yuanAsFen.safeParse(Number.NaN).success).toBe(false);
    expect(yuanAsFen.safeParse(Number.POSITIVE_INFINITY).success).toBe(false);
  });

  it('refuses negative prices but shows a negative balance as it is', () => {
    expect(nonNegativeYuanAsFen.safeParse(-1).success).toBe(false);
    const account = accountSchema.parse({ accountRef: 1, userId: '170001', nickname: 'x', accessState: 'active', balance: -3.5, currency: 'CNY', contractRevision: '1.0.2' });
    expect(account.balance).toBe(-350);
  });

  it('converts every money field of an order and names the failing path', () => {
    const order = orderSchema.parse(orderWire());
    expect([order.unitPrice, order.totalAmount, order.refundedAmount, order.refunds[0]?.amount]).toEqual([1990, 3980, 0, 1]);
    const bad = orderSchema.safeParse({ ...orderWire(), totalAmount: 39.801 });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['totalAmount']);
  });
});
