// The response envelope of interface v1 §2.3 and the list payload, generic over the `data` schema.
import { z } from 'zod';

/** Any envelope, success or error: decided by HTTP status and `code`, never by `message`. */
export const responseEnvelopeSchema = z.looseObject({
  code: z.int(),
  message: z.string(),
  data: z.unknown(),
  requestId: z.string(),
});

/** An error envelope (interface v1 §7.1): non-zero code, data null. */
export const errorEnvelopeSchema = z.looseObject({
  code: z.int().refine((code) => code !== 0, { message: 'an error envelope has a non-zero code' }),
  message: z.string(),
  data: z.null(),
  requestId: z.string(),
});

/** A success envelope whose `data` is checked by the endpoint's own schema. */
export function successEnvelopeSchema<T extends z.ZodType>(data: T) {
  return z.looseObject({
    code: z.literal(0),
    message: z.string(),
    data,
    requestId: z.string(),
  });
}

/** The list payload of interface v1 §2.3 (`data` of list endpoints). */
export function listPayloadSchema<T extends z.ZodType>(item: T) {
  return z.looseObject({
    list: z.array(item),
    total: z.int().nonnegative(),
    page: z.int().positive(),
    pageSize: z.int().positive(),
  });
}

/**
 * The request id of a body that may be malformed in every other way, so that a typed error can
 * still carry it, so a bad answer can still be traced with the merchant. Null when there is none to be found.
 */
export function findRequestId(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const value = 'requestId' in body ? body.requestId : undefined;
  return typeof value === 'string' && value.length > 0 ? value : null;
}
