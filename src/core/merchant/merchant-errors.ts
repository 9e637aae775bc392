// Typed failures of a merchant call. Every one carries the requestId when the merchant sent one, and
// none ever carries a credential: messages are built from codes and statuses, never from headers.
import { MERCHANT_ERROR, merchantErrorName, type MerchantErrorName } from '../../shared/merchant-error-codes';
import type { TransportFailure, TransportReason } from './http-port';

export abstract class MerchantError extends Error {
  abstract readonly kind: 'business' | 'transport' | 'protocol' | 'deferred';
  /**
   * The requestId of every attempt of the call that ended in this error, oldest first (interface v1 §7.5 "keep
   * requestId"): the sender fills it in before throwing, so a caller can store them all for support.
   */
  requestIds: readonly string[];
  /**
   * True when an earlier attempt of the same call ended without a known outcome (no answer after a
   * connection, a 5xx, a malformed answer): a write may then have been carried out although this final
   * error (a refusal, a wait) says nothing was done by the last attempt. Set by the sender.
   */
  earlierAttemptUncertain = false;
  constructor(
    message: string,
    readonly requestId: string | null,
  ) {
    super(message);
    this.requestIds = requestId === null ? [] : [requestId];
  }
}

/** The merchant answered with a business error (interface v1 §7): decided by `code`. */
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

/** Why the merchant refused our access (interface v1 §5, 7.2): each asks the buyer for a different remedy. */
export type AccessRefusal = 'keyInvalid' | 'suspended' | 'ipDenied' | 'forbidden';

/**
 * HTTP 401 or 403 (interface v1 §7.5: never retried automatically). `refusal` tells the cases apart: the key is
 * revoked or wrong (401001: a new key is needed), the account is suspended (403005: only GET /account
 * works until the merchant lifts it), this computer's address is not on the allow-list (403002), or a
 * 403 with a code we do not know. A MerchantApiError, so code that reads `code` keeps working.
 */
export class MerchantAccessError extends MerchantApiError {
  readonly refusal: AccessRefusal;
  constructor(
    httpStatus: number,
    code: number,
    requestId: string | null,
    /** True when this request was not sent at all: an earlier answer already refused this key. */
    readonly notSent = false,
  ) {
    super(httpStatus, code, requestId, null);
    this.name = 'MerchantAccessError';
    this.refusal = httpStatus === 401 ? 'keyInvalid' : code === MERCHANT_ERROR.CREDENTIAL_SUSPENDED ? 'suspended' : code === MERCHANT_ERROR.SOURCE_IP_DENIED ? 'ipDenied' : 'forbidden';
  }
}

/** Whether an HTTP status is an access refusal (interface v1 §7.5: 401 and 403 are never retried). */
export function isAccessStatus(httpStatus: number): boolean {
  return httpStatus === 401 || httpStatus === 403;
}

/**
 * The merchant said "not before T" (Retry-After on a 429 or 503) and T is further away than the caller
 * may wait: thrown at once instead of sleeping. Nothing was changed by the refused request; the same
 * call (same client reference, same body) may be sent from `notBeforeMs` on. `scope` is the quota
 * group held back, or `total` when the account's whole quota is.
 */
export class MerchantNotBeforeError extends MerchantError {
  readonly kind = 'deferred';
  constructor(
    readonly scope: string,
    /** Client-clock Unix milliseconds from which the request may be sent again. */
    readonly notBeforeMs: number,
    requestId: string | null,
  ) {
    super(`the merchant asked to wait: ${scope} requests may be sent again from ${new Date(notBeforeMs).toISOString()}${requestId ? ` [${requestId}]` : ''}`, requestId);
    this.name = 'MerchantNotBeforeError';
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
    /** Which transport failure it was (DNS, refused, TLS untrusted, …): the words the buyer is given. */
    readonly reason: TransportReason = failure === 'tls' ? 'tlsOther' : failure === 'connection' ? 'reset' : failure,
  ) {
    super(`merchant unreachable: ${message}${requestId ? ` [${requestId}]` : ''}`, requestId);
    this.name = 'MerchantTransportError';
    this.detail = message;
  }

  private readonly detail: string;

  /** The same failure for a call of which an earlier attempt may have reached the merchant. */
  maybeReached(): MerchantTransportError {
    return this.neverReached ? new MerchantTransportError(this.failure, this.detail, this.requestId, false, this.reason) : this;
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
