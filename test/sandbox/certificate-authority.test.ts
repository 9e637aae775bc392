import { createPrivateKey, X509Certificate } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type * as X509 from '@peculiar/x509';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareSandboxTls, type SandboxTls } from '../../src/sandbox/tls/certificate-authority';
import { faultCertificate } from '../../src/sandbox/tls/tls-faults';
import { loadX509 } from '../../src/sandbox/tls/x509';

const x509 = await loadX509();
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
    const tls = await prepareSandboxTls({ dir, ...names });
    const port = await serve(tls);

    await expect(get(port, { ca: tls.caCertPem })).resolves.toBe('hello');
    await expect(get(port, { ca: tls.caCertPem, servername: 'localhost' })).resolves.toBe('hello');
    const error = await get(port, {}).then(
      () => undefined,
      (e: unknown) => e as NodeJS.ErrnoException,
    );
    expect(error?.code).toMatch(/CERT|VERIFY|SIGNATURE/);
  });

  it('issues a CA and a server certificate with the required properties', async () => {
    const tls = await prepareSandboxTls({ dir, hostnames: ['localhost', 'openapi.sandbox.test'], ipAddresses: ['127.0.0.1', '::1'] });
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

  it('creates a missing directory privately', async () => {
    const nested = join(dir, 'nested', 'tls');
    const tls = await prepareSandboxTls({ dir: nested, ...names });
    expect(statSync(nested).mode & 0o777).toBe(0o700);
    expect(tls.caCertFile).toBe(join(nested, 'ca-cert.pem'));
  });

  it('reuses an existing CA and issues a fresh server certificate', async () => {
    const first = await prepareSandboxTls({ dir, ...names });
    const second = await prepareSandboxTls({ dir, ...names });

    expect(second.caCertPem).toBe(first.caCertPem);
    expect(second.serverCertPem).not.toBe(first.serverCertPem);
    expect(second.serverKeyPem).not.toBe(first.serverKeyPem);
    const port = await serve(second);
    // A client that trusted the CA of the first start still trusts the second.
    await expect(get(port, { ca: first.caCertPem })).resolves.toBe('hello');
  });

  it('refuses to overwrite a CA whose key does not match', async () => {
    await prepareSandboxTls({ dir, ...names });
    const other = mkdtempSync(join(tmpdir(), 'sandbox-ca-other-'));
    try {
      await prepareSandboxTls({ dir: other, ...names });
      writeFileSync(join(dir, 'ca-key.pem'), readFileSync(join(other, 'ca-key.pem')));
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
    await expect(prepareSandboxTls({ dir, ...names })).rejects.toThrow(/unusable sandbox CA/);
  });
});

/** The extensions of one certificate as @peculiar/x509 reads them, with their critical flags. */
function extensionsOf(pem: string) {
  const cert = new x509.X509Certificate(pem);
  const get = <T extends X509.Extension>(type: new (raw: ArrayBuffer) => T): T => {
    const found = cert.getExtension(type);
    if (found === null) throw new Error(`${type.name} missing`);
    return found;
  };
  return {
    cert,
    basic: get(x509.BasicConstraintsExtension),
    keyUsage: get(x509.KeyUsagesExtension),
    subjectKeyId: get(x509.SubjectKeyIdentifierExtension).keyId,
    extKeyUsage: () => get(x509.ExtendedKeyUsageExtension).usages,
    altNames: () => get(x509.SubjectAlternativeNameExtension).names.toJSON(),
    authorityKeyId: () => get(x509.AuthorityKeyIdentifierExtension).keyId,
  };
}

const OLD_CA_DIR = new URL('../fixtures/sandbox-ca-node-forge/', import.meta.url);

describe('the sandbox CA and its server certificates, in detail', () => {
  it('makes an ECDSA P-256 CA limited to signing end-entity certificates, its key PKCS#8 PEM', async () => {
    const tls = await prepareSandboxTls({ dir, ...names });
    const ca = extensionsOf(tls.caCertPem);
    expect(new X509Certificate(tls.caCertPem).publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(ca.cert.signatureAlgorithm).toMatchObject({ name: 'ECDSA', hash: { name: 'SHA-256' } });
    expect([ca.basic.ca, ca.basic.pathLength, ca.basic.critical]).toEqual([true, 0, true]);
    expect([ca.keyUsage.usages, ca.keyUsage.critical]).toEqual([x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true]);
    expect(ca.subjectKeyId).toMatch(/^[0-9a-f]{40}$/);
    expect(await ca.cert.isSelfSigned()).toBe(true);
    expect(ca.cert.subject).toBe('CN=Procure Desk Sandbox CA, O=Procure Desk Sandbox');
    // Backdated by an hour for a client whose clock lags.
    expect(Date.now() - ca.cert.notBefore.getTime()).toBeGreaterThan(59 * 60 * 1000);

    const keyPem = readFileSync(join(dir, 'ca-key.pem'), 'utf8');
    expect(keyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n[\s\S]+\n-----END PRIVATE KEY-----\n$/);
    expect(createPrivateKey(keyPem).asymmetricKeyType).toBe('ec');
    expect(tls.caCertPem).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+\n-----END CERTIFICATE-----\n$/);
    expect(statSync(join(dir, 'ca-cert.pem')).mode & 0o777).toBe(0o644);
  });

  it('issues server certificates for exactly the names asked, keyed to the CA, with random positive serials', async () => {
    const tls = await prepareSandboxTls({ dir, hostnames: ['LocalHost', 'localhost', '127.0.0.1', '*.sandbox.test'], ipAddresses: ['127.0.0.1', '::1'] });
    const ca = extensionsOf(tls.caCertPem);
    const server = extensionsOf(tls.serverCertPem);
    expect([server.basic.ca, server.basic.critical]).toEqual([false, true]);
    expect([server.keyUsage.usages, server.keyUsage.critical]).toEqual([x509.KeyUsageFlags.digitalSignature, true]);
    expect(server.extKeyUsage()).toEqual([x509.ExtendedKeyUsage.serverAuth]);
    // A hostname that is an address counts once, as an IP entry; DNS names are lower-cased and deduplicated.
    expect(server.altNames()).toEqual([
      { type: 'dns', value: 'localhost' },
      { type: 'dns', value: '*.sandbox.test' },
      { type: 'ip', value: '127.0.0.1' },
      { type: 'ip', value: '::1' },
    ]);
    expect(server.authorityKeyId()).toBe(ca.subjectKeyId);
    expect(Buffer.from(server.cert.issuerName.toArrayBuffer())).toEqual(Buffer.from(ca.cert.subjectName.toArrayBuffer()));
    expect(server.cert.subject).toBe('CN=localhost, O=Procure Desk Sandbox');
    expect(createPrivateKey(tls.serverKeyPem).asymmetricKeyDetails?.namedCurve).toBe('prime256v1');

    const serials = new Set<string>();
    for (let i = 0; i < 5; i++) serials.add(new X509Certificate((await prepareSandboxTls({ dir, ...names })).serverCertPem).serialNumber);
    expect(serials.size).toBe(5);
    // 16 bytes, the sign bit clear (positive) and the first byte never zero (so DER keeps all 16).
    for (const serial of serials) expect(serial).toMatch(/^(?!00)[0-7][0-9A-F]{31}$/);
  });

  it('makes the fault certificates the control API serves: expired, for another host, from an untrusted CA', async () => {
    const tls = await prepareSandboxTls({ dir, ...names });
    const ca = new X509Certificate(tls.caCertPem);
    const expired = new X509Certificate((await faultCertificate('expired', tls.ca, ['localhost'], ['127.0.0.1'])).certPem);
    expect(Date.parse(expired.validTo)).toBeLessThan(Date.now());
    expect(expired.checkIssued(ca) && expired.verify(ca.publicKey)).toBe(true);
    const otherHost = new X509Certificate((await faultCertificate('otherHost', tls.ca, ['localhost'], ['127.0.0.1'])).certPem);
    expect([otherHost.checkHost('localhost'), otherHost.checkIP('127.0.0.1'), otherHost.checkHost('other-host.invalid')]).toEqual([undefined, undefined, 'other-host.invalid']);
    const untrusted = new X509Certificate((await faultCertificate('untrusted', tls.ca, ['localhost'], ['127.0.0.1'])).certPem);
    expect(untrusted.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(untrusted.verify(ca.publicKey)).toBe(false);
  });

  it('creates one CA when two starts race on an empty folder', async () => {
    const [first, second] = await Promise.all([prepareSandboxTls({ dir, ...names }), prepareSandboxTls({ dir, ...names })]);
    expect(second.caCertPem).toBe(first.caCertPem);
    expect(readFileSync(join(dir, 'ca-cert.pem'), 'utf8')).toBe(first.caCertPem);
  });

  it('refuses a certificate that is no CA, even with its own key', async () => {
    const tls = await prepareSandboxTls({ dir, ...names });
    const other = mkdtempSync(join(tmpdir(), 'sandbox-ca-leaf-'));
    try {
      writeFileSync(join(other, 'ca-cert.pem'), tls.serverCertPem);
      writeFileSync(join(other, 'ca-key.pem'), tls.serverKeyPem, { mode: 0o600 });
      await expect(prepareSandboxTls({ dir: other, ...names })).rejects.toThrow(/unusable sandbox CA .*not a CA/);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('keeps a CA made by the node-forge versions (RSA 2048, PKCS#1) and issues from it', async () => {
    for (const file of ['ca-cert.pem', 'ca-key.pem']) copyFileSync(new URL(file, OLD_CA_DIR), join(dir, file));
    const oldCertPem = readFileSync(join(dir, 'ca-cert.pem'), 'utf8');
    expect(readFileSync(join(dir, 'ca-key.pem'), 'utf8')).toMatch(/^-----BEGIN RSA PRIVATE KEY-----/);

    const tls = await prepareSandboxTls({ dir, ...names });
    expect(tls.caCertPem).toBe(oldCertPem);
    expect(readFileSync(join(dir, 'ca-cert.pem'), 'utf8')).toBe(oldCertPem);
    const ca = extensionsOf(oldCertPem);
    const server = extensionsOf(tls.serverCertPem);
    expect(server.cert.signatureAlgorithm).toMatchObject({ name: 'RSASSA-PKCS1-v1_5', hash: { name: 'SHA-256' } });
    expect(await server.cert.verify({ publicKey: ca.cert.publicKey, signatureOnly: true })).toBe(true);
    expect(server.authorityKeyId()).toBe(ca.subjectKeyId);
    expect(Buffer.from(server.cert.issuerName.toArrayBuffer())).toEqual(Buffer.from(ca.cert.subjectName.toArrayBuffer()));
    const node = new X509Certificate(tls.serverCertPem);
    expect(node.checkIssued(new X509Certificate(oldCertPem))).toBe(true);
    expect(node.checkIP('127.0.0.1')).toBe('127.0.0.1');

    const port = await serve(tls);
    await expect(get(port, { ca: oldCertPem })).resolves.toBe('hello');
    const expired = await faultCertificate('expired', tls.ca, ['localhost'], ['127.0.0.1']);
    expect(new X509Certificate(expired.certPem).verify(new X509Certificate(oldCertPem).publicKey)).toBe(true);
  });
});
