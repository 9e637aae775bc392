// The connection state as core's one connection state machine pushes it (connection.state), plus the
// browser's own view of the network: navigator.onLine false means offline whatever core last said
// (the push cannot reach a tab whose network is gone anyway). The header, the status banner and every
// screen that words something differently while offline read it here, and nothing guesses the state
// from failed calls any more (a per-request failure stays in its form, lib/explain-error.ts).
import { create } from 'zustand';
import type { ConnectionStateName, ConnectionStateView } from '../../../shared/ipc/views/connection';

interface ConnectionStateStore {
  /** The last view core pushed or answered; null until the first one arrived. */
  view: ConnectionStateView | null;
  /** The browser itself reports no network. */
  browserOffline: boolean;
  /** The `since` of a degraded state the buyer dismissed: it stays hidden until the state changes. */
  dismissedSince: number | null;
  set: (view: ConnectionStateView) => void;
  setBrowserOffline: (offline: boolean) => void;
  dismiss: () => void;
}

export const useConnectionStateStore = create<ConnectionStateStore>()((set, get) => ({
  view: null,
  browserOffline: typeof navigator === 'undefined' ? false : !navigator.onLine,
  dismissedSince: null,
  set: (view) => set({ view }),
  setBrowserOffline: (browserOffline) => set({ browserOffline }),
  dismiss: () => set({ dismissedSince: get().view?.since ?? null }),
}));

/** The state to show: offline when the browser says so, else core's; null before core answered. */
export function shownState(store: Pick<ConnectionStateStore, 'view' | 'browserOffline'>): ConnectionStateName | null {
  if (store.browserOffline) return 'offline';
  return store.view?.state ?? null;
}

/** The state to show (see shownState). */
export function useShownConnectionState(): ConnectionStateName | null {
  return useConnectionStateStore(shownState);
}

/** Whether orders and messages are queued rather than sent now: no route to the merchant. */
export function useOffline(): boolean {
  return useConnectionStateStore((store) => shownState(store) === 'offline');
}
