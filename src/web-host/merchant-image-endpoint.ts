// The web host's merchant-image route: the page's only way to show a product, brand or after-sales
// image (its img-src is 'self'). Only a browser holding a session may use it, so no other local
// process or web page can make the host fetch addresses for it; core's fetcher applies the limits.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MERCHANT_IMAGE_URL_PARAM } from '../shared/merchant-image-route';
import { MERCHANT_IMAGE_STATUS, type MerchantImageResult } from '../core';
import type { BrowserSessions } from './browser-sessions';
import { COMMON_HEADERS } from './web-page-security';

export type MerchantImageSource = (url: string) => Promise<MerchantImageResult>;

function refuse(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { ...COMMON_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(`${text}\n`);
}

export function serveMerchantImage(request: IncomingMessage, response: ServerResponse, sessions: BrowserSessions | null, images: MerchantImageSource | undefined): void {
  if (request.method !== 'GET') {
    refuse(response, 405, 'method not allowed');
    return;
  }
  if (sessions === null || !sessions.hasSession(request.headers.cookie)) {
    refuse(response, 403, 'no session');
    return;
  }
  const target = new URL(request.url ?? '/', 'http://host').searchParams.get(MERCHANT_IMAGE_URL_PARAM);
  if (images === undefined || target === null) {
    refuse(response, images === undefined ? 404 : 400, 'no image');
    return;
  }
  images(target)
    .then((image) => {
      if (!image.ok) {
        refuse(response, MERCHANT_IMAGE_STATUS[image.reason], 'image not available');
        return;
      }
      response.writeHead(200, { ...COMMON_HEADERS, 'Content-Type': image.contentType, 'Content-Length': String(image.body.byteLength), 'Cache-Control': 'private, max-age=3600' });
      response.end(image.body);
    })
    .catch(() => refuse(response, 502, 'image not available'));
}
