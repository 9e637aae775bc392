// Every failure the buyer can meet, reduced to one meaning the screens explain in words (what
// happened, what to do). The merchant's business code decides (spec 7), never its message; an
// order refused after it was queued carries the same code as text in `lastErrorCode`.
import { IpcCallError, type IpcError } from '../../../shared/ipc/ipc-result';

export type Problem =
  | 'balance'
  | 'inventory'
  | 'templateChanged'
  | 'unavailable'
  | 'unitsNotAllowed'
  | 'purchaseInputInvalid'
  | 'keyInvalid'
  | 'suspended'
  | 'ipDenied'
  | 'rateLimited'
  | 'attemptsLimited'
  | 'actionNotAllowed'
  | 'merchantTrouble'
  | 'offline'
  | 'notConnected'
  | 'invalidInput'
  | 'templateMissing'
  | 'notFound'
  | 'refundAckRequired'
  | 'malformed'
  | 'dataKeyMissing'
  | 'coreRestarted'
  | 'coreUnavailable'
  | 'unknown';

/** Problems about the connection as a whole: shown in the banner on every screen, not just one form. */
export const GLOBAL_PROBLEMS: ReadonlySet<Problem> = new Set<Problem>(['keyInvalid', 'suspended', 'ipDenied', 'rateLimited', 'offline', 'notConnected']);

export interface Explained {
  readonly problem: Problem;
  readonly merchantCode: number | null;
  readonly requestId: string | null;
  /** The technical message, for a "details" line only. */
  readonly detail: string;
  readonly fields: readonly { readonly path: string; readonly message: string }[];
}

export function problemOfMerchantCode(code: number): Problem {
  switch (code) {
    case 422103:
      return 'balance';
    case 422102:
      return 'inventory';
    case 409101:
      return 'templateChanged';
    case 422101:
      return 'unavailable';
    case 422110:
      return 'unitsNotAllowed';
    case 422111:
      return 'purchaseInputInvalid';
    case 401001:
      return 'keyInvalid';
    case 403005:
      return 'suspended';
    case 403002:
      return 'ipDenied';
    case 429001:
      return 'rateLimited';
    case 429110:
    case 429111:
    case 429112:
      return 'attemptsLimited';
    case 409102:
    case 409103:
    case 409104:
    case 422120:
      return 'actionNotAllowed';
    case 500001:
    case 503001:
      return 'merchantTrouble';
    default:
      // Any other 429 is still "slow down"; other unknown codes stay unknown, shown with their number.
      return Math.floor(code / 1000) === 429 ? 'rateLimited' : 'unknown';
  }
}

function problemOfIpcError(error: IpcError): Problem {
  if (typeof error.merchantCode === 'number') return problemOfMerchantCode(error.merchantCode);
  switch (error.code) {
    case 'MERCHANT_UNREACHABLE':
      return 'offline';
    case 'NOT_CONNECTED':
      return 'notConnected';
    case 'INVALID_INPUT':
      return 'invalidInput';
    case 'ACTION_NOT_ALLOWED':
      return 'actionNotAllowed';
    case 'TEMPLATE_MISSING':
      return 'templateMissing';
    case 'NOT_FOUND':
      return 'notFound';
    case 'REFUND_ACK_REQUIRED':
      return 'refundAckRequired';
    case 'MERCHANT_MALFORMED':
      return 'malformed';
    case 'DATA_KEY_MISSING':
      return 'dataKeyMissing';
    case 'CORE_RESTARTED':
      return 'coreRestarted';
    case 'CORE_UNAVAILABLE':
      return 'coreUnavailable';
    case 'MERCHANT_REFUSED':
    case 'FORBIDDEN_SENDER':
    case 'INTERNAL':
      return 'unknown';
  }
}

/** Anything a bridge call threw → its meaning. */
export function explainError(error: unknown): Explained {
  if (error instanceof IpcCallError) {
    return {
      problem: problemOfIpcError(error.error),
      merchantCode: error.error.merchantCode ?? null,
      requestId: error.error.requestId ?? null,
      detail: error.error.message,
      fields: error.error.fields ?? [],
    };
  }
  const detail = error instanceof Error ? error.message : String(error);
  return { problem: 'unknown', merchantCode: null, requestId: null, detail, fields: [] };
}

/** An order's `lastErrorCode` (the merchant code as text, or one of ours) → its meaning, or null. */
export function problemOfLastErrorCode(code: string | null): Problem | null {
  if (code === null || code === '') return null;
  if (/^\d{6}$/.test(code)) return problemOfMerchantCode(Number(code));
  if (code === 'MERCHANT_UNREACHABLE') return 'offline';
  return 'unknown';
}
