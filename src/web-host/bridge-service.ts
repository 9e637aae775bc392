// The part of the app service (src/core/app) the web host carries over its socket: the same
// handle/onEvent pair Electron's IPC binding uses, so both hosts answer with one implementation.
import type { EventName } from '../shared/ipc/contract';
import type { IpcResult } from '../shared/ipc/ipc-result';

export interface BridgeService {
  /** Validates `rawInput` against the channel's schema; answers, never throws. */
  handle(channel: string, rawInput: unknown): Promise<IpcResult<unknown>>;
  onEvent(listener: (event: EventName, payload: unknown) => void): () => void;
  /**
   * True while the core process is being restarted: a tab that opens meanwhile is told at once
   * (`core.state: reconnecting`), since the push it would have heard went out before it existed.
   */
  coreReconnecting?(): boolean;
}
