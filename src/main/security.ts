// Hardening of every web contents and of the session, after Actual Budget's
// desktop-electron/security.ts. Nothing leaves the app for the OS browser: no screen links
// outside it, so there is no shell.openExternal path to abuse. The functions take the objects they harden (typed by the few
// members they use) so that tests can drive them with fakes instead of a real Electron.
import { contentSecurityPolicy } from '../shared/content-security-policy';

/** The policy of the built app (no dev nonce, no connections beyond its own origin). */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

interface PreventableEvent {
  preventDefault(): void;
}

/** The members of Electron's WebContents that hardening uses. */
export interface HardenableWebContents {
  on(event: 'will-navigate', listener: (event: PreventableEvent & { url: string }) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): unknown;
  setWindowOpenHandler(handler: () => { action: 'deny' }): void;
}

/** The members of Electron's Session that hardening uses. */
export interface HardenableSession {
  setPermissionRequestHandler(
    handler: (webContents: unknown, permission: string, callback: (granted: boolean) => void) => void,
  ): void;
  setPermissionCheckHandler(handler: () => boolean): void;
  webRequest: {
    onHeadersReceived(
      listener: (
        details: { url: string; responseHeaders?: Record<string, string[]> },
        callback: (response: { responseHeaders: Record<string, string[]> }) => void,
      ) => void,
    ): void;
  };
}

export type AppUrlMatcher = (url: string) => boolean;

/**
 * Recognizes the app's own pages: the dev server's origin, or the app:// protocol's host. Node
 * gives a non-special scheme such as app: the opaque origin "null", so scheme and host are compared.
 */
export function createAppUrlMatcher(rendererUrl: string): AppUrlMatcher {
  const app = new URL(rendererUrl);
  return (url) => {
    const candidate = parseUrl(url);
    if (candidate === null) return false;
    if (app.protocol === 'http:' || app.protocol === 'https:') return candidate.origin === app.origin;
    return candidate.protocol === app.protocol && candidate.host === app.host && candidate.host !== '';
  };
}

export interface WebContentsPolicy {
  isAppUrl: AppUrlMatcher;
}

export function hardenWebContents(contents: HardenableWebContents, policy: WebContentsPolicy): void {
  contents.on('will-navigate', (event) => {
    // A navigated-away window would keep the preload bridge while showing foreign content.
    if (!policy.isAppUrl(event.url)) event.preventDefault();
  });

  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
  });

  // New windows would need their own hardening and could keep the bridge; the app has none.
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

export interface SessionPolicy {
  isAppUrl: AppUrlMatcher;
  contentSecurityPolicy: string;
}

export function hardenSession(session: HardenableSession, { isAppUrl, contentSecurityPolicy }: SessionPolicy): void {
  // Nothing the app does needs camera, notifications-from-web, geolocation and the like;
  // native features go through main, which asks the user itself.
  session.setPermissionRequestHandler((_webContents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);

  session.webRequest.onHeadersReceived((details, callback) => {
    const responseHeaders = { ...(details.responseHeaders ?? {}) };
    if (isAppUrl(details.url)) {
      // Replace whatever the dev server sent so that one policy, ours, applies.
      for (const name of Object.keys(responseHeaders)) {
        if (name.toLowerCase() === 'content-security-policy') delete responseHeaders[name];
      }
      responseHeaders['Content-Security-Policy'] = [contentSecurityPolicy];
    }
    callback({ responseHeaders });
  });
}

function parseUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}
