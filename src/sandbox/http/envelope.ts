// Writes the response envelope of interface v1 §2.3 ({code, message, data, requestId}) with the request id
// also in a header, so that support can correlate a log line with a response.
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { ApiError } from './api-error';

export function newRequestId(): string {
  return `req_${randomBytes(12).toString('hex')}`;
}

export function writeEnvelope(
  res: ServerResponse,
  requestId: string,
  status: number,
  envelope: { code: number; message: string; data: unknown },
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify({ ...envelope, requestId });
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'x-request-id': requestId,
    ...headers,
  });
  res.end(body);
}

export function writeSuccess(res: ServerResponse, requestId: string, data: unknown, headers: Record<string, string> = {}): void {
  writeEnvelope(res, requestId, 200, { code: 0, message: 'success', data }, headers);
}

export function writeApiError(res: ServerResponse, requestId: string, error: ApiError, headers: Record<string, string> = {}): void {
  writeEnvelope(res, requestId, error.status, { code: error.code, message: error.message, data: null }, { ...headers, ...error.headers });
}

/** The list payload of interface v1 §2.3 over an already filtered and ordered array. */
export interface ListPayload<T> {
  list: T[];
  total: number;
  page: number;
  pageSize: number;
}

export function paginate<T, R>(items: readonly T[], page: number, pageSize: number, map: (item: T) => R): ListPayload<R> {
  const start = (page - 1) * pageSize;
  return { list: items.slice(start, start + pageSize).map(map), total: items.length, page, pageSize };
}
