// Merchant images over real HTTPS (a local image host with the sandbox's CA): what comes back is an
// image within the limits, or a named refusal; nothing else reaches the page.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LookupAddress } from 'node:dns';
import type { ServerResponse } from 'node:http';
import { createMerchantImageFetcher, sniffImageType } from '../../../src/core/images/merchant-image-fetcher';
import { isPublicAddress, type HostResolver } from '../../../src/core/images/public-address';
import { prepareSandboxTls } from '../../../src/sandbox/tls/certificate-authority';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]);
const LIMIT = 64 * 1024;

let server: Server;
let base: string;
let ca: string;
let caDir: string;
const seen: { path: string; headers: Record<string, unknown> }[] = [];
const held: ServerResponse[] = [];
let heldMost = 0;
const port = (): string => String((server.address() as AddressInfo).port);

beforeAll(async () => {
  caDir = mkdtempSync(join(tmpdir(), 'pd-image-ca-'));
  const tls = await prepareSandboxTls({ dir: caDir, hostnames: ['localhost', 'images.example.test', 'private.example.test', 'mixed.example.test', 'other.example.test'], ipAddresses: ['127.0.0.1'] });
  ca = tls.caCertPem;
  server = createServer({ cert: tls.serverCertPem, key: tls.serverKeyPem }, (request, response) => {
    seen.push({ path: request.url ?? '', headers: request.headers });
    const path = request.url ?? '';
    if (path === '/a.png' || path.startsWith('/a.png?')) response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': PNG.length }).end(PNG);
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
    else if (path === '/to-private') response.writeHead(302, { Location: 'https://10.0.0.1/a.png' }).end();
    else if (path === '/to-mapped') response.writeHead(302, { Location: `https://[::ffff:127.0.0.1]:${port()}/a.png` }).end();
    else if (path === '/to-nat64') response.writeHead(302, { Location: `https://[64:ff9b::7f00:1]:${port()}/a.png` }).end();
    else if (path === '/to-private-name') response.writeHead(302, { Location: `https://private.example.test:${port()}/a.png` }).end();
    else if (path === '/to-named') response.writeHead(301, { Location: `https://images.example.test:${port()}/a.png` }).end();
    else if (path === '/to-broken') response.writeHead(302, { Location: 'https://[::1/a.png' }).end();
    else if (path === '/to-long') response.writeHead(302, { Location: `/${'x'.repeat(2100)}.png` }).end();
    else if (path === '/redirect-with-endless-body') {
      response.writeHead(302, { Location: '/a.png' });
      const chunk = Buffer.alloc(64 * 1024, 1);
      const pump = (): void => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once('drain', pump);
      };
      pump();
    } else if (path === '/no-headers') {
      // Accepts the request and never answers: the deadline covers waiting for headers too.
    } else if (path === '/drip') {
      // A byte every 50 ms, well under the size limit: only the deadline ends it.
      response.writeHead(200, { 'Content-Type': 'image/png' });
      const timer = setInterval(() => (response.destroyed ? clearInterval(timer) : response.write(Buffer.from([7]))), 50);
    } else if (path === '/no-type') response.writeHead(200).end(PNG);
    else if (path === '/jpeg-named-png') response.writeHead(200, { 'Content-Type': 'image/png' }).end(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]));
    else if (path.startsWith('/held')) {
      held.push(response);
      heldMost = Math.max(heldMost, held.length);
    }
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

// The test host is on 127.0.0.1: that one address is let through, every other is judged as in the app.
const fetcher = (testResolver?: HostResolver) => createMerchantImageFetcher({ ca, testAddresses: ['127.0.0.1'], ...(testResolver ? { testResolver } : {}), limits: { maxBytes: LIMIT, timeoutMs: 1_500 } });
const resolver =
  (table: Record<string, string[]>): HostResolver =>
  (hostname) =>
    Promise.resolve((table[hostname] ?? []).map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })));
