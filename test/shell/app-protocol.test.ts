// The app:// protocol over a real folder on disk: only files under the built renderer come back,
// whatever the path says (dot segments, their percent-encoded forms, back slashes, symlinks out of
// the folder), each answer carries the page's policy, and the scheme is registered privileged.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APP_INDEX_URL, APP_SCHEME_PRIVILEGES, createAppProtocolHandler, rendererSegments } from '../../src/main/app-protocol';
import type { MerchantImageResult } from '../../src/core/images/merchant-image-fetcher';
import { CONTENT_SECURITY_POLICY } from '../../src/main/security';
import { merchantImageSrc } from '../../src/shared/merchant-image-route';

let dir: string;
let root: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pd-app-protocol-'));
  root = join(dir, 'renderer');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Procure Desk</title>');
  writeFileSync(join(root, 'assets/index-abc.js'), 'console.log(1)');
  writeFileSync(join(root, 'assets/data.bin'), 'raw');
  // Beside the renderer folder, and a folder whose name starts like it: both must stay unreachable.
  writeFileSync(join(dir, 'secret.txt'), 'SECRET-OUTSIDE');
  mkdirSync(join(dir, 'renderer-evil'));
  writeFileSync(join(dir, 'renderer-evil/x.js'), 'SECRET-SIBLING');
  symlinkSync(join(dir, 'secret.txt'), join(root, 'assets/link.txt'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const get = async (handler: (request: Request) => Promise<Response>, url: string, method = 'GET') => {
  const response = await handler(new Request(url, { method }));
  return { status: response.status, body: await response.text(), headers: response.headers };
};

describe('app:// protocol', () => {
  it('is registered standard, secure and fetch-capable', () => {
    expect(APP_SCHEME_PRIVILEGES).toEqual({ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } });
    expect(APP_INDEX_URL).toBe('app://procure-desk/index.html');
  });

  it('serves the built renderer with its type, nosniff and the page’s policy as a header', async () => {
    const handler = createAppProtocolHandler({ rendererRoot: root, contentSecurityPolicy: CONTENT_SECURITY_POLICY });
    const index = await get(handler, APP_INDEX_URL);
    expect(index).toMatchObject({ status: 200, body: '<!doctype html><title>Procure Desk</title>' });
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await get(handler, 'app://procure-desk/')).body).toContain('Procure Desk');
    const script = await get(handler, 'app://procure-desk/assets/index-abc.js?v=1#x');
    expect(script).toMatchObject({ status: 200, body: 'console.log(1)' });
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it('never answers with a file outside the folder, however the path is written', async () => {
    const handler = createAppProtocolHandler({ rendererRoot: root, contentSecurityPolicy: CONTENT_SECURITY_POLICY });
    const attempts = [
      'app://procure-desk/../secret.txt',
      'app://procure-desk/assets/../../secret.txt',
      'app://procure-desk/%2e%2e/secret.txt',
      'app://procure-desk/assets/%2E%2E/%2E%2E/secret.txt',
      'app://procure-desk/..%2fsecret.txt',
      'app://procure-desk/..%2Fsecret.txt',
      'app://procure-desk/..%5csecret.txt',
      'app://procure-desk/assets%5c..%5c..%5csecret.txt',
      'app://procure-desk/%2e%2e%2frenderer-evil/x.js',
      'app://procure-desk/../renderer-evil/x.js',
      `app://procure-desk/${encodeURIComponent(join(dir, 'secret.txt'))}`,
      'app://procure-desk//etc/passwd',
      'app://procure-desk/assets/link.txt',
      'app://procure-desk/index.html%00.js',
      'app://procure-desk/%E0%A4%A',
      'app://procure-desk/assets',
      'app://procure-desk/assets/data.bin',
      'app://procure-desk/missing.js',
    ];
    for (const url of attempts) {
      const answer = await get(handler, url);
      expect(answer.status, url).toBeGreaterThanOrEqual(400);
      expect(answer.body, url).not.toMatch(/SECRET|root:/);
    }
  });

  it('answers only its own host, and only GET and HEAD', async () => {
    const handler = createAppProtocolHandler({ rendererRoot: root, contentSecurityPolicy: CONTENT_SECURITY_POLICY });
    expect((await get(handler, 'app://other/index.html')).status).toBe(404);
    expect((await get(handler, APP_INDEX_URL, 'POST')).status).toBe(405);
    expect((await get(handler, APP_INDEX_URL, 'HEAD')).status).toBe(200);
  });

  it('reads dot segments and their encodings as a way out', () => {
    expect(rendererSegments('/')).toEqual(['index.html']);
    expect(rendererSegments('/assets/a.js')).toEqual(['assets', 'a.js']);
    expect(rendererSegments('/%2e%2e/x')).toBeNull();
    expect(rendererSegments('/a/%2E/b')).toBeNull();
    expect(rendererSegments('/a//b')).toBeNull();
    expect(rendererSegments('/a%5cb')).toBeNull();
    expect(rendererSegments('/%zz')).toBeNull();
  });

  it('serves merchant images only through core’s fetcher, passing its refusals on', async () => {
    const merchantImage = vi.fn((url: string): Promise<MerchantImageResult> =>
      Promise.resolve(url === 'https://img.example/a.png' ? { ok: true, body: new Uint8Array([0x89, 0x50, 0x4e, 0x47]), contentType: 'image/png' } : { ok: false, reason: 'not-an-image' }),
    );
    const handler = createAppProtocolHandler({ rendererRoot: root, contentSecurityPolicy: CONTENT_SECURITY_POLICY, merchantImage });
    const image = await handler(new Request(`app://procure-desk${merchantImageSrc('https://img.example/a.png')}`));
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
    expect((await get(handler, `app://procure-desk${merchantImageSrc('https://img.example/page.html')}`)).status).toBe(415);
    expect((await get(handler, 'app://procure-desk/merchant-image')).status).toBe(400);
    expect(merchantImage.mock.calls.map(([url]) => url)).toEqual(['https://img.example/a.png', 'https://img.example/page.html']);
    const without = createAppProtocolHandler({ rendererRoot: root, contentSecurityPolicy: CONTENT_SECURITY_POLICY });
    expect((await get(without, `app://procure-desk${merchantImageSrc('https://img.example/a.png')}`)).status).toBe(404);
  });
});
