// The vault's card selection over every merchant: marking and exporting selected cards is one call
// to one merchant's vault (core routes it by the first card's order), so a selection mixing merchants
// is refused here, with words, instead of reaching only part of it.
import { useState } from 'react';
import type { VaultCardRow } from '../../../shared/ipc/views/vault';

/** Whether the chosen cards belong to more than one merchant (rows without a merchant count as one). */
export function mixesMerchants(rows: readonly Pick<VaultCardRow, 'merchant'>[]): boolean {
  return new Set(rows.map((row) => row.merchant?.profileId ?? '')).size > 1;
}

export function useVaultSelection() {
  const [selected, setSelectedKeys] = useState<string[]>([]);
  const [mixed, setMixed] = useState(false);
  const setSelected = (keys: readonly (string | number | bigint)[], rows: readonly (VaultCardRow | undefined)[] = []): void => {
    setSelectedKeys(keys.map(String));
    setMixed(mixesMerchants(rows.filter((row): row is VaultCardRow => row !== undefined)));
  };
  return { selected, setSelected, mixed };
}
