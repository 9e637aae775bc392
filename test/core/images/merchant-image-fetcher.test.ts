// Merchant images over real HTTPS (a local image host with the sandbox's CA): what comes back is an
// image within the limits, or a named refusal; nothing else reaches the page.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMerchantImageFetcher, sniffImageType } from '../../../src/core/images/merchant-image-fetcher';
import { isPublicAddress } from '../../../src/core/images/public-address';
import { prepareSandboxTls } from '../../../src/sandbox/tls/certificate-authority';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]);
const LIMIT = 64 * 1024;

let server: Server;
let base: string;
let ca: string;
let caDir: string;
const seen: { path: string; headers: Record<string, unknown> }[] = [];

beforeAll(async () => {
  caDir = mkdtempSync(join(tmpdir(), 'pd-image-ca-'));
  const tls = prepareSandboxTls({ dir: caDir, hostnames: ['localhost'], ipAddresses: ['127.0.0.1'] });
  ca = tls.caCertPem;
  server = createServer({ cert: tls.serverCertPem, key: tls.serverKeyPem }, (request, response) => {
    seen.push({ path: request.url ?? '', headers: request.headers });
    const path = request.url ?? '';
    if (path === '/a.png') response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': PNG.length }).end(PNG);
    else if (path === '/page.html') response.writeHead(200, { 'Content-Type': 'text/html' }).end('<script>alert(1)</script>');
    else if (path === '/html-as-png') response.writeHead(200, { 'Content-Type': 'image/png' }).end('<html><script>alert(1)</script>');
    else if (path === '/logo.svg') response.writeHead(200, { 'Content-Type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    else if (path === '/huge-declared') response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': LIMIT * 10 }).end();
    else if (path === '/huge-chunked') {
      // No Content-Length: the bytes are counted as they come.
      response.writeHead(200, { 'Content-Type': 'image/png' });
      response.write(PNG);
      const chunk = Buffer.alloc(16 * 1024, 1);
      for (let i = 0; i < 10; i++) response.write(chunk);
      response.end();
    } else if (path === '/slow') {
      response.writeHead(200, { 'Content-Type': 'image/png' });
      response.write(PNG.subarray(0, 10));
      // Never ends: the deadline must.
    } else if (path === '/to-png') response.writeHead(302, { Location: '/a.png' }).end();
    else if (path === '/to-http') response.writeHead(302, { Location: `http://127.0.0.1:${(server.address() as AddressInfo).port}/a.png` }).end();
    else if (path.startsWith('/loop')) response.writeHead(302, { Location: `/loop${path.length}` }).end();
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(caDir, { recursive: true, force: true });
});

const fetcher = () => createMerchantImageFetcher({ ca, allowNonPublicAddresses: true, limits: { maxBytes: LIMIT, timeoutMs: 1_500 } });

describe('merchant image fetcher', () => {
  it('fetches an image, typed by its bytes, sending no cookie, referrer or key', async () => {
    const result = await fetcher().fetch(`${base}/a.png`);
    expect(result).toEqual({ ok: true, body: new Uint8Array(PNG), contentType: 'image/png' });
    const request = seen.find((r) => r.path === '/a.png');
    expect(request?.headers).not.toHaveProperty('cookie');
    expect(request?.headers).not.toHaveProperty('referer');
    expect(request?.headers).not.toHaveProperty('authorization');
  });

  it('refuses what is not a PNG, JPEG, GIF or WebP by its bytes, SVG included', async () => {
    const images = fetcher();
    expect(await images.fetch(`${base}/page.html`)).toEqual({ ok: false, reason: 'not-an-image' });
    expect(await images.fetch(`${base}/html-as-png`)).toEqual({ ok: false, reason: 'not-an-image' });
    expect(await images.fetch(`${base}/logo.svg`)).toEqual({ ok: false, reason: 'not-an-image' });
  });

  it('refuses more bytes than the limit, declared or streamed', async () => {
    const images = fetcher();
    expect(await images.fetch(`${base}/huge-declared`)).toEqual({ ok: false, reason: 'too-large' });
    expect(await images.fetch(`${base}/huge-chunked`)).toEqual({ ok: false, reason: 'too-large' });
  });

  it('gives up at the deadline on a host that never finishes', async () => {
    expect(await fetcher().fetch(`${base}/slow`)).toEqual({ ok: false, reason: 'unreachable' });
  });

  it('fetches only https addresses without credentials, and follows only a few https redirects', async () => {
    const images = fetcher();
    expect(await images.fetch(`http://127.0.0.1/a.png`)).toEqual({ ok: false, reason: 'bad-address' });
    expect(await images.fetch(`file:///etc/passwd`)).toEqual({ ok: false, reason: 'bad-address' });
    expect(await images.fetch(`https://user:pw@127.0.0.1/a.png`)).toEqual({ ok: false, reason: 'bad-address' });
    expect(await images.fetch(`${base}/${'x'.repeat(2100)}`)).toEqual({ ok: false, reason: 'bad-address' });
    expect(await images.fetch('not a url')).toEqual({ ok: false, reason: 'bad-address' });
    expect(await images.fetch(`${base}/to-png`)).toMatchObject({ ok: true, contentType: 'image/png' });
    expect(await images.fetch(`${base}/to-http`)).toEqual({ ok: false, reason: 'bad-address' });
    expect(await images.fetch(`${base}/loop`)).toEqual({ ok: false, reason: 'unreachable' });
    expect(seen.filter((r) => r.path.startsWith('/loop'))).toHaveLength(4);
    expect(await images.fetch(`${base}/missing.png`)).toEqual({ ok: false, reason: 'unreachable' });
  });

  it('refuses a host whose certificate it does not trust', async () => {
    expect(await createMerchantImageFetcher({ allowNonPublicAddresses: true, limits: { timeoutMs: 1_500 } }).fetch(`${base}/a.png`)).toEqual({ ok: false, reason: 'unreachable' });
  });

  it('never fetches from this machine or a private network, written as an address or a name', async () => {
    const before = seen.length;
    const images = createMerchantImageFetcher({ ca, limits: { timeoutMs: 1_500 } });
    const port = new URL(base).port;
    expect(await images.fetch(`${base}/a.png`)).toEqual({ ok: false, reason: 'bad-address' });
    expect(await images.fetch(`https://localhost:${port}/a.png`)).toEqual({ ok: false, reason: 'bad-address' });
    expect(await images.fetch(`https://[::1]:${port}/a.png`)).toEqual({ ok: false, reason: 'bad-address' });
    expect(await images.fetch('https://192.168.1.1/a.png')).toEqual({ ok: false, reason: 'bad-address' });
    expect(seen.length).toBe(before);
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.0.9', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', 'not-an-ip']) {
      expect(isPublicAddress(address), address).toBe(false);
    }
    for (const address of ['8.8.8.8', '172.32.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8']) expect(isPublicAddress(address), address).toBe(true);
  });

  it('asks the host once for repeated views of the same image', async () => {
    const images = fetcher();
    const before = seen.filter((r) => r.path === '/a.png').length;
    const [a, b] = await Promise.all([images.fetch(`${base}/a.png`), images.fetch(`${base}/a.png`)]);
    await images.fetch(`${base}/a.png`);
    expect(a).toEqual(b);
    expect(seen.filter((r) => r.path === '/a.png').length - before).toBe(1);
  });

  it('knows the four image signatures', () => {
    expect(sniffImageType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffImageType(new Uint8Array(Buffer.from('GIF89a')))).toBe('image/gif');
    expect(sniffImageType(new Uint8Array(Buffer.from('RIFF\0\0\0\0WEBPVP8 ')))).toBe('image/webp');
    expect(sniffImageType(new Uint8Array(Buffer.from('RIFF\0\0\0\0WAVEfmt ')))).toBeNull();
    expect(sniffImageType(new Uint8Array(0))).toBeNull();
  });
});
