// localtunnel through the real `localtunnel` npm client, against a stand-in server on loopback
// (fixtures/localtunnel-stand-in.ts): the tunnel request, requests travelling through the client's
// connections to a local receiver and back, a lost server reconnected with backoff, and start
// failures that end instead of retrying forever.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTunnel } from '../../../../src/main/core/events/tunnels/create-tunnel';
import type { Tunnel } from '../../../../src/main/core/events/tunnels/tunnel';
import type { LocaltunnelStandIn } from './fixtures/localtunnel-stand-in';
import { startLocaltunnelStandIn } from './fixtures/localtunnel-stand-in';
import { recordingLogger, statusLog, waitFor } from './fixtures/tunnel-test-kit';

interface Received {
  method: string;
  url: string;
  body: string;
}

async function startReceiver(): Promise<{ port: number; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ method: request.method ?? '', url: request.url ?? '', body });
      response.writeHead(200, { 'content-type': 'text/plain' }).end(`OK ${body.length}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('localtunnel tunnel', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setUp(options: { subdomain?: string; startTimeoutMs?: number } = {}): Promise<{ standIn: LocaltunnelStandIn; tunnel: Tunnel; receiver: Awaited<ReturnType<typeof startReceiver>> }> {
    const standIn = await startLocaltunnelStandIn();
    cleanups.push(() => standIn.close());
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const { logger } = recordingLogger();
    const tunnel = createTunnel(
      { kind: 'localtunnel', host: standIn.host, ...(options.subdomain === undefined ? {} : { subdomain: options.subdomain }) },
      { logger, localtunnelTimings: { startTimeoutMs: options.startTimeoutMs ?? 5_000, backoff: { initialMs: 50, maxMs: 400, stableMs: 60_000 } } },
    );
    cleanups.push(() => tunnel.stop());
    return { standIn, tunnel, receiver };
  }

  it('requests a tunnel, and a request sent to the public URL reaches the local receiver and its answer comes back', async () => {
    const { standIn, tunnel, receiver } = await setUp();
    const publicUrl = await tunnel.start(receiver.port);
    expect(publicUrl).toBe(standIn.publicUrl);
    expect(standIn.requests).toEqual(['/?new']);
    expect(tunnel.status()).toEqual({ kind: 'localtunnel', up: true, publicUrl, lastError: null, restarts: 0 });

    // Non-ASCII text, so that a body cut into chunks mid-character would show any text decoding on the way.
    const body = JSON.stringify({ eventId: 'evt-1', title: 'Käse — 奶酪 '.repeat(2_000) });
    for (const path of ['/hooks/token-1', '/hooks/token-2']) {
      const response = await fetch(`${publicUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(`OK ${body.length}`);
    }
    expect(receiver.received.map((request) => [request.method, request.url])).toEqual([
      ['POST', '/hooks/token-1'],
      ['POST', '/hooks/token-2'],
    ]);
    expect(receiver.received.every((request) => request.body === body)).toBe(true);
  });

  it('asks for the configured subdomain instead of a new random one', async () => {
    const { standIn, tunnel, receiver } = await setUp({ subdomain: 'procure-desk' });
    await tunnel.start(receiver.port);
    expect(standIn.requests).toEqual(['/procure-desk']);
  });

  it('requests a new tunnel with backoff when the server drops the client, reporting down then up', async () => {
    const { standIn, tunnel, receiver } = await setUp();
    const { changes, listener } = statusLog();
    tunnel.onChange(listener);
    const publicUrl = await tunnel.start(receiver.port);
    await standIn.dropClients();

    await waitFor(() => tunnel.status().up && tunnel.status().restarts === 1, 'the tunnel requested again');
    expect(standIn.requests).toEqual(['/?new', '/?new']);
    const down = changes.find((status) => !status.up);
    expect(down).toMatchObject({ publicUrl: null, lastError: expect.stringMatching(/localtunnel connection lost: connection refused/) as unknown });
    expect(changes.at(-1)).toMatchObject({ up: true, publicUrl, restarts: 1, lastError: null });

    const response = await fetch(`${publicUrl}/after-restart`, { method: 'POST', body: '{}' });
    expect(await response.text()).toBe('OK 2');
    expect(receiver.received.at(-1)?.url).toBe('/after-restart');
  });

  it('rejects start with the server message when the tunnel is refused, asking once only', async () => {
    const { standIn, tunnel, receiver } = await setUp();
    standIn.answer = 'refuse';
    await expect(tunnel.start(receiver.port)).rejects.toThrow('the localtunnel server refused the tunnel: stand-in is full');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // The npm client's own request would retry every second for ever; ours asked once.
    expect(standIn.requests).toEqual(['/?new']);
    expect(tunnel.status()).toMatchObject({ up: false, publicUrl: null, lastError: expect.stringContaining('stand-in is full') as unknown });
  });

  it('gives up on a server that does not answer within the start timeout', async () => {
    const { standIn, tunnel, receiver } = await setUp({ startTimeoutMs: 300 });
    standIn.answer = 'hang';
    await expect(tunnel.start(receiver.port)).rejects.toThrow('localtunnel did not connect within 300 ms');
  });

  it('stops: the client connections are closed and nothing reconnects', async () => {
    const { standIn, tunnel, receiver } = await setUp();
    const publicUrl = await tunnel.start(receiver.port);
    await tunnel.stop();
    expect(tunnel.status()).toMatchObject({ up: false, publicUrl: null });
    // A connection still being opened when stop() came is closed by the client as soon as it opens.
    await waitFor(() => standIn.openConnections() === 0, 'the client connections closed');
    const before = standIn.connections();
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(standIn.connections()).toBe(before);
    expect(standIn.openConnections()).toBe(0);
    await expect(fetch(`${publicUrl}/after-stop`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(7_000) })).rejects.toThrow();
    expect(receiver.received).toHaveLength(0);
  });
});
