// Plural blocks follow the locale's rules (Intl.PluralRules): "1 order", "2 orders", Chinese one form.
import { describe, expect, it } from 'vitest';
import { formatMessage } from '../../src/renderer/src/i18n/translate';

const ORDERS = '{count, plural, =0 {no orders} one {# order} other {# orders}} waiting';

describe('formatMessage plurals', () => {
  it('picks the English branch by the count', () => {
    expect(formatMessage('en', ORDERS, { count: 0 })).toBe('no orders waiting');
    expect(formatMessage('en', ORDERS, { count: 1 })).toBe('1 order waiting');
    expect(formatMessage('en', ORDERS, { count: 2 })).toBe('2 orders waiting');
    expect(formatMessage('en', ORDERS, { count: 1234 })).toBe('1,234 orders waiting');
  });

  it('reads only `other` in Chinese, which has no singular', () => {
    expect(formatMessage('zh-CN', '{n, plural, other {# 个订单}}', { n: 1 })).toBe('1 个订单');
    expect(formatMessage('zh-CN', '{n, plural, other {# 个订单}}', { n: 12000 })).toBe('12,000 个订单');
  });

  it('fills placeholders inside and beside a plural block', () => {
    expect(formatMessage('en', 'Fix {count, plural, one {# problem} other {# problems}} in {form}', { count: 1, form: 'the order' })).toBe('Fix 1 problem in the order');
  });

  it('leaves the block as written when the count is missing or not a number', () => {
    expect(formatMessage('en', ORDERS, { count: '3' })).toBe(ORDERS);
    expect(formatMessage('en', ORDERS, {})).toBe(ORDERS);
  });
});
