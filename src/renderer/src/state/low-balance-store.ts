// The low-balance banner's state: raised by a lowBalance notification (core sends one per crossing of
// the buyer's line), lowered when the buyer dismisses it or when a balance at or above the line is seen.
import { create } from 'zustand';

interface LowBalanceState {
  /** The balance the crossing reported; null: no banner. */
  balanceFen: number | null;
  crossed: (balanceFen: number) => void;
  dismiss: () => void;
}

export const useLowBalanceStore = create<LowBalanceState>()((set) => ({
  balanceFen: null,
  crossed: (balanceFen) => set({ balanceFen }),
  dismiss: () => set({ balanceFen: null }),
}));
