// The bridge when the page is served by the web host (`npm run web`) instead of Electron: the same
// ProcureDeskApi, built by buildBridgeApi over a WebSocket to the host. The page holds no credential:
// it is opened from a one-time URL whose fragment (`#k=SECRET`) the page trades, once, for an
// HttpOnly session cookie (src/web-host/browser-sessions.ts); the WebSocket then opens with that
// cookie. The socket's path is in a meta tag the host wrote into index.html.
import { buildBridgeApi, type BridgeTransport, type ProcureDeskApi } from '../../../shared/ipc/bridge-api';
import { WEB_BRIDGE_META_NAME, WEB_SESSION_PATH } from '../../../shared/ipc/web-socket-protocol';
import { deferredTransport } from './deferred-transport';
import { launchSecretOf } from './launch-secret';
import { createWebSocketTransport } from './web-socket-transport';

/** ws://host/bridge for this page, or null when the page was not served by the web host. */
export function webBridgeUrl(doc: Document, location: Location): string | null {
  const path = doc.querySelector(`meta[name="${WEB_BRIDGE_META_NAME}"]`)?.getAttribute('content') ?? null;
  if (path === null || !path.startsWith('/')) return null;
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${path}`;
}

export const NO_SESSION_MESSAGE =
  'this page has no session with the Procure Desk web host: open the one-time link printed in the terminal running `npm run web` ' +
  '(press Enter there for a new link; each link works once, in one browser)';

/** Trades the fragment's secret (if any) for the cookie, then says whether the page has a session. */
export async function openWebSession(location: Location, history: History): Promise<boolean> {
  const secret = launchSecretOf(location.hash);
  if (secret !== null) {
    // Off the address bar and the history first: a reload, a bookmark or a shared address must not carry it.
    history.replaceState(history.state, '', `${location.pathname}${location.search}`);
    try {
      await fetch(WEB_SESSION_PATH, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ secret }), credentials: 'same-origin' });
    } catch {
      // Unreachable host: the check below says no, and the page says what to do.
    }
  }
  try {
    const check = await fetch(WEB_SESSION_PATH, { credentials: 'same-origin', cache: 'no-store' });
    return check.status === 204;
  } catch {
    return false;
  }
}

function noSessionTransport(): BridgeTransport {
  return {
    invoke: () => Promise.resolve({ ok: false, error: { code: 'INTERNAL', message: NO_SESSION_MESSAGE } }),
    subscribe: () => () => undefined,
  };
}

export function createWebBridge(url: string, session: Promise<boolean>): ProcureDeskApi {
  const transport = session.then(
    // The page's clipboard is the buyer's: an explicit, audited vault.copy is written there.
    (ok): BridgeTransport => (ok ? createWebSocketTransport({ url, clipboard: navigator.clipboard }) : noSessionTransport()),
  );
  return buildBridgeApi(deferredTransport(transport));
}
