// The preload's transport for buildBridgeApi: invoke over ipcRenderer.invoke, events over
// ipcRenderer.on. Listeners receive only the payload, never the IPC event object (which would
// hand the renderer `sender`, i.e. ipcRenderer itself).
import type { BridgeTransport } from '../shared/ipc/bridge-api';
import type { IpcResult } from '../shared/ipc/ipc-result';
import { ipcChannelName, ipcEventName } from '../shared/ipc/ipc-names';

/** The members of Electron's ipcRenderer used here. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

export function createIpcTransport(ipcRenderer: IpcRendererLike): BridgeTransport {
  return {
    async invoke(channel, input) {
      try {
        // Main answers an IpcResult; buildBridgeApi checks the value against the contract.
        return (await ipcRenderer.invoke(ipcChannelName(channel), input)) as IpcResult<unknown>;
      } catch {
        // Only when main has no handler (starting up, shutting down): still an IpcResult.
        return { ok: false, error: { code: 'INTERNAL', message: 'the app did not answer; please try again' } };
      }
    },
    subscribe(event, listener) {
      const name = ipcEventName(event);
      const relay = (_event: unknown, payload?: unknown): void => listener(payload);
      ipcRenderer.on(name, relay);
      let subscribed = true;
      return () => {
        if (!subscribed) return;
        subscribed = false;
        ipcRenderer.removeListener(name, relay);
      };
    },
  };
}
