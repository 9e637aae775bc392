// Which product the "Batch from file" dialog is open for (null: closed). UI state only.
import { create } from 'zustand';

export interface BatchTarget {
  readonly productRef: number;
  readonly variantRef: number;
}

interface BatchUiState {
  target: BatchTarget | null;
  open: (target: BatchTarget | null) => void;
}

export const useBatchUiStore = create<BatchUiState>()((set) => ({
  target: null,
  open: (target) => set({ target }),
}));
