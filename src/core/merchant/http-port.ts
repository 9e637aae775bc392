// The one way core talks HTTP to a merchant: a narrow port, so the request sender can be tested
// against scripted servers and the transport can trust a sandbox CA without touching global state.

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
  ) {
    super(message);
    this.name = 'TransportError';
  }
}
