// The web host's HTTP and WebSocket side with a fake app service: the page carries no credential, a
// one-time launch secret opens one session (cookie) and only once, the socket is refused without that
// session or with another Origin, calls and events cross it, bad messages get error answers without
// hurting the host, and nothing outside the renderer is served.
import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WEB_BRIDGE_META_NAME } from '../../src/shared/ipc/web-socket-protocol';
import { API_KEY_SECRET } from '../../src/core/connection/connection-settings';
import { MemorySecretStore } from '../../src/core/secrets/memory-secret-store';
import { createKeyGuard, guardedSecretStore } from '../../src/web-host/key-guard';
import { loadRendererFiles } from '../../src/web-host/renderer-files';
import { startWebHost, type WebHost } from '../../src/web-host/web-host-server';
import { cookieOf, fakeRendererDir, fakeService, openClient, openSession, quietLogger, redeemLaunchUrl, socketUrl } from './web-host-kit';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw GET, so that paths reach the server exactly as written (fetch would normalize `..`). */
function get(origin: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: 'GET', headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('web host server', () => {
  let host: WebHost;
  let cookie: string;
  let fake: ReturnType<typeof fakeService>;
  const calls: [string, unknown][] = [];

  beforeEach(async () => {
    calls.length = 0;
    fake = fakeService((channel, input) => {
      calls.push([channel, input]);
      if (channel === 'connection.status') {
        return { ok: true, value: { connected: false, baseUrl: null, userId: null, keyStored: false, secretStore: 'memory', demo: false } };
      }
      if (channel === 'account.get') throw new Error('boom');
      return { ok: false, error: { code: 'INVALID_INPUT', message: 'bad input' } };
    });
    host = await startWebHost({ service: fake.service, renderer: loadRendererFiles(fakeRendererDir().dir), logger: quietLogger, port: 0 });
    cookie = await openSession(host);
  });

  afterEach(async () => {
    await host.close();
  });

  it('listens on 127.0.0.1 and serves index.html with the bridge path (no secret) and a CSP limiting connections to itself', async () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await get(host.origin, '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain(`<meta name="${WEB_BRIDGE_META_NAME}" content="/bridge" />`);
    expect(page.body).toContain('<div id="root">');
    expect(page.headers['set-cookie']).toBeUndefined();
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain(`connect-src 'self' ${host.origin} ${host.origin.replace('http:', 'ws:')}`);
    expect(csp).toContain("img-src 'self' data:;");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['cache-control']).toBe('no-store');

    const script = await get(host.origin, '/assets/index-abc.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toBe('console.log("app");\n');
  });

  it('refuses a Host that is not its own (DNS rebinding) and methods other than GET and HEAD', async () => {
    const { port } = new URL(host.origin);
    const rebound = await get(host.origin, '/', { Host: `evil.example:${port}` });
    expect(rebound.status).toBe(421);
    const post = await new Promise<number>((resolve, reject) => {
      const req = request(`${host.origin}/`, { method: 'POST' }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end('x');
    });
    expect(post).toBe(405);
  });

  it('refuses path traversal, directory listings and files outside the renderer', async () => {
    for (const path of ['/../secret.txt', '/assets/../../secret.txt', '/%2e%2e/secret.txt', '/assets/%2e%2e%2f%2e%2e%2fsecret.txt', '/..%5csecret.txt', '/assets/', '/assets', '/%00', '/%zz', '//etc/passwd', '/bridge']) {
      const answer = await get(host.origin, path);
      expect([400, 404], path).toContain(answer.status);
      expect(answer.body, path).not.toContain('TOP-SECRET');
      expect(answer.body, path).not.toContain('<div id="root">');
    }
  });

  it('cannot be driven from what it serves: a plain HTTP client reading every page gets no working session', async () => {
    const url = socketUrl(host.origin, host.socketPath);
    // Everything an outsider can read: the page, its script, the session door without a secret.
    const served = [await get(host.origin, '/'), await get(host.origin, '/index.html'), await get(host.origin, '/assets/index-abc.js'), await get(host.origin, '/session')];
    expect(served.map((answer) => answer.status)).toEqual([200, 200, 200, 401]);
    for (const answer of served) expect(answer.headers['set-cookie']).toBeUndefined();
    const [, sessionName] = /^(procure_desk_session_\d+)=/.exec(cookie) ?? [];
    expect(sessionName).toBeDefined();
    // Whatever the page holds, offered as a cookie or a path, opens no socket.
    const pageText = served[0]?.body ?? '';
    const candidates = [...pageText.matchAll(/content="([^"]+)"/g)].map((match) => match[1] ?? '');
    for (const candidate of candidates) {
      await expect(openClient(url, host.origin, `${sessionName ?? ''}=${candidate}`)).rejects.toThrow('refused with 403');
      await expect(openClient(socketUrl(host.origin, candidate), host.origin)).rejects.toThrow('refused with 403');
    }
    await expect(openClient(url, host.origin)).rejects.toThrow('refused with 403');
    // A made-up secret is no better.
    const guessed = await redeemLaunchUrl(`${host.origin}/#k=${'A'.repeat(43)}`);
    expect(guessed.status).toBe(403);
    expect(guessed.headers.get('set-cookie')).toBeNull();
  });

  it('opens a session once per launch secret: a second browser with the same URL is refused and needs a new URL', async () => {
    const launchUrl = host.issueLaunchUrl();
    expect(launchUrl).toMatch(new RegExp(`^${host.origin}/#k=[A-Za-z0-9_-]{43}$`));
    const first = await redeemLaunchUrl(launchUrl);
    expect(first.status).toBe(204);
    const setCookie = first.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^procure_desk_session_\d+=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
    const firstCookie = cookieOf(first);
    expect(firstCookie.split('=')[1]).not.toBe(launchUrl.split('#k=')[1]);
    const answer = await fetch(`${host.origin}/session`, { headers: { Cookie: firstCookie } });
    expect(answer.status).toBe(204);

    const second = await redeemLaunchUrl(launchUrl);
    expect(second.status).toBe(403);
    expect(second.headers.get('set-cookie')).toBeNull();
    expect(await second.text()).toContain('already used');

    const client = await openClient(socketUrl(host.origin, host.socketPath), host.origin, firstCookie);
    await expect(client.call('connection.status')).resolves.toMatchObject({ ok: true });
    client.close();
    const other = await openSession(host);
    expect(other).not.toBe(firstCookie);
    const otherClient = await openClient(socketUrl(host.origin, host.socketPath), host.origin, other);
    otherClient.close();
  });

  it('trades a secret only from its own page, as JSON: a cross-origin or text/plain POST is refused and does not spend it', async () => {
    const launchUrl = host.issueLaunchUrl();
    const foreign = await redeemLaunchUrl(launchUrl, { origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    const plainText = await redeemLaunchUrl(launchUrl, { contentType: 'text/plain;charset=UTF-8' });
    expect(plainText.status).toBe(415);
    const form = await redeemLaunchUrl(launchUrl, { contentType: 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    for (const refused of [foreign, plainText, form]) expect(refused.headers.get('set-cookie')).toBeNull();
    // Still unspent: the page itself can use it.
    expect((await redeemLaunchUrl(launchUrl)).status).toBe(204);
    const { port } = new URL(host.origin);
    const rebound = await new Promise<number>((resolve, reject) => {
      const req = request(`${host.origin}/session`, { method: 'POST', headers: { Host: `evil.example:${port}`, 'Content-Type': 'application/json' } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(JSON.stringify({ secret: new URL(host.issueLaunchUrl()).hash.slice(3) }));
    });
    expect(rebound).toBe(421);
  });

  it('refuses a WebSocket without the session cookie, with a stale one, on another path, or from a foreign or missing Origin', async () => {
    const url = socketUrl(host.origin, host.socketPath);
    const [name] = cookie.split('=');
    await expect(openClient(url, host.origin)).rejects.toThrow('refused with 403');
    await expect(openClient(url, host.origin, `${name ?? ''}=not-a-session`)).rejects.toThrow('refused with 403');
    await expect(openClient(url, host.origin, `${cookie}x`)).rejects.toThrow('refused with 403');
    await expect(openClient(socketUrl(host.origin, '/bridge/x'), host.origin, cookie)).rejects.toThrow('refused with 403');
    await expect(openClient(url, 'http://evil.example', cookie)).rejects.toThrow('refused with 403');
    await expect(openClient(url, host.origin.replace('127.0.0.1', '127.0.0.2'), cookie)).rejects.toThrow('refused with 403');
    await expect(openClient(url, undefined, cookie)).rejects.toThrow('refused with 403');
    const client = await openClient(url, host.origin, cookie);
    client.close();
  });

  it('carries a call and its answer, and pushes events to every open tab', async () => {
    const url = socketUrl(host.origin, host.socketPath);
    const first = await openClient(url, host.origin, cookie);
    const second = await openClient(url, host.origin, cookie);
    const status = await first.call('connection.status');
    expect(status).toEqual({ ok: true, value: expect.objectContaining({ connected: false, secretStore: 'memory' }) as unknown });
    expect(calls).toEqual([['connection.status', undefined]]);

    fake.emit('orders.changed', { clientOrderRefs: ['ref-1'] });
    for (const client of [first, second]) {
      await expect(client.waitFor((f) => typeof f === 'object' && f !== null && 'event' in f)).resolves.toEqual({ event: 'orders.changed', payload: { clientOrderRefs: ['ref-1'] } });
    }
    first.close();
    second.close();
  });

  it('tells a tab that opens while the core process restarts that it is reconnecting, and a tab that opens otherwise nothing', async () => {
    await host.close();
    let reconnecting = true;
    host = await startWebHost({ service: { ...fake.service, coreReconnecting: () => reconnecting }, renderer: loadRendererFiles(fakeRendererDir().dir), logger: quietLogger, port: 0 });
    cookie = await openSession(host);
    const url = socketUrl(host.origin, host.socketPath);
    const during = await openClient(url, host.origin, cookie);
    await expect(during.waitFor((f) => typeof f === 'object' && f !== null && 'event' in f)).resolves.toEqual({ event: 'core.state', payload: { state: 'reconnecting' } });
    reconnecting = false;
    const after = await openClient(url, host.origin, cookie);
    fake.emit('orders.changed', { clientOrderRefs: ['ref-2'] });
    // The first event this tab hears is the one pushed after it opened: no stale "reconnecting".
    await expect(after.waitFor((f) => typeof f === 'object' && f !== null && 'event' in f)).resolves.toEqual({ event: 'orders.changed', payload: { clientOrderRefs: ['ref-2'] } });
    during.close();
    after.close();
  });

  it('answers malformed messages with an error and keeps serving', async () => {
    const client = await openClient(socketUrl(host.origin, host.socketPath), host.origin, cookie);
    const nullAnswer = (f: unknown): boolean => typeof f === 'object' && f !== null && 'id' in f && f.id === null;

    client.sendRaw('not json');
    await expect(client.waitFor(nullAnswer)).resolves.toEqual({ id: null, result: { ok: false, error: { code: 'INVALID_INPUT', message: 'the message is not JSON' } } });
    client.frames.length = 0;
    client.sendRaw(JSON.stringify([1, 2, 3]));
    await expect(client.waitFor(nullAnswer)).resolves.toMatchObject({ result: { ok: false, error: { code: 'INVALID_INPUT' } } });
    client.frames.length = 0;
    client.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    await expect(client.waitFor(nullAnswer)).resolves.toMatchObject({ result: { ok: false, error: { code: 'INVALID_INPUT' } } });

    // An id survives a bad shape, so the caller's promise still settles.
    client.sendRaw(JSON.stringify({ id: 7, channel: 42 }));
    await expect(client.waitFor((f) => typeof f === 'object' && f !== null && 'id' in f && f.id === 7)).resolves.toMatchObject({ result: { ok: false, error: { code: 'INVALID_INPUT' } } });
    await expect(client.call('no.such')).resolves.toEqual({ ok: false, error: { code: 'INVALID_INPUT', message: 'unknown channel' } });
    await expect(client.call('__proto__')).resolves.toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    // A service that throws (it promises not to) still yields an answer.
    await expect(client.call('account.get')).resolves.toEqual({ ok: false, error: { code: 'INTERNAL', message: 'the host failed to handle the call' } });
    expect(calls.map(([channel]) => channel)).toEqual(['account.get']);

    await expect(client.call('connection.status')).resolves.toMatchObject({ ok: true });
    client.close();
  });

  it('never sends a frame that carries a remembered API key: the answer becomes INTERNAL, the event is dropped', async () => {
    const key = 'AK_00112233445566778899aabbccddeeff';
    const guard = createKeyGuard();
    const store = guardedSecretStore(new MemorySecretStore(), guard);
    await store.set(API_KEY_SECRET, key);
    const leaky = fakeService(() => ({ ok: true, value: { note: `oops ${key}` } }));
    const guarded = await startWebHost({
      service: leaky.service,
      renderer: loadRendererFiles(fakeRendererDir().dir),
      logger: quietLogger,
      port: 0,
      allowFrame: (text) => !guard.leaks(text),
    });
    try {
      const client = await openClient(socketUrl(guarded.origin, guarded.socketPath), guarded.origin, await openSession(guarded));
      await expect(client.call('connection.status')).resolves.toEqual({ ok: false, error: { code: 'INTERNAL', message: 'the host refused to send this answer' } });
      leaky.emit('app.notification', { kind: 'lowBalance', title: key, body: '' });
      leaky.emit('orders.changed', { clientOrderRefs: ['after'] });
      await client.waitFor((f) => typeof f === 'object' && f !== null && 'event' in f);
      expect(client.frames.filter((f) => typeof f === 'object' && f !== null && 'event' in f)).toEqual([{ event: 'orders.changed', payload: { clientOrderRefs: ['after'] } }]);
      for (const frame of client.frames) expect(JSON.stringify(frame)).not.toContain(key);
      client.close();
    } finally {
      await guarded.close();
    }
  });

  it('closes every socket and stops listening to the service on close', async () => {
    const client = await openClient(socketUrl(host.origin, host.socketPath), host.origin, cookie);
    const closed = new Promise<void>((resolve) => client.socket.once('close', () => resolve()));
    expect(fake.listenerCount()).toBe(1);
    await host.close();
    await closed;
    expect(fake.listenerCount()).toBe(0);
  });
});
