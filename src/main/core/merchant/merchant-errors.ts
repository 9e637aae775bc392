// Typed failures of a merchant call. Every one carries the requestId when the merchant sent one, and
// none ever carries a credential: messages are built from codes and statuses, never from headers.
import { merchantErrorName, type MerchantErrorName } from '../../../shared/merchant-error-codes';
import type { TransportFailure } from './http-port';

export abstract class MerchantError extends Error {
  abstract readonly kind: 'business' | 'transport' | 'protocol';
  constructor(
    message: string,
    readonly requestId: string | null,
  ) {
    super(message);
  }
}

/** The merchant answered with a business error (spec 7): decided by `code`. */
export class MerchantApiError extends MerchantError {
  readonly kind = 'business';
  readonly errorName: MerchantErrorName | 'UNKNOWN_ERROR';
  constructor(
    readonly httpStatus: number,
    readonly code: number,
    requestId: string | null,
    /** From Retry-After, in milliseconds; null when absent. */
    readonly retryAfterMs: number | null,
  ) {
    const name = merchantErrorName(code);
    super(`merchant error ${code} ${name} (HTTP ${httpStatus})${requestId ? ` [${requestId}]` : ''}`, requestId);
    this.name = 'MerchantApiError';
    this.errorName = name;
  }
}

/**
 * No complete answer (timeout, connection, TLS): a change may or may not have happened, unless
 * `neverReached`: no attempt of the call ever had a connection to the merchant, so it received nothing.
 */
export class MerchantTransportError extends MerchantError {
  readonly kind = 'transport';
  constructor(
    readonly failure: TransportFailure,
    message: string,
    /** Set when the answer's headers arrived before it failed, so support can find the request. */
    requestId: string | null = null,
    readonly neverReached = false,
  ) {
    super(`merchant unreachable: ${message}${requestId ? ` [${requestId}]` : ''}`, requestId);
    this.name = 'MerchantTransportError';
    this.detail = message;
  }

  private readonly detail: string;

  /** The same failure for a call of which an earlier attempt may have reached the merchant. */
  maybeReached(): MerchantTransportError {
    return this.neverReached ? new MerchantTransportError(this.failure, this.detail, this.requestId, false) : this;
  }
}

/** An answer that is not the interface: HTML error page, truncated or wrongly typed JSON. */
export class MerchantProtocolError extends MerchantError {
  readonly kind = 'protocol';
  constructor(
    readonly httpStatus: number,
    detail: string,
    requestId: string | null,
  ) {
    super(`malformed merchant response (HTTP ${httpStatus}): ${detail}${requestId ? ` [${requestId}]` : ''}`, requestId);
    this.name = 'MerchantProtocolError';
  }
}