const NAMES = resolver({
  'images.example.test': ['127.0.0.1'],
  'private.example.test': ['192.168.1.1'],
  'mixed.example.test': ['127.0.0.1', '10.0.0.1'],
  'other.example.test': ['127.0.0.2'],
});

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
    expect(await createMerchantImageFetcher({ testAddresses: ['127.0.0.1'], limits: { timeoutMs: 1_500 } }).fetch(`${base}/a.png`)).toEqual({ ok: false, reason: 'unreachable' });
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

  it('judges the address a name resolves to: every answer must be public', async () => {
    const images = fetcher(NAMES);
    const before = seen.length;
    expect(await images.fetch(`https://private.example.test:${port()}/a.png`)).toEqual({ ok: false, reason: 'bad-address' });
    expect(await images.fetch(`https://mixed.example.test:${port()}/a.png`)).toEqual({ ok: false, reason: 'bad-address' });
    expect(await images.fetch(`https://other.example.test:${port()}/a.png`)).toEqual({ ok: false, reason: 'bad-address' });
    expect(await images.fetch(`https://unknown.example.test:${port()}/a.png`)).toEqual({ ok: false, reason: 'bad-address' });
    expect(seen.length).toBe(before);
    // The same route to the host by a name whose answer is let through: the check is on the answer.
    expect(await images.fetch(`https://images.example.test:${port()}/a.png`)).toMatchObject({ ok: true, contentType: 'image/png' });
  });

  it('judges every redirect hop as the first: no private, carried or badly written address', async () => {
    const images = fetcher(NAMES);
    const logged: Record<string, string>[] = [];
    const logging = createMerchantImageFetcher({ ca, testAddresses: ['127.0.0.1'], testResolver: NAMES, limits: { timeoutMs: 1_500 }, log: (_m, fields) => logged.push(fields) });
    const before = seen.filter((r) => r.path === '/a.png').length;
    expect(await logging.fetch(`${base}/to-private`)).toEqual({ ok: false, reason: 'bad-address' });
    expect(logged).toEqual([{ host: `127.0.0.1:${port()}`, reason: 'redirect refused' }]);
    expect(await images.fetch(`${base}/to-mapped`)).toEqual({ ok: false, reason: 'bad-address' });
    expect(await images.fetch(`${base}/to-nat64`)).toEqual({ ok: false, reason: 'bad-address' });
    expect(await images.fetch(`${base}/to-private-name`)).toEqual({ ok: false, reason: 'bad-address' });
    expect(await images.fetch(`${base}/to-long`)).toEqual({ ok: false, reason: 'bad-address' });
    expect(seen.filter((r) => r.path === '/a.png').length).toBe(before);
    expect(await images.fetch(`${base}/to-named`)).toMatchObject({ ok: true, contentType: 'image/png' });
  });

  it('refuses a redirect whose Location does not parse, without throwing in the response handler', async () => {
    expect(await fetcher().fetch(`${base}/to-broken`)).toEqual({ ok: false, reason: 'bad-address' });
  });

  it('does not read the body of a redirect', async () => {
    const started = Date.now();
    expect(await fetcher().fetch(`${base}/redirect-with-endless-body`)).toMatchObject({ ok: true, contentType: 'image/png' });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('keeps the deadline whether the host never answers or drips bytes under the size limit', async () => {
    for (const path of ['/no-headers', '/drip']) {
      const started = Date.now();
      expect(await fetcher().fetch(`${base}${path}`)).toEqual({ ok: false, reason: 'unreachable' });
      const took = Date.now() - started;
      expect(took).toBeGreaterThanOrEqual(1_400);
      expect(took).toBeLessThan(2_500);
    }
  });

  it('needs a declared image type and serves the type the bytes show', async () => {
    const images = fetcher();
    expect(await images.fetch(`${base}/no-type`)).toEqual({ ok: false, reason: 'not-an-image' });
    expect(await images.fetch(`${base}/jpeg-named-png`)).toMatchObject({ ok: true, contentType: 'image/jpeg' });
  });

  it('fetches a few at once; the rest wait their turn', async () => {
    const images = createMerchantImageFetcher({ ca, testAddresses: ['127.0.0.1'], limits: { timeoutMs: 5_000, maxConcurrent: 2 } });
    const results = Promise.all([1, 2, 3, 4, 5].map((i) => images.fetch(`${base}/held/${i}`)));
    let answered = 0;
    while (answered < 5) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const response = held.shift();
      if (response === undefined) continue;
      response.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG);
      answered++;
    }
    expect((await results).every((result) => result.ok)).toBe(true);
    expect(heldMost).toBe(2);
  });

  it('asks the host once for repeated views of the same image', async () => {
    const images = fetcher();
    const before = seen.filter((r) => r.path === '/a.png').length;
    const [a, b] = await Promise.all([images.fetch(`${base}/a.png`), images.fetch(`${base}/a.png`)]);
    await images.fetch(`${base}/a.png`);
    expect(a).toEqual(b);
    expect(seen.filter((r) => r.path === '/a.png').length - before).toBe(1);
  });

  it('keeps a bounded number of images cached, however small, dropping the oldest', async () => {
    const images = createMerchantImageFetcher({ ca, testAddresses: ['127.0.0.1'], cacheEntries: 2, limits: { timeoutMs: 1_500 } });
    const asked = (): number => seen.filter((r) => r.path.startsWith('/a.png?')).length;
    const before = asked();
    for (const n of [1, 2, 3]) expect(await images.fetch(`${base}/a.png?n=${n}`)).toMatchObject({ ok: true });
    await new Promise((resolve) => setImmediate(resolve));
    await images.fetch(`${base}/a.png?n=3`);
    await images.fetch(`${base}/a.png?n=2`);
    expect(asked() - before).toBe(3);
    await images.fetch(`${base}/a.png?n=1`);
    expect(asked() - before).toBe(4);
  });

  it('knows the four image signatures', () => {
    expect(sniffImageType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffImageType(new Uint8Array(Buffer.from('GIF89a')))).toBe('image/gif');
    expect(sniffImageType(new Uint8Array(Buffer.from('RIFF\0\0\0\0WEBPVP8 ')))).toBe('image/webp');
    expect(sniffImageType(new Uint8Array(Buffer.from('RIFF\0\0\0\0WAVEfmt ')))).toBeNull();
    expect(sniffImageType(new Uint8Array(0))).toBeNull();
  });
});
