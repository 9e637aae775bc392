// The connection-wide problems the banner explains (key invalid, suspended, IP denied, rate
// limited, offline). Fed by every failed call (react-query's caches) and cleared by a later call
// that reached the merchant, so the banner shows the current state, not a stale one.
import { create } from 'zustand';
import type { Explained } from '../lib/explain-error';

interface ProblemState {
  /** The last connection-wide problem, or null. */
  problem: Explained | null;
  /** The browser itself reports no network. */
  browserOffline: boolean;
  dismissedAt: number | null;
  report: (problem: Explained) => void;
  clear: () => void;
  setBrowserOffline: (offline: boolean) => void;
  dismiss: () => void;
}

export const useProblemStore = create<ProblemState>()((set) => ({
  problem: null,
  browserOffline: typeof navigator === 'undefined' ? false : !navigator.onLine,
  dismissedAt: null,
  report: (problem) => set({ problem, dismissedAt: null }),
  clear: () => set({ problem: null }),
  setBrowserOffline: (browserOffline) => set({ browserOffline }),
  dismiss: () => set({ dismissedAt: Date.now() }),
}));
