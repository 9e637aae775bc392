// HTTPS only: a plain-http merchant address is refused before anything is sent, and a server whose
// certificate comes from a CA the client was not told to trust fails as 'tls' (never retried, never
// silently accepted).
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MerchantTransportError } from '../../../src/core/merchant/merchant-errors';
import { buildClient, expectNoSecrets, FAST_RETRY, rejectionOf } from './client-kit';
import { ACCOUNT_DATA, makeTestCa, startScriptedServer, success, type ScriptedServer, type TestCa } from './scripted-https-server';

const API_KEY = 'AK_ffeeddccbbaa99887766554433221100';

let serverCa: TestCa;
let otherCa: TestCa;
let server: ScriptedServer;

beforeAll(async () => {
  serverCa = await makeTestCa();
  otherCa = await makeTestCa();
  server = await startScriptedServer(serverCa, [success(ACCOUNT_DATA)]);
});

afterAll(async () => {
  await server.close();
  serverCa.remove();
  otherCa.remove();
});

describe('HTTPS only', () => {
  it('refuses an http:// base URL without sending anything (the key never travels in clear)', async () => {
    let received = 0;
    const plain = createServer((_req, res) => {
      received++;
      res.end('{}');
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const address = plain.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const kit = buildClient({ baseUrl: `http://127.0.0.1:${address.port}/openapi/v1`, userId: '170001', apiKey: API_KEY, retry: FAST_RETRY });
    try {
      const error = await rejectionOf(kit.client.getAccount());
      expect(error).toBeInstanceOf(MerchantTransportError);
      if (error instanceof MerchantTransportError) expect(error.failure).toBe('insecure');
      expectNoSecrets(error, [API_KEY]);
      expect(received).toBe(0);
      expect(kit.exchanges).toHaveLength(1);
    } finally {
      kit.close();
      await new Promise<void>((resolve) => plain.close(() => resolve()));
    }
  });

  it.each([
    ['another CA', true],
    ['only the system roots', false],
  ])("fails with 'tls' when the client trusts %s, and does not retry", async (_what, giveOtherCa) => {
    server.script([success(ACCOUNT_DATA)]);
    const kit = buildClient({ baseUrl: server.baseUrl, userId: '170001', apiKey: API_KEY, retry: FAST_RETRY, ...(giveOtherCa ? { ca: otherCa.ca } : {}) });
    try {
      const error = await rejectionOf(kit.client.getAccount());
      expect(error).toBeInstanceOf(MerchantTransportError);
      if (error instanceof MerchantTransportError) expect(error.failure).toBe('tls');
      expectNoSecrets(error, [API_KEY]);
      expect(kit.exchanges).toHaveLength(1);
      // The handshake failed, so no request (and no key) reached the server.
      expect(server.requests).toHaveLength(0);
    } finally {
      kit.close();
    }
  });

  it('works once the right CA is given (the same server, the same call)', async () => {
    server.script([success(ACCOUNT_DATA)]);
    const kit = buildClient({ baseUrl: server.baseUrl, userId: '170001', apiKey: API_KEY, ca: serverCa.ca });
    try {
      const result = await kit.client.getAccount();
      expect(result.data.currency).toBe('CNY');
    } finally {
      kit.close();
    }
  });
});
