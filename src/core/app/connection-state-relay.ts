// Pushes the one connection state machine of the running connection to the UI as `connection.state`:
// on every transition of that machine, and when the running connection changes (connected, key
// replaced: a new machine; key cleared: notConnected). Requests that change nothing push nothing.
import type { ConnectionStateView } from '../../shared/ipc/views/connection';
import { notConnectedState, type ConnectionStateMachine } from '../connection/connection-state';
import type { AppEvents } from './app-events';

export interface ConnectionStateRelay {
  /** Follows this connection's machine (null: no merchant running, notConnected) and pushes its state. */
  follow(machine: ConnectionStateMachine | null): void;
  /** What was last pushed (the `connection.state` channel's answer). */
  view(): ConnectionStateView;
}

export function createConnectionStateRelay(events: AppEvents): ConnectionStateRelay {
  let followed: ConnectionStateMachine | null = null;
  let unsubscribe: (() => void) | null = null;
  let pushed: ConnectionStateView = notConnectedState();

  const push = (view: ConnectionStateView): void => {
    pushed = view;
    events.emit('connection.state', view);
  };

  return {
    follow(machine) {
      if (machine === followed) return;
      unsubscribe?.();
      followed = machine;
      unsubscribe = machine?.onChange(push) ?? null;
      push(machine?.view() ?? notConnectedState());
    },
    view: () => (followed === null ? pushed : followed.view()),
  };
}
