// After-sales UI state: which case's chat is open, and for which order the "open a case" form is.
// Kept apart from ui-store.ts so the two features' state stays in their own files.
import { create } from 'zustand';
import { useUiStore } from './ui-store';

/** What the form starts with when another screen knows the problem (reconciliation: cards not delivered). */
export interface CaseFormPrefill {
  readonly category: string;
  readonly description: string;
}

interface AftersaleUiState {
  caseRef: string | null;
  formOrderRef: string | null;
  formPrefill: CaseFormPrefill | null;
  openCase: (platformCaseRef: string | null) => void;
  openCaseForm: (clientOrderRef: string | null, prefill?: CaseFormPrefill) => void;
}

export const useAftersaleStore = create<AftersaleUiState>()((set) => ({
  caseRef: null,
  formOrderRef: null,
  formPrefill: null,
  // A case is another object: the product and order drawers close under it (see ui-store.ts).
  openCase: (caseRef) => {
    if (caseRef !== null) useUiStore.setState({ productRef: null, orderForm: null, orderRef: null });
    set({ caseRef });
  },
  openCaseForm: (formOrderRef, prefill) => set({ formOrderRef, formPrefill: prefill ?? null }),
}));

// Going to another screen, product or order closes the case chat and the open-a-case form, as it
// closes ui-store's own drawers. The form is opened from the order drawer, so closing that drawer
// alone leaves it be; opening another order (a new orderRef) does not.
useUiStore.subscribe((state, previous) => {
  const navigated =
    state.page !== previous.page || (state.productRef !== null && state.productRef !== previous.productRef) || (state.orderRef !== null && state.orderRef !== previous.orderRef);
  if (navigated) useAftersaleStore.setState({ caseRef: null, formOrderRef: null });
});
