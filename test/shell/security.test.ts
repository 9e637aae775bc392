import { describe, expect, it, vi } from 'vitest';

import { contentSecurityPolicy } from '../../src/shared/content-security-policy';
import { webContentSecurityPolicy } from '../../src/web-host/web-page-security';
import {
  CONTENT_SECURITY_POLICY,
  createAppUrlMatcher,
  hardenSession,
  hardenWebContents,
  type HardenableSession,
  type HardenableWebContents,
} from '../../src/main/security';

type NavigateListener = (event: { url: string; preventDefault(): void }) => void;
type AttachListener = (event: { preventDefault(): void }) => void;
type WindowOpenHandler = () => { action: 'deny' };

function fakeWebContents() {
  const listeners: { open?: WindowOpenHandler } = {};
  const eventListeners = new Map<string, NavigateListener | AttachListener>();
  function on(event: 'will-navigate', listener: NavigateListener): void;
  function on(event: 'will-attach-webview', listener: AttachListener): void;
  function on(event: string, listener: NavigateListener | AttachListener): void {
    eventListeners.set(event, listener);
  }
  const contents: HardenableWebContents = {
    on,
    setWindowOpenHandler: (handler) => {
      listeners.open = handler;
    },
  };
  /** Emits like Electron does; returns whether the listener called preventDefault. */
  const emit = (event: 'will-navigate' | 'will-attach-webview', url = 'about:blank'): boolean => {
    const listener = eventListeners.get(event);
    if (listener === undefined) throw new Error(`no ${event} listener was registered`);
    const preventDefault = vi.fn();
    listener({ url, preventDefault });
    return preventDefault.mock.calls.length > 0;
  };
  return { contents, listeners, emit };
}

function fakeSession() {
  const captured: {
    request?: Parameters<HardenableSession['setPermissionRequestHandler']>[0];
    check?: Parameters<HardenableSession['setPermissionCheckHandler']>[0];
    headers?: Parameters<HardenableSession['webRequest']['onHeadersReceived']>[0];
  } = {};
  const session: HardenableSession = {
    setPermissionRequestHandler: (handler) => {
      captured.request = handler;
    },
    setPermissionCheckHandler: (handler) => {
      captured.check = handler;
    },
    webRequest: {
      onHeadersReceived: (listener) => {
        captured.headers = listener;
      },
    },
  };
  return { session, captured };
}

const devApp = createAppUrlMatcher('http://localhost:5173/');
const protocolApp = createAppUrlMatcher('app://procure-desk/index.html');

