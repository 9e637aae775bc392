// The renderer's single door to the app. Under Electron the preload has exposed the api as
// window.procureDesk; served by the web host, the same object is built over its WebSocket. Screens
// import `api` from here and cannot tell the two hosts apart.
import { buildBridgeApi, type ProcureDeskApi } from '../../../shared/ipc/bridge-api';
import { createWebBridge, openWebSession, webBridgeUrl } from './web-bridge';

/** Neither host: every call fails with words that say so, instead of the page crashing on load. */
function missingHostApi(): ProcureDeskApi {
  const message = 'Procure Desk was opened without its host: start it with `npm start` or `npm run web`';
  return buildBridgeApi({
    invoke: () => Promise.resolve({ ok: false, error: { code: 'INTERNAL', message } }),
    subscribe: () => () => undefined,
  });
}

function pickApi(): ProcureDeskApi {
  // Electron's preload (env.d.ts); absent in a browser.
  const preload = window.procureDesk;
  if (preload !== undefined) return preload;
  const url = webBridgeUrl(document, window.location);
  return url === null ? missingHostApi() : createWebBridge(url, openWebSession(window.location, window.history));
}

export const api: ProcureDeskApi = pickApi();

export type { ProcureDeskApi };
