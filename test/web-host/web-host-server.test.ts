// The web host's HTTP and WebSocket side with a fake app service: the page carries the token and the
// CSP, the socket is refused without the token or with another Origin, calls and events cross it, bad
// messages get error answers without hurting the host, and nothing outside the renderer is served.
import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WEB_BRIDGE_META_NAME } from '../../src/shared/ipc/web-socket-protocol';
import { API_KEY_SECRET } from '../../src/main/core/connection/connection-settings';
import { MemorySecretStore } from '../../src/main/core/secrets/memory-secret-store';
import { createKeyGuard, guardedSecretStore } from '../../src/web-host/key-guard';
import { loadRendererFiles } from '../../src/web-host/renderer-files';
import { startWebHost, type WebHost } from '../../src/web-host/web-host-server';
import { fakeRendererDir, fakeService, openClient, quietLogger, socketUrl } from './web-host-kit';

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

const TOKEN = 'test-token-0123456789abcdefghijklmnopqrstuvwxyz';

describe('web host server', () => {
  let host: WebHost;
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
    host = await startWebHost({ service: fake.service, renderer: loadRendererFiles(fakeRendererDir().dir), logger: quietLogger, port: 0, token: TOKEN });
  });

  afterEach(async () => {
    await host.close();
  });

  it('listens on 127.0.0.1 and serves index.html with the bridge path and a CSP limiting connections to its own socket', async () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await get(host.origin, '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain(`<meta name="${WEB_BRIDGE_META_NAME}" content="/bridge/${TOKEN}" />`);
    expect(page.body).toContain('<div id="root">');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain(`connect-src ${host.origin.replace('http:', 'ws:')}`);
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
    expect(rebound.body).not.toContain(TOKEN);
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
    for (const path of ['/../secret.txt', '/assets/../../secret.txt', '/%2e%2e/secret.txt', '/assets/%2e%2e%2f%2e%2e%2fsecret.txt', '/..%5csecret.txt', '/assets/', '/assets', '/%00', '/%zz', '//etc/passwd', '/bridge/' + TOKEN]) {
      const answer = await get(host.origin, path);
      expect([400, 404], path).toContain(answer.status);
      expect(answer.body, path).not.toContain('TOP-SECRET');
      expect(answer.body, path).not.toContain('<div id="root">');
    }
  });

  it('refuses a WebSocket with a wrong or missing token, or a foreign or missing Origin', async () => {
    const url = socketUrl(host.origin, host.socketPath);
    await expect(openClient(socketUrl(host.origin, '/bridge/wrong-token'), host.origin)).rejects.toThrow('refused with 403');
    await expect(openClient(socketUrl(host.origin, `/bridge/${TOKEN}x`), host.origin)).rejects.toThrow('refused with 403');
    await expect(openClient(socketUrl(host.origin, '/bridge/'), host.origin)).rejects.toThrow('refused with 403');
    await expect(openClient(url, 'http://evil.example')).rejects.toThrow('refused with 403');
    await expect(openClient(url, host.origin.replace('127.0.0.1', '127.0.0.2'))).rejects.toThrow('refused with 403');
    await expect(openClient(url, undefined)).rejects.toThrow('refused with 403');
    const client = await openClient(url, host.origin);
    client.close();
  });

  it('carries a call and its answer, and pushes events to every open tab', async () => {
    const url = socketUrl(host.origin, host.socketPath);
    const first = await openClient(url, host.origin);
    const second = await openClient(url, host.origin);
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

  it('answers malformed messages with an error and keeps serving', async () => {
    const client = await openClient(socketUrl(host.origin, host.socketPath), host.origin);
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
      const client = await openClient(socketUrl(guarded.origin, guarded.socketPath), guarded.origin);
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
    const client = await openClient(socketUrl(host.origin, host.socketPath), host.origin);
    const closed = new Promise<void>((resolve) => client.socket.once('close', () => resolve()));
    expect(fake.listenerCount()).toBe(1);
    await host.close();
    await closed;
    expect(fake.listenerCount()).toBe(0);
  });
});