describe('web contents hardening', () => {
  it('prevents navigation to a foreign origin and allows the app origin', () => {
    const { contents, emit } = fakeWebContents();
    hardenWebContents(contents, { isAppUrl: devApp });

    expect(emit('will-navigate', 'https://evil.example/')).toBe(true);
    expect(emit('will-navigate', 'http://localhost:5174/')).toBe(true);
    expect(emit('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(emit('will-navigate', 'not a url')).toBe(true);
    expect(emit('will-navigate', 'http://localhost:5173/#/orders')).toBe(false);
  });

  it('treats the app:// host as the app and nothing else, file:// included', () => {
    const { contents, emit } = fakeWebContents();
    hardenWebContents(contents, { isAppUrl: protocolApp });

    expect(emit('will-navigate', 'app://procure-desk/index.html#/x')).toBe(false);
    expect(emit('will-navigate', 'app://procure-desk/')).toBe(false);
    expect(emit('will-navigate', 'app://other-host/index.html')).toBe(true);
    expect(emit('will-navigate', 'file:///opt/procure-desk/out/renderer/index.html')).toBe(true);
    expect(emit('will-navigate', 'file:///home/user/.ssh/id_rsa')).toBe(true);
    expect(emit('will-navigate', 'https://procure-desk/')).toBe(true);
  });

  it('refuses to attach webviews', () => {
    const { contents, emit } = fakeWebContents();
    hardenWebContents(contents, { isAppUrl: devApp });
    expect(emit('will-attach-webview')).toBe(true);
  });

  it('denies every window.open: nothing leaves the app, not even for the OS browser', () => {
    const { contents, listeners } = fakeWebContents();
    hardenWebContents(contents, { isAppUrl: devApp });
    const open = listeners.open;
    if (open === undefined) throw new Error('no window open handler was registered');
    expect(open()).toEqual({ action: 'deny' });
  });
});

describe('session hardening', () => {
  it('denies permission requests and checks', () => {
    const { session, captured } = fakeSession();
    hardenSession(session, { isAppUrl: devApp, contentSecurityPolicy: CONTENT_SECURITY_POLICY });

    const callback = vi.fn();
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      captured.request?.({}, permission, callback);
    }
    expect(callback).toHaveBeenCalledTimes(5);
    for (const [granted] of callback.mock.calls) expect(granted).toBe(false);
    expect(captured.check?.()).toBe(false);
  });

  it('puts the Content-Security-Policy on the app’s responses, replacing any other', () => {
    const { session, captured } = fakeSession();
    hardenSession(session, { isAppUrl: devApp, contentSecurityPolicy: CONTENT_SECURITY_POLICY });
    const listener = captured.headers;
    if (listener === undefined) throw new Error('no onHeadersReceived listener was registered');

    const callback = vi.fn();
    listener(
      {
        url: 'http://localhost:5173/',
        responseHeaders: { 'content-type': ['text/html'], 'content-security-policy': ["default-src *"] },
      },
      callback,
    );
    expect(callback).toHaveBeenCalledExactlyOnceWith({
      responseHeaders: { 'content-type': ['text/html'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    });
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("object-src 'none'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
  });

  it('allows one inline script by nonce only when the dev server asks for it', () => {
    expect(contentSecurityPolicy({ devScriptNonce: 'abc123' })).toContain("script-src 'self' 'nonce-abc123';");
    expect(contentSecurityPolicy()).toContain("script-src 'self';");
    expect(CONTENT_SECURITY_POLICY).not.toContain('nonce-');
  });

  it('leaves responses from other origins as they were', () => {
    const { session, captured } = fakeSession();
    hardenSession(session, { isAppUrl: devApp, contentSecurityPolicy: CONTENT_SECURITY_POLICY });
    const callback = vi.fn();
    captured.headers?.({ url: 'https://img.example/a.png', responseHeaders: { 'content-type': ['image/png'] } }, callback);
    expect(callback).toHaveBeenCalledExactlyOnceWith({ responseHeaders: { 'content-type': ['image/png'] } });
  });
});

describe('one policy for every host', () => {
  it('limits images to the page itself and inline data: no merchant host, no https: wildcard', () => {
    for (const policy of [CONTENT_SECURITY_POLICY, contentSecurityPolicy({ devScriptNonce: 'n' }), webContentSecurityPolicy('http://127.0.0.1:5000')]) {
      const img = policy.split('; ').find((directive) => directive.startsWith('img-src'));
      expect(img).toBe("img-src 'self' data:");
      expect(policy).not.toMatch(/https:(?!\/\/)/);
    }
  });

  it('differs between the window and the web host only in where the page may connect', () => {
    const web = webContentSecurityPolicy('http://127.0.0.1:5000').split('; ');
    const shell = CONTENT_SECURITY_POLICY.split('; ');
    const differing = web.filter((directive) => !shell.includes(directive));
    expect(differing).toEqual(["connect-src 'self' http://127.0.0.1:5000 ws://127.0.0.1:5000"]);
    expect(shell).toContain("connect-src 'self'");
  });

  it('is written nowhere else: index.html carries no policy of its own', async () => {
    const { readFile } = await import('node:fs/promises');
    const html = await readFile(new URL('../../src/renderer/index.html', import.meta.url), 'utf8');
    expect(html).not.toMatch(/Content-Security-Policy/i);
  });
});
