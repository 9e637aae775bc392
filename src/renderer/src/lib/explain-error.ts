// Every failure the buyer can meet, reduced to one meaning the screens explain in words (what
// happened, what to do). The merchant's business code decides (interface v1 §7), never its message; an
// order refused after it was queued carries the same code as text in `lastErrorCode`.
import { IpcCallError, type IpcError } from '../../../shared/ipc/ipc-result';
import { merchantProblemOf, type MerchantProblem } from '../../../shared/merchant-error-words';

export type Problem =
  | MerchantProblem
  | 'offline'
  | 'notConnected'
  | 'invalidInput'
  | 'templateMissing'
  | 'notFound'
  | 'refundAckRequired'
  | 'malformed'
  | 'dataKeyMissing'
  | 'coreRestarted'
  | 'coreUnavailable';

export interface Explained {
  readonly problem: Problem;
  readonly merchantCode: number | null;
  readonly requestId: string | null;
  /** The technical message, for a "details" line only. */
  readonly detail: string;
  readonly fields: readonly { readonly path: string; readonly message: string }[];
}

/** What a merchant code means (shared/merchant-error-words.ts, the one home of that meaning and its words). */
export const problemOfMerchantCode: (code: number) => Problem = merchantProblemOf;

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
    case 'NOT_OPENAPI':
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
  // Parked before sending: the variant shows a new template revision (contract §7.10).
  if (code === 'SCHEMA_CHANGED') return 'templateChanged';
  // Kept offline without its form, which then asked for more: TemplateWaitPanel says so; nothing failed.
  if (code === 'TEMPLATE_INPUT') return null;
  return 'unknown';
}
