// The vault screen's filters as main sees them: whole local days to a received-at range (end
// exclusive), the scope as a selection, and the flags as the list query's fields; plus the i18n
// tables naming every reason the shared password rule can give.
import { describe, expect, it } from 'vitest';
import { dayRange, dayStartSeconds } from '../../src/renderer/src/lib/day-range';
import { initialVaultFilter, scopeSelection, vaultListQuery } from '../../src/renderer/src/lib/vault-filter';
import { translate } from '../../src/renderer/src/i18n/translate';
import { vaultListQuerySchema } from '../../src/shared/ipc/views/vault';
import { PASSWORD_PROBLEMS } from '../../src/shared/password-policy';

describe('day range', () => {
  it('runs from the first day\'s local midnight to the midnight after the last day', () => {
    const from = dayStartSeconds('2025-05-01');
    expect(from).toBe(new Date(2025, 4, 1).getTime() / 1000);
    expect(dayRange('2025-05-01', '2025-05-03')).toEqual({ from, to: new Date(2025, 4, 4).getTime() / 1000 });
    expect(dayRange('2025-05-01', '2025-05-01')?.to).toBe(new Date(2025, 4, 2).getTime() / 1000);
  });

  it('refuses what is not a day or a range that ends before it starts', () => {
    expect(dayStartSeconds('05/01/2025')).toBeNull();
    expect(dayRange('2025-05-03', '2025-05-01')).toBeNull();
    expect(dayRange('', '2025-05-01')).toBeNull();
  });
});

describe('vault list query', () => {
  it('is every card by default, and an order when opened from one', () => {
    expect(vaultListQuery(initialVaultFilter(null), 0, 50)).toEqual({ offset: 0, limit: 50 });
    expect(vaultListQuery(initialVaultFilter('PD_a'), 50, 50)).toEqual({ offset: 50, limit: 50, selection: { kind: 'order', clientOrderRef: 'PD_a' } });
  });

  it('maps the scope, "not exported", used and text, and always fits the contract', () => {
    const base = initialVaultFilter(null);
    const query = vaultListQuery({ ...base, scope: 'product', productRef: 7, notExported: true, used: 'no', text: '  腾讯 ' }, 0, 20);
    expect(query).toEqual({ offset: 0, limit: 20, selection: { kind: 'product', productRef: 7 }, exported: false, used: false, text: '腾讯' });
    expect(vaultListQuerySchema.safeParse(query).success).toBe(true);
    // A scope not filled in yet narrows nothing (rather than showing nothing).
    expect(scopeSelection({ ...base, scope: 'product', productRef: null })).toBeUndefined();
    expect(scopeSelection({ ...base, scope: 'dateRange', fromDay: '2025-05-02', toDay: '2025-05-01' })).toBeUndefined();
  });

  it('maps the refund filter: valid only, refunded or cancelled only, or both (no filter)', () => {
    const base = initialVaultFilter(null);
    expect(base.refund).toBe('all');
    expect(vaultListQuery({ ...base, refund: 'valid' }, 0, 20)).toEqual({ offset: 0, limit: 20, refund: 'valid' });
    const refunded = vaultListQuery({ ...base, refund: 'refunded' }, 0, 20);
    expect(refunded).toEqual({ offset: 0, limit: 20, refund: 'refunded' });
    expect(vaultListQuerySchema.safeParse(refunded).success).toBe(true);
  });
});

describe('password reasons', () => {
  it('has words for every problem of the shared rule, in both languages', () => {
    for (const problem of PASSWORD_PROBLEMS) {
      for (const locale of ['zh-CN', 'en'] as const) expect(translate(locale, `export.problem.${problem}`).length).toBeGreaterThan(4);
    }
  });
});
