// The control API's listener faults (docs/sandbox.md): refuseConnections closes the OpenAPI's listener
// (a client meets ECONNREFUSED) and opens it again on the same port; tls serves an expired, other-host
// or untrusted certificate and `valid` the good one again, each checked by a real TLS client that
// trusts the sandbox CA; bad values are refused and change nothing; a plain-HTTP sandbox answers 409.
import { readFileSync } from 'node:fs';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../../src/sandbox/sandbox-options';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/start-sandbox';
import { controlHeaders } from '../support/control-auth';

let sandbox: RunningSandbox;
let ca: string;

beforeAll(async () => {
  sandbox = await startSandbox({ ...DEFAULT_OPTIONS, products: 5 }, () => undefined);
  ca = readFileSync(sandbox.caCertFile, 'utf8');
});
afterAll(async () => {
  await sandbox?.stop();
});

async function faults(target: RunningSandbox, body: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${target.controlUrl}/control/faults`, { method: 'POST', headers: controlHeaders(target.controlToken, 'POST'), body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** What a TLS handshake trusting the sandbox CA says: 'ok' or the error code. */
function handshake(): Promise<string> {
  const { port } = new URL(sandbox.baseUrl);
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: Number(port), ca, servername: 'localhost' }, () => {
      socket.end();
      resolve('ok');
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe('sandbox listener faults', () => {
  it('refuses connections, then listens again on the same port', async () => {
    expect(await handshake()).toBe('ok');
    const on = await faults(sandbox, { refuseConnections: true });
    expect(on.status).toBe(200);
    expect(on.body['refuseConnections']).toBe(true);
    expect(await handshake()).toBe('ECONNREFUSED');
    expect((await faults(sandbox, { refuseConnections: false })).body['refuseConnections']).toBe(false);
    expect(await handshake()).toBe('ok');
  });

  it('serves an expired, an other-host and an untrusted certificate, then the good one', async () => {
    const expected = { expired: 'CERT_HAS_EXPIRED', otherHost: 'ERR_TLS_CERT_ALTNAME_INVALID', untrusted: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' } as const;
    for (const [mode, code] of Object.entries(expected)) {
      expect((await faults(sandbox, { tls: mode })).body['tls']).toBe(mode);
      expect(await handshake()).toBe(code);
    }
    await faults(sandbox, { tls: 'valid' });
    expect(await handshake()).toBe('ok');
  });

  it('refuses bad values without changing anything', async () => {
    expect((await faults(sandbox, { tls: 'broken' })).status).toBe(400);
    expect((await faults(sandbox, { refuseConnections: 'yes', errorRate: 1 })).status).toBe(400);
    expect((await faults(sandbox, { errorStatus: 418 })).status).toBe(400);
    const now = await faults(sandbox, {});
    expect(now.body).toMatchObject({ tls: 'valid', refuseConnections: false, errorRate: 0 });
    expect(await handshake()).toBe('ok');
  });

  it('a plain-HTTP sandbox has no certificate to change: 409', async () => {
    const plain = await startSandbox({ ...DEFAULT_OPTIONS, products: 5, http: true }, () => undefined);
    try {
      expect((await faults(plain, { tls: 'expired' })).status).toBe(409);
    } finally {
      await plain.stop();
    }
  });
});
