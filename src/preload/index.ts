// The renderer's only door to the app: one domain-shaped object generated from the contract
// (src/shared/ipc/bridge-api.ts), plus the platform name. Never ipcRenderer, never a generic
// invoke(channel); every subscription returns its unsubscribe function.
import { contextBridge, ipcRenderer } from 'electron';
import { buildBridgeApi } from '../shared/ipc/bridge-api';
import { createIpcTransport } from './ipc-transport';

const procureDesk = Object.freeze({
  ...buildBridgeApi(createIpcTransport(ipcRenderer)),
  platform: process.platform,
});

contextBridge.exposeInMainWorld('procureDesk', procureDesk);
