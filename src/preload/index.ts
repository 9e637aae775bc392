// The renderer's only door to the app: one domain-shaped object generated from the contract
// (src/shared/ipc/bridge-api.ts), plus the platform name and the unlock step before core opens
// (shared/ipc/unlock.ts). Never ipcRenderer, never a generic invoke(channel); every subscription
// returns its unsubscribe function.
import { contextBridge, ipcRenderer } from 'electron';
import { buildBridgeApi } from '../shared/ipc/bridge-api';
import { createIpcTransport } from './ipc-transport';
import { createUnlockBridge } from './unlock-bridge';

const procureDesk = Object.freeze({
  ...buildBridgeApi(createIpcTransport(ipcRenderer)),
  unlock: createUnlockBridge(ipcRenderer),
  platform: process.platform,
});

contextBridge.exposeInMainWorld('procureDesk', procureDesk);
