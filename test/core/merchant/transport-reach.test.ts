// When may a transport failure say the merchant received nothing? Only when no TCP connection was
// ever made for the request (refused): then not one byte left. A connection that was made and then
// dropped (reset before an answer; the sandbox's dropRate after processing) may have delivered the
// request, so it must stay "maybe reached" and an order with it unknown.
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransportError } from '../../../src/core/merchant/http-port';
import { createNodeHttpsPort } from '../../../src/core/merchant/node-https-port';

let dropping: Server;
let droppingPort = 0;
let closedPort = 0;

beforeAll(async () => {
  // Accepts the connection, takes what arrives, and closes without an answer.
  dropping = createServer((socket) => socket.once('data', () => socket.destroy()));
  await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
  const address = dropping.address();
  droppingPort = typeof address === 'object' && address !== null ? address.port : 0;
  // A port that was free a moment ago: nothing listens on it.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const probeAddress = probe.address();
  closedPort = typeof probeAddress === 'object' && probeAddress !== null ? probeAddress.port : 0;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});

afterAll(async () => {
  await new Promise<void>((resolve) => dropping.close(() => resolve()));
});

async function failureOf(port: number): Promise<TransportError> {
  const https = createNodeHttpsPort();
  try {
    await https({ method: 'POST', url: `https://127.0.0.1:${port}/openapi/v1/orders/create`, headers: {}, body: '{}', timeoutMs: 5000 });
  } catch (error) {
    if (error instanceof TransportError) return error;
    throw error;
  } finally {
    https.close();
  }
  throw new Error('the request did not fail');
}

describe('node https port: did the request reach the merchant?', () => {
  it('says never connected when the connection is refused', async () => {
    const failure = await failureOf(closedPort);
    expect(failure.failure).toBe('connection');
    expect(failure.neverConnected).toBe(true);
  });

  it('does not, once a connection was made and then dropped', async () => {
    const failure = await failureOf(droppingPort);
    expect(failure.neverConnected).toBe(false);
  });
});
