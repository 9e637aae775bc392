// Why a connect test (the connect form, a new CA in Settings) failed, in the terms the buyer can act
// on: which part of the way to the merchant broke (name, port, certificate, http), what the merchant
// said (key, address allow-list, suspension), or that the address is not the interface at all. Never
// "offline": nothing was ever connected, so nothing is queued or browsable yet.
import { isConnectionInputProblem, type ConnectionInputProblem } from '../../../shared/connection-input';
import { IpcCallError } from '../../../shared/ipc/ipc-result';
import { MERCHANT_ERROR } from '../../../shared/merchant-error-codes';
import type { TransportReason } from '../../../shared/transport-reasons';

export type ConnectFailureKind =
  | Exclude<TransportReason, 'insecure'>
  /** http:// (the form's check, core's, or the transport's): refused before sending. */
  | 'insecure'
  /** Another field problem the form words itself (see `input`). */
  | 'input'
  | 'keyInvalid'
  | 'ipDenied'
  | 'suspended'
  | 'rateLimited'
  | 'merchantTrouble'
  /** The address answered, but not as a Merchant OpenAPI v1 (wrong path, a web site). */
  | 'notOpenApi'
  /** The merchant's answer could not be read (a gateway's error page, a broken answer). */
  | 'malformed'
  /** Another account's open orders or cases keep the current merchant (core/connection/merchant-switch.ts). */
  | 'switchRefused';

export interface ConnectFailure {
  readonly kind: ConnectFailureKind;
  /** The field problem of kind `input` (or `insecure` from the form's check). */
  readonly input: ConnectionInputProblem | null;
  readonly merchantCode: number | null;
  readonly requestId: string | null;
}

function inputProblemOf(error: IpcCallError): ConnectionInputProblem | null {
  for (const field of error.error.fields ?? []) if (isConnectionInputProblem(field.message)) return field.message;
  return null;
}

function kindOfMerchantCode(code: number): ConnectFailureKind | null {
  switch (code) {
    case MERCHANT_ERROR.INVALID_CREDENTIAL:
      return 'keyInvalid';
    case MERCHANT_ERROR.SOURCE_IP_DENIED:
      return 'ipDenied';
    case MERCHANT_ERROR.CREDENTIAL_SUSPENDED:
      return 'suspended';
    case MERCHANT_ERROR.INTERNAL_ERROR:
    case MERCHANT_ERROR.TEMPORARILY_UNAVAILABLE:
      return 'merchantTrouble';
    default:
      return Math.floor(code / 1000) === 429 ? 'rateLimited' : null;
  }
}

/** The failure of a connect test, or null when it is none of these (the general explanation applies). */
export function connectFailureOf(error: unknown): ConnectFailure | null {
  if (!(error instanceof IpcCallError)) return null;
  const { code, merchantCode, requestId, transportReason } = error.error;
  const base = { merchantCode: merchantCode ?? null, requestId: requestId ?? null, input: null };
  if (typeof merchantCode === 'number') {
    const kind = kindOfMerchantCode(merchantCode);
    return kind === null ? null : { ...base, kind };
  }
  switch (code) {
    case 'MERCHANT_UNREACHABLE':
      // Every transport failure carries its reason; one without is still "could not reach it", said plainly.
      return { ...base, kind: transportReason ?? 'unreachable' };
    case 'NOT_OPENAPI':
      return { ...base, kind: 'notOpenApi' };
    case 'MERCHANT_MALFORMED':
      return { ...base, kind: 'malformed' };
    case 'ACTION_NOT_ALLOWED':
      return { ...base, kind: 'switchRefused' };
    case 'INVALID_INPUT': {
      const input = inputProblemOf(error);
      if (input === null) return null;
      return { ...base, kind: input === 'addressInsecure' ? 'insecure' : 'input', input };
    }
    default:
      return null;
  }
}
