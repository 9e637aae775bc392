// The low-balance banners' state: raised by a lowBalance notification (core sends one per crossing of
// a merchant's line), one per merchant, each following its merchant's balance as core reports it
// (lib/low-balance-view.ts decides what shows), lowered when the buyer dismisses it or when its
// balance is back at or above the line.
import { create } from 'zustand';
import type { MerchantTag } from '../../../shared/ipc/views/profiles';
import { crossingKey, isActiveCrossing, type LowBalanceCrossing } from '../lib/low-balance-view';

interface LowBalanceState {
  /** The latest crossing of each merchant, by crossingKey; none: no banner. */
  crossings: Readonly<Record<string, LowBalanceCrossing>>;
  crossed: (balanceFen: number, merchant?: MerchantTag) => void;
  /** An account.changed: the active merchant's balance now (activeId null while the list is unknown). */
  balanceSeen: (balanceFen: number, activeId: string | null) => void;
  dismiss: (key: string) => void;
}

export const useLowBalanceStore = create<LowBalanceState>()((set) => ({
  crossings: {},
  crossed: (balanceFen, merchant) => set((state) => ({ crossings: { ...state.crossings, [crossingKey(merchant)]: { balanceFen, merchant: merchant ?? null } } })),
  balanceSeen: (balanceFen, activeId) =>
    set((state) => {
      const keys = Object.keys(state.crossings).filter((key) => isActiveCrossing(key, activeId) && state.crossings[key]?.balanceFen !== balanceFen);
      if (keys.length === 0) return state;
      const next = { ...state.crossings };
      for (const key of keys) {
        const crossing = next[key];
        if (crossing !== undefined) next[key] = { ...crossing, balanceFen };
      }
      return { crossings: next };
    }),
  dismiss: (key) =>
    set((state) => {
      if (!(key in state.crossings)) return state;
      const rest = Object.fromEntries(Object.entries(state.crossings).filter(([k]) => k !== key));
      return { crossings: rest };
    }),
}));
