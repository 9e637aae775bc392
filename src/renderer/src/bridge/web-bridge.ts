// The bridge when the page is served by the web host (`npm run web`) instead of Electron: the same
// ProcureDeskApi, built by buildBridgeApi over a WebSocket to the host. The socket's path, with its
// token, is in a meta tag the host wrote into index.html.
import { buildBridgeApi, type ProcureDeskApi } from '../../../shared/ipc/bridge-api';
import { WEB_BRIDGE_META_NAME } from '../../../shared/ipc/web-socket-protocol';
import { createWebSocketTransport } from './web-socket-transport';

/** ws://host/bridge/TOKEN for this page, or null when the page was not served by the web host. */
export function webBridgeUrl(doc: Document, location: Location): string | null {
  const path = doc.querySelector(`meta[name="${WEB_BRIDGE_META_NAME}"]`)?.getAttribute('content') ?? null;
  if (path === null || !path.startsWith('/')) return null;
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${path}`;
}

export function createWebBridge(url: string): ProcureDeskApi {
  // The page's clipboard is the buyer's: an explicit, audited vault.copy is written there.
  return buildBridgeApi(createWebSocketTransport({ url, clipboard: navigator.clipboard }));
}
