// The browser side of the web bridge (src/renderer/src/bridge/web-socket-transport.ts), driven over a
// real web host with Node's `ws` standing in for the browser's WebSocket: the api built from it calls
// and subscribes like the preload's, a call in flight fails clearly when the socket drops, and the
// transport reconnects by itself.
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { buildBridgeApi } from '../../src/shared/ipc/bridge-api';
import { IpcCallError, type IpcResult } from '../../src/shared/ipc/ipc-result';
import { createWebSocketTransport, type SocketFactory, type WebSocketTransport } from '../../src/renderer/src/bridge/web-socket-transport';
import { loadRendererFiles } from '../../src/web-host/renderer-files';
import { startWebHost, type WebHost } from '../../src/web-host/web-host-server';
import { fakeRendererDir, fakeService, openSession, quietLogger, socketUrl } from './web-host-kit';

const status = { connected: true, baseUrl: 'https://m.example/api', userId: '170001', keyStored: true, secretStore: 'memory', demo: false };

function nodeSocket(origin: string, cookie: string): { factory: SocketFactory; sockets: WebSocket[] } {
  const sockets: WebSocket[] = [];
  const factory: SocketFactory = (url, handlers) => {
    // The browser sends the session cookie with the upgrade by itself; Node's ws is told to.
    const socket = new WebSocket(url, { origin, headers: { Cookie: cookie } });
    sockets.push(socket);
    socket.on('open', () => handlers.onOpen());
    socket.on('close', () => handlers.onClose());
    socket.on('error', () => undefined);
    socket.on('message', (data: Buffer) => handlers.onMessage(data.toString('utf8')));
    return socket;
  };
  return { factory, sockets };
}

describe('web socket transport', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setUp(answer: (channel: string, input: unknown) => Promise<IpcResult<unknown>> | IpcResult<unknown>, port = 0) {
    const fake = fakeService(answer);
    const host: WebHost = await startWebHost({ service: fake.service, renderer: loadRendererFiles(fakeRendererDir().dir), logger: quietLogger, port });
    let open = true;
    cleanups.push(() => (open ? host.close() : undefined));
    const { factory, sockets } = nodeSocket(host.origin, await openSession(host));
    const transport: WebSocketTransport = createWebSocketTransport({ url: socketUrl(host.origin, host.socketPath), createSocket: factory, minBackoffMs: 20, maxBackoffMs: 100, connectWaitMs: 2_000 });
    cleanups.push(() => transport.close());
    const closeHost = async (): Promise<void> => {
      open = false;
      await host.close();
    };
    return { fake, host, transport, sockets, closeHost, api: buildBridgeApi(transport) };
  }

  it('builds the same domain-shaped api: calls (queued until open), refusals and events', async () => {
    const { api, fake } = await setUp((channel, input) => {
      if (channel === 'connection.status') return { ok: true, value: status };
      if (channel === 'orders.get') return { ok: false, error: { code: 'NOT_FOUND', message: `no order ${JSON.stringify(input)}` } };
      return { ok: false, error: { code: 'INTERNAL', message: 'unexpected' } };
    });
    // Called before the socket has opened: sent once it does.
    await expect(api.connection.status()).resolves.toEqual(status);
    const refused = await api.orders.get({ clientOrderRef: 'abc' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(IpcCallError);
    expect((refused as IpcCallError).error).toEqual({ code: 'NOT_FOUND', message: 'no order {"clientOrderRef":"abc"}' });

    const seen: string[][] = [];
    const unsubscribe = api.orders.onChanged((payload) => seen.push(payload.clientOrderRefs));
    fake.emit('orders.changed', { clientOrderRefs: ['r1'] });
    fake.emit('orders.changed', { clientOrderRefs: 7 }); // not the contract's shape: dropped by the bridge
    await expect.poll(() => seen).toEqual([['r1']]);
    unsubscribe();
    fake.emit('orders.changed', { clientOrderRefs: ['r2'] });
    await api.connection.status(); // a round trip later, r2 would have arrived
    expect(seen).toEqual([['r1']]);
  });

  it('fails a call in flight with a clear error when the socket drops, then reconnects', async () => {
    let release: (() => void) | null = null;
    const { api, sockets } = await setUp((channel) => {
      if (channel === 'orders.list') return new Promise((resolve) => (release = () => resolve({ ok: true, value: [] })));
      return { ok: true, value: status };
    });
    await api.connection.status();
    const inFlight = api.orders.list({}).catch((error: unknown) => error);
    await expect.poll(() => release).not.toBeNull();
    sockets[0]?.terminate();
    const error = await inFlight;
    expect(error).toBeInstanceOf(IpcCallError);
    expect((error as IpcCallError).error.code).toBe('INTERNAL');
    expect((error as IpcCallError).message).toMatch(/connection to the Procure Desk host was lost .* may or may not have been carried out/);
    // The transport opens a new socket by itself and carries on.
    await expect(api.connection.status()).resolves.toEqual(status);
    expect(sockets.length).toBe(2);
  });

  it('fails a call that cannot reach the host in time, and after close', async () => {
    const { api, transport, closeHost, sockets } = await setUp(() => ({ ok: true, value: status }));
    await api.connection.status();
    await closeHost();
    await expect.poll(() => sockets[0]?.readyState).toBe(WebSocket.CLOSED);
    await expect(api.connection.status()).rejects.toThrow(/cannot be reached/);
    transport.close();
    await expect(api.connection.status()).rejects.toThrow(/is closed/);
  });
});
