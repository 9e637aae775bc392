// The connect test against throwaway merchants on 127.0.0.1: every way it can fail is named (the
// transport reason, the merchant's code, NOT_OPENAPI, the input problem) and costs exactly one attempt:
// the connect probe is never retried, so a refused port or a bad certificate is answered at once.
// A CA given for this merchant is trusted for it only, kept with the connection, replaceable and removable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConnection } from '../../../src/core/connection/connection-settings';
import type { IpcError } from '../../../src/shared/ipc/ipc-result';
import {
  ACCOUNT_REPLY,
  closedPortUrl,
  createCertificateAuthority,
  envelopeReply,
  expiredCertificate,
  HTML_404_REPLY,
  localCertificate,
  otherHostCertificate,
  startHttpServer,
  startHttpsServer,
  UNRESOLVABLE_URL,
  type CaMaterial,
  type TestServer,
} from '../../support/connect-test-servers';
import { createAppKit, expectRefused, type AppKit } from '../app/app-kit';

const KEY = `AK_${'ab'.repeat(16)}`;
let kit: AppKit;
let trustedCa: CaMaterial;
let privateCa: CaMaterial;
const servers: TestServer[] = [];

beforeAll(async () => {
  // The probe's timeout is short here so the silent server's case ends quickly; the default is 5 s.
  kit = await createAppKit(1, { connectProbeTimeoutMs: 500 });
  trustedCa = await createCertificateAuthority();
  privateCa = await createCertificateAuthority();
});

afterAll(async () => {
  for (const server of servers) await server.close();
  await kit?.close();
});

async function serve(start: Promise<TestServer>): Promise<TestServer> {
  const server = await start;
  servers.push(server);
  return server;
}

/** connection.connect, and how many requests it handed to the transport. */
async function connect(baseUrl: string, caCertPem: string | null): Promise<{ error: IpcError | null; sent: number }> {
  const before = kit.requests.length;
  const result = await kit.call('connection.connect', { baseUrl, userId: '170001', apiKey: KEY, caCertPem });
  return { error: result.ok ? null : result.error, sent: kit.requests.length - before };
}

describe('connect failures, each named after one attempt', () => {
  it('a port where nothing listens: refused', async () => {
    const { error, sent } = await connect(await closedPortUrl(), null);
    expect(error).toMatchObject({ code: 'MERCHANT_UNREACHABLE', transportReason: 'refused' });
    expect(sent).toBe(1);
  });

  it('a host name that does not resolve: dns', async () => {
    const { error, sent } = await connect(UNRESOLVABLE_URL, null);
    expect(error).toMatchObject({ code: 'MERCHANT_UNREACHABLE', transportReason: 'dns' });
    expect(sent).toBe(1);
  });

  it('a certificate from a CA not trusted (none given, or another one): tlsUntrusted', async () => {
    const server = await serve(startHttpsServer(await localCertificate(privateCa)));
    const none = await connect(server.baseUrl, null);
    expect(none.error).toMatchObject({ code: 'MERCHANT_UNREACHABLE', transportReason: 'tlsUntrusted' });
    const other = await connect(server.baseUrl, trustedCa.certPem);
    expect(other.error).toMatchObject({ code: 'MERCHANT_UNREACHABLE', transportReason: 'tlsUntrusted' });
    expect([none.sent, other.sent]).toEqual([1, 1]);
    expect(server.connections).toBe(2);
    expect(server.requests).toBe(0);
  });

  it('a certificate for another host: tlsHostname', async () => {
    const server = await serve(startHttpsServer(await otherHostCertificate(trustedCa)));
    const { error, sent } = await connect(server.baseUrl, trustedCa.certPem);
    expect(error).toMatchObject({ code: 'MERCHANT_UNREACHABLE', transportReason: 'tlsHostname' });
    expect([sent, server.connections, server.requests]).toEqual([1, 1, 0]);
  });

  it('an expired certificate: tlsExpired', async () => {
    const server = await serve(startHttpsServer(await expiredCertificate(trustedCa)));
    const { error, sent } = await connect(server.baseUrl, trustedCa.certPem);
    expect(error).toMatchObject({ code: 'MERCHANT_UNREACHABLE', transportReason: 'tlsExpired' });
    expect([sent, server.connections, server.requests]).toEqual([1, 1, 0]);
  });

  it('a merchant that does not answer in time: timeout, not retried', async () => {
    const server = await serve(startHttpsServer(await localCertificate(trustedCa), { ...ACCOUNT_REPLY, hang: true }));
    const { error, sent } = await connect(server.baseUrl, trustedCa.certPem);
    expect(error).toMatchObject({ code: 'MERCHANT_UNREACHABLE', transportReason: 'timeout' });
    expect([sent, server.requests]).toEqual([1, 1]);
  });

  it('an http:// address: refused before anything is sent (the key never goes over plain http)', async () => {
    const server = await serve(startHttpServer());
    const { error, sent } = await connect(server.baseUrl, null);
    expect(error).toMatchObject({ code: 'INVALID_INPUT', fields: [{ path: 'baseUrl', message: 'addressInsecure' }] });
    expect([sent, server.connections]).toEqual([0, 0]);
  });

  it('a web page or a 404 where the interface should be: NOT_OPENAPI', async () => {
    const html = await serve(startHttpsServer(await localCertificate(trustedCa), HTML_404_REPLY));
    const page = await connect(html.baseUrl, trustedCa.certPem);
    expect(page.error).toMatchObject({ code: 'NOT_OPENAPI' });
    const json = await serve(startHttpsServer(await localCertificate(trustedCa), { status: 200, body: '{"hello":"world"}' }));
    const other = await connect(json.baseUrl, trustedCa.certPem);
    expect(other.error).toMatchObject({ code: 'NOT_OPENAPI' });
    const envelope404 = await serve(startHttpsServer(await localCertificate(trustedCa), envelopeReply(404, 404001)));
    const notVisible = await connect(envelope404.baseUrl, trustedCa.certPem);
    expect(notVisible.error).toMatchObject({ code: 'NOT_OPENAPI' });
    expect([page.sent, other.sent, notVisible.sent]).toEqual([1, 1, 1]);
    // A gateway's page on 503 is the merchant away, not a wrong address.
    const gateway = await serve(startHttpsServer(await localCertificate(trustedCa), { status: 503, body: '<html>Service Unavailable</html>', contentType: 'text/html' }));
    const away = await connect(gateway.baseUrl, trustedCa.certPem);
    expect(away.error).toMatchObject({ code: 'MERCHANT_MALFORMED' });
    expect([away.sent, gateway.requests]).toEqual([1, 1]);
  });

  it('the merchant refuses the key, the address or the account: its code, one request', async () => {
    for (const [status, code] of [
      [401, 401001],
      [403, 403002],
      [403, 403005],
      [503, 503001],
    ] as const) {
      const server = await serve(startHttpsServer(await localCertificate(trustedCa), envelopeReply(status, code)));
      const { error, sent } = await connect(server.baseUrl, trustedCa.certPem);
      expect(error, `${code}`).toMatchObject({ code: 'MERCHANT_REFUSED', merchantCode: code });
      expect([sent, server.requests], `${code}`).toEqual([1, 1]);
    }
    expect(readConnection(kit.core.db)).toBeNull();
  });
});

