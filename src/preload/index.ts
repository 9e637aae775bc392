// The renderer's only door to the app. It stays a small, read-only, domain-shaped object:
// never ipcRenderer, never a generic invoke(channel).
import { contextBridge } from 'electron';

const procureDesk = Object.freeze({
  platform: process.platform,
});

contextBridge.exposeInMainWorld('procureDesk', procureDesk);
