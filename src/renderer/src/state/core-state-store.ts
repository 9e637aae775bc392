// Whether the app's core (its own process) is reachable: the host pushes `core.state` when the core
// process died and is being restarted (`reconnecting`) and when it answers again (`ready`).
import { create } from 'zustand';

interface CoreState {
  reconnecting: boolean;
  /** Returns whether this `ready` ends a reconnect (the screens' data is then reloaded). */
  setState: (state: 'ready' | 'reconnecting') => boolean;
}

export const useCoreStateStore = create<CoreState>()((set, get) => ({
  reconnecting: false,
  setState: (state) => {
    const wasReconnecting = get().reconnecting;
    set({ reconnecting: state === 'reconnecting' });
    return state === 'ready' && wasReconnecting;
  },
}));
