// Every answer across the process boundary is a value or a typed error (as Signal-Desktop wraps its
// IPC handlers): nothing is thrown across it, and an error carries a stable code the UI can explain
// in words, plus the merchant's code and requestId when the merchant refused.
import { z } from 'zod';
import { TRANSPORT_REASONS } from '../transport-reasons';

export const IPC_ERROR_CODES = [
  'INVALID_INPUT',
  'NOT_CONNECTED',
  'MERCHANT_REFUSED',
  'MERCHANT_UNREACHABLE',
  'MERCHANT_MALFORMED',
  /** The connect test reached the address, but it does not answer as a Merchant OpenAPI v1 (wrong path, a web site). */
  'NOT_OPENAPI',
  'ACTION_NOT_ALLOWED',
  'TEMPLATE_MISSING',
  'NOT_FOUND',
  /** A reveal, copy or export touches cards of a refunded or cancelled order without the buyer's acknowledgement. */
  'REFUND_ACK_REQUIRED',
  /** The vault's data key is missing from the secret store: cards cannot be opened or stored. */
  'DATA_KEY_MISSING',
  'FORBIDDEN_SENDER',
  /** The core process ended while this call was in it: the outcome is unknown (look before trying again). */
  'CORE_RESTARTED',
  /** The core process is not running and did not come back within the wait. */
  'CORE_UNAVAILABLE',
  'INTERNAL',
] as const;
export type IpcErrorCode = (typeof IPC_ERROR_CODES)[number];

export const ipcErrorSchema = z.object({
  code: z.enum(IPC_ERROR_CODES),
  message: z.string(),
  /** The merchant's business code (interface v1 §7) when it refused. */
  merchantCode: z.number().int().nullable().optional(),
  requestId: z.string().nullable().optional(),
  /** MERCHANT_UNREACHABLE: which transport failure it was (DNS, refused, certificate, …). */
  transportReason: z.enum(TRANSPORT_REASONS).optional(),
  /** Field-level problems of INVALID_INPUT, e.g. a purchase field. */
  fields: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type IpcError = z.infer<typeof ipcErrorSchema>;

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

export function ipcResultSchema<T extends z.ZodType>(value: T) {
  return z.union([z.object({ ok: z.literal(true), value }), z.object({ ok: z.literal(false), error: ipcErrorSchema })]);
}

/** Raised in the renderer when a call answers `{ ok: false }`. */
export class IpcCallError extends Error {
  override readonly name = 'IpcCallError';
  constructor(readonly error: IpcError) {
    super(error.message);
  }
}
