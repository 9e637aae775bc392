import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareSandboxTls, type SandboxTls } from '../../src/sandbox/tls/certificate-authority';

let dir: string;
const servers: Server[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-ca-'));
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  rmSync(dir, { recursive: true, force: true });
});

async function serve(tls: SandboxTls): Promise<number> {
  const server = createServer({ cert: tls.serverCertPem, key: tls.serverKeyPem, keepAlive: false }, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('hello');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function get(port: number, options: { ca?: string; servername?: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', method: 'GET', agent: false, ...options }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end();
  });
}

const names = { hostnames: ['localhost'], ipAddresses: ['127.0.0.1', '::1'] };

describe('prepareSandboxTls', () => {
  it('serves HTTPS that verifies against its CA only', async () => {
    const tls = prepareSandboxTls({ dir, ...names });
    const port = await serve(tls);

    await expect(get(port, { ca: tls.caCertPem })).resolves.toBe('hello');
    await expect(get(port, { ca: tls.caCertPem, servername: 'localhost' })).resolves.toBe('hello');
    const error = await get(port, {}).then(
      () => undefined,
      (e: unknown) => e as NodeJS.ErrnoException,
    );
    expect(error?.code).toMatch(/CERT|VERIFY|SIGNATURE/);
  });

  it('issues a CA and a server certificate with the required properties', () => {
    const tls = prepareSandboxTls({ dir, hostnames: ['localhost', 'openapi.sandbox.test'], ipAddresses: ['127.0.0.1', '::1'] });
    const ca = new X509Certificate(tls.caCertPem);
    const server = new X509Certificate(tls.serverCertPem);

    expect(ca.subject).toContain('CN=Procure Desk Sandbox CA');
    expect(ca.ca).toBe(true);
    expect(server.ca).toBe(false);
    expect(server.checkIssued(ca)).toBe(true);
    expect(server.verify(ca.publicKey)).toBe(true);
    for (const host of ['localhost', 'openapi.sandbox.test']) expect(server.checkHost(host)).toBe(host);
    for (const ip of ['127.0.0.1', '::1']) expect(server.checkIP(ip)).toBe(ip);
    expect(server.keyUsage).toContain('1.3.6.1.5.5.7.3.1');

    const years = (cert: X509Certificate): number => (Date.parse(cert.validTo) - Date.now()) / (365.25 * 24 * 3600 * 1000);
    expect(years(ca)).toBeGreaterThan(9.9);
    expect(years(server)).toBeGreaterThan(1.9);
    expect(years(server)).toBeLessThan(2.1);
    for (const cert of [ca, server]) expect(cert.serialNumber).not.toMatch(/^[89A-F]/i);

    expect(isAbsolute(tls.caCertFile)).toBe(true);
    expect(readFileSync(tls.caCertFile, 'utf8')).toBe(tls.caCertPem);
    expect(statSync(join(dir, 'ca-key.pem')).mode & 0o777).toBe(0o600);
  });

  it('creates a missing directory privately', () => {
    const nested = join(dir, 'nested', 'tls');
    const tls = prepareSandboxTls({ dir: nested, ...names });
    expect(statSync(nested).mode & 0o777).toBe(0o700);
    expect(tls.caCertFile).toBe(join(nested, 'ca-cert.pem'));
  });

  it('reuses an existing CA and issues a fresh server certificate', async () => {
    const first = prepareSandboxTls({ dir, ...names });
    const second = prepareSandboxTls({ dir, ...names });

    expect(second.caCertPem).toBe(first.caCertPem);
    expect(second.serverCertPem).not.toBe(first.serverCertPem);
    expect(second.serverKeyPem).not.toBe(first.serverKeyPem);
    const port = await serve(second);
    // A client that trusted the CA of the first start still trusts the second.
    await expect(get(port, { ca: first.caCertPem })).resolves.toBe('hello');
  });

  it('refuses to overwrite a CA whose key does not match', () => {
    prepareSandboxTls({ dir, ...names });
    const other = mkdtempSync(join(tmpdir(), 'sandbox-ca-other-'));
    try {
      prepareSandboxTls({ dir: other, ...names });
      writeFileSync(join(dir, 'ca-key.pem'), readFileSync(join(other, 'ca-key.pem')));
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
    expect(() => prepareSandboxTls({ dir, ...names })).toThrow(/unusable sandbox CA/);
  });
});
