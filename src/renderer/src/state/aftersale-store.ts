// After-sales UI state: which case's chat is open, and for which order the "open a case" form is.
// Kept apart from ui-store.ts so the two features' state stays in their own files.
import { create } from 'zustand';

interface AftersaleUiState {
  caseRef: string | null;
  formOrderRef: string | null;
  openCase: (platformCaseRef: string | null) => void;
  openCaseForm: (clientOrderRef: string | null) => void;
}

export const useAftersaleStore = create<AftersaleUiState>()((set) => ({
  caseRef: null,
  formOrderRef: null,
  openCase: (caseRef) => set({ caseRef }),
  openCaseForm: (formOrderRef) => set({ formOrderRef }),
}));