describe('a CA certificate for this merchant only', () => {
  it('refuses what is not a PEM certificate before sending, and a PEM block that does not parse', async () => {
    const server = await serve(startHttpsServer(await localCertificate(privateCa)));
    const key = privateCa.keyPem;
    const cases: [string, string][] = [
      ['just some text', 'caCertNotPem'],
      [key, 'caCertNotPem'],
      [`${privateCa.certPem}\n${key}`, 'caCertNotPem'],
      ['-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n', 'caCertUnreadable'],
    ];
    for (const [pem, problem] of cases) {
      const { error, sent } = await connect(server.baseUrl, pem);
      expect(error, problem).toMatchObject({ code: 'INVALID_INPUT', fields: [{ path: 'caCertPem', message: problem }] });
      expect(sent).toBe(0);
    }
    expectRefused(await kit.call('connection.connect', { baseUrl: server.baseUrl, userId: '170001', apiKey: KEY, caCertPem: 'x'.repeat(70_000) }), 'INVALID_INPUT');
    expect(server.connections).toBe(0);
  });

  it('connects with the CA, shows it in the status, keeps it on a key replacement, and replaces or removes it only when that connects', async () => {
    const server = await serve(startHttpsServer(await localCertificate(privateCa)));
    const { error } = await connect(server.baseUrl, privateCa.certPem);
    expect(error).toBeNull();
    const status = await kit.ok('connection.status');
    expect(status.caCert?.subject).toContain('Procure Desk Sandbox CA');
    expect(status.caCert?.fingerprint256).toMatch(/^[0-9A-F:]+$/);

    expect((await kit.call('connection.replaceKey', { apiKey: `AK_${'cd'.repeat(16)}` })).ok).toBe(true);
    expect(readConnection(kit.core.db)?.caCertPem).toBe(privateCa.certPem);

    // Removing it: the merchant's certificate is then untrusted; nothing changes.
    const removed = expectRefused(await kit.call('connection.setCaCert', { caCertPem: null }), 'MERCHANT_UNREACHABLE');
    expect(removed.transportReason).toBe('tlsUntrusted');
    const wrong = expectRefused(await kit.call('connection.setCaCert', { caCertPem: trustedCa.certPem }), 'MERCHANT_UNREACHABLE');
    expect(wrong.transportReason).toBe('tlsUntrusted');
    expectRefused(await kit.call('connection.setCaCert', { caCertPem: 'not a certificate' }), 'INVALID_INPUT');
    expect(readConnection(kit.core.db)?.caCertPem).toBe(privateCa.certPem);

    // The same CA with a chain around it (the merchant's bundle) connects and is stored.
    const bundle = `${trustedCa.certPem}${privateCa.certPem}`;
    expect((await kit.call('connection.setCaCert', { caCertPem: bundle })).ok).toBe(true);
    expect(readConnection(kit.core.db)?.caCertPem).toBe(bundle);
    expect((await kit.ok('connection.status')).connected).toBe(true);
  });
});
