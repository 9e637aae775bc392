// The checks a webhook request passes before its body is read (interface v1 §6.4.1): the path is the
// capability (404 otherwise, whatever the method, so a prober learns nothing), then POST only (405),
// then a JSON content type (415), then a declared length within the limit (413).
import type { IncomingHttpHeaders } from 'node:http';
import { pathMatches } from './callback-token';

export type RejectReason =
  | 'notFound'
  | 'methodNotAllowed'
  | 'unsupportedMediaType'
  | 'tooLarge'
  | 'badJson'
  | 'invalidEvent'
  | 'timeout'
  | 'storageFailed';

export interface Rejection {
  readonly status: number;
  readonly reason: RejectReason;
  readonly message: string;
}

export const REJECTIONS: Readonly<Record<RejectReason, Rejection>> = {
  notFound: { status: 404, reason: 'notFound', message: 'Not Found' },
  methodNotAllowed: { status: 405, reason: 'methodNotAllowed', message: 'Method Not Allowed' },
  unsupportedMediaType: { status: 415, reason: 'unsupportedMediaType', message: 'Unsupported Media Type' },
  tooLarge: { status: 413, reason: 'tooLarge', message: 'Payload Too Large' },
  badJson: { status: 400, reason: 'badJson', message: 'Bad Request: body is not JSON' },
  invalidEvent: { status: 400, reason: 'invalidEvent', message: 'Bad Request: invalid event' },
  timeout: { status: 408, reason: 'timeout', message: 'Request Timeout' },
  // The sender retries at 15 s and 30 s (interface v1 §6.4.5): better than an OK for an event not stored.
  storageFailed: { status: 503, reason: 'storageFailed', message: 'Service Unavailable' },
};

/** application/json or any +json type, with or without parameters (the sandbox adds charset). */
function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const type = (header.split(';')[0] ?? '').trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/** Pathname only; the query string carries nothing and is ignored. */
export function requestPathname(url: string | undefined): string {
  const raw = url ?? '';
  const end = raw.indexOf('?');
  return end === -1 ? raw : raw.slice(0, end);
}

export function checkRequestHead(
  head: { readonly method: string | undefined; readonly url: string | undefined; readonly headers: IncomingHttpHeaders },
  expectedPath: string,
  maxBodyBytes: number,
): Rejection | null {
  if (!pathMatches(requestPathname(head.url), expectedPath)) return REJECTIONS.notFound;
  if (head.method !== 'POST') return REJECTIONS.methodNotAllowed;
  if (!isJsonContentType(head.headers['content-type'])) return REJECTIONS.unsupportedMediaType;
  const declared = head.headers['content-length'];
  if (declared !== undefined && (!/^\d+$/.test(declared) || Number(declared) > maxBodyBytes)) return REJECTIONS.tooLarge;
  return null;
}
