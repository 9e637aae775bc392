// The vault screen's filters as plain data, and what they mean to main: the list query (scope as a
// selection, plus used / not exported / refunds / text) and the export dialog's starting choice.
import type { CardSelection, VaultListQuery } from '../../../shared/ipc/views/vault';
import { dayRange, today } from './day-range';

export type VaultScope = 'all' | 'order' | 'product' | 'dateRange';

export interface VaultFilterState {
  readonly scope: VaultScope;
  readonly orderRef: string | null;
  readonly productRef: number | null;
  readonly fromDay: string;
  readonly toDay: string;
  readonly notExported: boolean;
  readonly used: 'any' | 'yes' | 'no';
  /** valid: cards of orders not refunded or cancelled; refunded: only those; all: both. */
  readonly refund: 'all' | 'valid' | 'refunded';
  readonly text: string;
}

export function initialVaultFilter(orderRef: string | null): VaultFilterState {
  const day = today();
  return { scope: orderRef === null ? 'all' : 'order', orderRef, productRef: null, fromDay: day, toDay: day, notExported: false, used: 'any', refund: 'all', text: '' };
}

/** The scope as a selection; undefined for "all" or a scope not filled in yet. */
export function scopeSelection(filter: VaultFilterState): CardSelection | undefined {
  switch (filter.scope) {
    case 'all':
      return undefined;
    case 'order':
      return filter.orderRef === null ? undefined : { kind: 'order', clientOrderRef: filter.orderRef };
    case 'product':
      return filter.productRef === null ? undefined : { kind: 'product', productRef: filter.productRef };
    case 'dateRange': {
      const range = dayRange(filter.fromDay, filter.toDay);
      return range === null ? undefined : { kind: 'dateRange', ...range };
    }
  }
}

export function vaultListQuery(filter: VaultFilterState, offset: number, limit: number): VaultListQuery {
  const selection = scopeSelection(filter);
  const text = filter.text.trim();
  return {
    offset,
    limit,
    ...(selection === undefined ? {} : { selection }),
    ...(filter.notExported ? { exported: false } : {}),
    ...(filter.used === 'any' ? {} : { used: filter.used === 'yes' }),
    ...(filter.refund === 'all' ? {} : { refund: filter.refund }),
    ...(text === '' ? {} : { text: text.slice(0, 100) }),
  };
}
