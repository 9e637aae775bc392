// Reads a request body with a hard size limit; the interface only ever takes small JSON objects.
import type { IncomingMessage } from 'node:http';
import { ApiError } from './api-error';

export const MAX_BODY_BYTES = 1024 * 1024;

export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer | 'tooLarge'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    // Keep draining (without storing) so that the client gets our answer instead of a reset.
    if (size > limit) continue;
    chunks.push(buffer);
  }
  return size > limit ? 'tooLarge' : Buffer.concat(chunks);
}

export type JsonObject = Record<string, unknown>;

/**
 * Parses a POST body: empty means `{}`; anything but a JSON object is INVALID_ARGUMENT. The body is
 * read as JSON whatever its Content-Type says (contract §2.1): clients are to send application/json,
 * but a missing or default type (fetch's text/plain, curl's form type) is not a reason to refuse
 * an otherwise valid request, as with most merchants' gateways.
 */
export function parseJsonObject(raw: Buffer | 'tooLarge'): JsonObject {
  if (raw === 'tooLarge') throw new ApiError('INVALID_ARGUMENT', `request body exceeds ${MAX_BODY_BYTES} bytes`);
  if (raw.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ApiError('INVALID_ARGUMENT', 'request body is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ApiError('INVALID_ARGUMENT', 'request body must be a JSON object');
  }
  return parsed as JsonObject;
}
