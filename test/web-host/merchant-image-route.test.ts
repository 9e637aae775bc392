// The web host's merchant-image route: only a browser with a session may make the host fetch an
// image; the answer is core's image (typed by its bytes) or the refusal's status, never the
// merchant's own answer.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MerchantImageResult } from '../../src/core/images/merchant-image-fetcher';
import { merchantImageSrc } from '../../src/shared/merchant-image-route';
import { loadRendererFiles } from '../../src/web-host/renderer-files';
import { startWebHost, type WebHost } from '../../src/web-host/web-host-server';
import { fakeRendererDir, fakeService, openSession, quietLogger } from './web-host-kit';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

describe('web host merchant-image route', () => {
  let host: WebHost;
  let cookie: string;
  const images = vi.fn((url: string): Promise<MerchantImageResult> =>
    Promise.resolve(url === 'https://img.example/a.png' ? { ok: true, body: PNG, contentType: 'image/png' } : { ok: false, reason: 'too-large' }),
  );

  beforeEach(async () => {
    images.mockClear();
    const service = fakeService(() => ({ ok: false, error: { code: 'INVALID_INPUT', message: 'bad input' } })).service;
    host = await startWebHost({ service, renderer: loadRendererFiles(fakeRendererDir().dir), logger: quietLogger, port: 0, merchantImage: images });
    cookie = await openSession(host);
  });
  afterEach(async () => {
    await host.close();
  });

  it('serves core’s image to a browser with a session', async () => {
    const answer = await fetch(`${host.origin}${merchantImageSrc('https://img.example/a.png')}`, { headers: { cookie } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('image/png');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(new Uint8Array(await answer.arrayBuffer())).toEqual(PNG);
    expect(images).toHaveBeenCalledExactlyOnceWith('https://img.example/a.png');
  });

  it('passes a refusal on as its status', async () => {
    const answer = await fetch(`${host.origin}${merchantImageSrc('https://img.example/huge.png')}`, { headers: { cookie } });
    expect(answer.status).toBe(413);
    expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });

  it('fetches nothing for a caller without a session, with a stale one, or with another method', async () => {
    const src = `${host.origin}${merchantImageSrc('https://img.example/a.png')}`;
    expect((await fetch(src)).status).toBe(403);
    expect((await fetch(src, { headers: { cookie: `${cookie}x` } })).status).toBe(403);
    expect((await fetch(src, { method: 'POST', headers: { cookie } })).status).toBe(405);
    expect((await fetch(`${host.origin}/merchant-image`, { headers: { cookie } })).status).toBe(400);
    expect(images).not.toHaveBeenCalled();
  });
});
