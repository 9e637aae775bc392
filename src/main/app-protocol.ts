// The app:// protocol the built renderer is loaded from, instead of file://. A file:// page has the
// opaque origin "null", sees no response headers (so no CSP header) and, with the file-protocol fuse
// on, may read any local file; an app:// page has one origin, gets its CSP as a header from here, and
// can reach only the files under the built renderer folder and the merchant images core serves.
// The handler is a plain Request → Response function so tests drive it without Electron.
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { MERCHANT_IMAGE_PATH, MERCHANT_IMAGE_URL_PARAM } from '../shared/merchant-image-route';
import { MERCHANT_IMAGE_STATUS, type MerchantImageResult } from '../core';
import { RENDERER_CONTENT_TYPES } from '../shared/renderer-content-types';

export const APP_SCHEME = 'app';
export const APP_HOST = 'procure-desk';
export const APP_INDEX_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/**
 * Registered before the app is ready. standard: relative URLs and a real origin; secure: treated
 * like https (no mixed-content downgrade); supportFetchAPI: module scripts and fetch() may load it.
 */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true },
} as const;


export interface AppProtocolOptions {
  /** The built renderer folder (out/renderer). */
  readonly rendererRoot: string;
  /** The page's policy, sent with every answer (the protocol's answers carry real headers). */
  readonly contentSecurityPolicy: string;
  /** Fetches a merchant image for the page; absent: the image route answers 404. */
  readonly merchantImage?: (url: string) => Promise<MerchantImageResult>;
}

/**
 * The URL path decoded into folder segments, or null for anything that could leave the folder:
 * `..` or `.` segments (also percent-encoded ones, which a non-special scheme's parser keeps),
 * back slashes, NUL, or an undecodable escape.
 */
export function rendererSegments(pathname: string): string[] | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (!decoded.startsWith('/') || decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.slice(1).split('/');
  if (segments.some((segment) => segment === '..' || segment === '.')) return null;
  if (segments.length === 1 && segments[0] === '') return ['index.html'];
  if (segments.some((segment) => segment === '')) return null;
  return segments;
}

export function createAppProtocolHandler(options: AppProtocolOptions): (request: Request) => Promise<Response> {
  const baseHeaders = {
    'Content-Security-Policy': options.contentSecurityPolicy,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-cache',
  };
  const answer = (status: number, body: Uint8Array | string | null, contentType = 'text/plain; charset=utf-8'): Response =>
    new Response(body, { status, headers: { ...baseHeaders, 'Content-Type': contentType } });
  let realRoot: Promise<string> | null = null;

  const serveFile = async (segments: string[]): Promise<Response> => {
    realRoot ??= realpath(options.rendererRoot);
    const root = await realRoot;
    const candidate = resolve(root, ...segments);
    let real: string;
    try {
      // The real path, so a symlink placed in the folder cannot point outside it.
      real = await realpath(candidate);
      if (!real.startsWith(root + sep) || !(await stat(real)).isFile()) return answer(404, 'not found');
    } catch {
      return answer(404, 'not found');
    }
    const contentType = RENDERER_CONTENT_TYPES[extname(real).toLowerCase()];
    if (contentType === undefined) return answer(404, 'not found');
    return answer(200, new Uint8Array(await readFile(real)), contentType);
  };

  const serveImage = async (url: URL): Promise<Response> => {
    const target = url.searchParams.get(MERCHANT_IMAGE_URL_PARAM);
    if (options.merchantImage === undefined) return answer(404, 'not found');
    if (target === null) return answer(400, 'no image address');
    const image = await options.merchantImage(target);
    if (!image.ok) return answer(MERCHANT_IMAGE_STATUS[image.reason], 'image not available');
    return new Response(image.body, { status: 200, headers: { ...baseHeaders, 'Content-Type': image.contentType, 'Cache-Control': 'private, max-age=3600' } });
  };

  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return answer(405, 'method not allowed');
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return answer(400, 'bad address');
    }
    if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return answer(404, 'not found');
    if (url.pathname === MERCHANT_IMAGE_PATH) return serveImage(url);
    const segments = rendererSegments(url.pathname);
    if (segments === null) return answer(400, 'bad path');
    return serveFile(segments);
  };
}
