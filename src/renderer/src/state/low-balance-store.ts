// The low-balance banners' state: raised by a lowBalance notification (core sends one per crossing of
// a merchant's line), one per merchant (lib/low-balance-view.ts decides what shows), lowered when the
// buyer dismisses it or when a balance at or above the line is seen.
import { create } from 'zustand';
import type { MerchantTag } from '../../../shared/ipc/views/profiles';
import { crossingKey, type LowBalanceCrossing } from '../lib/low-balance-view';

interface LowBalanceState {
  /** The latest crossing of each merchant, by crossingKey; none: no banner. */
  crossings: Readonly<Record<string, LowBalanceCrossing>>;
  crossed: (balanceFen: number, merchant?: MerchantTag) => void;
  dismiss: (key: string) => void;
}

export const useLowBalanceStore = create<LowBalanceState>()((set) => ({
  crossings: {},
  crossed: (balanceFen, merchant) => set((state) => ({ crossings: { ...state.crossings, [crossingKey(merchant)]: { balanceFen, merchant: merchant ?? null } } })),
  dismiss: (key) =>
    set((state) => {
      if (!(key in state.crossings)) return state;
      const rest = Object.fromEntries(Object.entries(state.crossings).filter(([k]) => k !== key));
      return { crossings: rest };
    }),
}));
