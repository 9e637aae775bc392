// The one way core talks HTTP to a merchant: a narrow port, so the request sender can be tested
// against scripted servers and the transport can trust a sandbox CA without touching global state.
import type { TransportReason } from '../../shared/transport-reasons';

export type { TransportReason } from '../../shared/transport-reasons';

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Real milliseconds for the whole exchange, connect to last byte. */
  timeoutMs: number;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type HttpPort = (request: HttpRequest) => Promise<HttpResponse>;

export type TransportFailure = 'timeout' | 'connection' | 'tls' | 'tooLarge' | 'insecure';

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA']);
const UNREACHABLE_CODES = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN', 'EADDRNOTAVAIL']);
const TLS_UNTRUSTED_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_REVOKED',
]);
const TLS_DATE_CODES = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);

/** The reason of a socket or TLS error code (Node's `error.code`). */
export function transportReasonOf(code: string): TransportReason {
  if (DNS_CODES.has(code)) return 'dns';
  if (code === 'ECONNREFUSED') return 'refused';
  if (UNREACHABLE_CODES.has(code)) return 'unreachable';
  if (code === 'ETIMEDOUT') return 'timeout';
  if (TLS_UNTRUSTED_CODES.has(code)) return 'tlsUntrusted';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return 'tlsHostname';
  if (TLS_DATE_CODES.has(code)) return 'tlsExpired';
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|ERR_SSL|SSL/.test(code)) return 'tlsOther';
  return 'reset';
}

/** The coarse failure a reason belongs to. */
export function failureOfReason(reason: TransportReason): TransportFailure {
  if (reason === 'timeout' || reason === 'insecure' || reason === 'tooLarge') return reason;
  return reason.startsWith('tls') ? 'tls' : 'connection';
}

/**
 * No complete HTTP answer: for a request that changes something, its outcome is unknown, unless
 * `neverConnected` says no connection to the merchant was ever made for it (refused, no route, no
 * such host): then not one byte of the request reached the merchant.
 */
export class TransportError extends Error {
  constructor(
    readonly failure: TransportFailure,
    message: string,
    /** X-Request-Id of an answer that started but never completed (cut off, too large, too slow). */
    readonly requestId: string | null = null,
    readonly neverConnected = false,
    /** The finer reason; defaults to the failure's plainest one. */
    readonly reason: TransportReason = failure === 'tls' ? 'tlsOther' : failure === 'connection' ? 'reset' : failure,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}
