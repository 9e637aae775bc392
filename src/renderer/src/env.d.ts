// What the Electron preload exposes (src/preload/index.ts): the contract's domain-shaped api, built
// by buildBridgeApi. Absent when the page is served by the web host; bridge/index.ts then builds
// the same object over the host's WebSocket.
import type { ProcureDeskApi } from '../../shared/ipc/bridge-api';
import type { UnlockApi } from '../../shared/ipc/unlock';

declare global {
  interface Window {
    readonly procureDesk?: ProcureDeskApi & { readonly unlock?: UnlockApi };
  }
}
