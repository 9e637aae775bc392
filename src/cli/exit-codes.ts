// Exit codes of the CLI (README "The command line"), and the mapping of failures onto them.
import { UsageError } from './cli-args';
import { ConnectionInputError } from '../core';
import { NotConnectedError } from '../core';
import { MerchantApiError, MerchantNotBeforeError, MerchantProtocolError, MerchantTransportError } from '../core';
import { IntentStateError, PriceUnknownError, PurchaseValidationError, TemplateNotSupportedError } from '../core';
import { AftersaleNotFoundError, CaseActionNotAllowedError, CaseOpenPendingError, CaseValidationError } from '../core';
import { CatalogPagingError, ReconcilePagingError, ReconcileRangeError } from '../core';
import { LastProfileError, ProfileBusyError, ProfileCardsNotExportedError, ProfileNameError, ProfileNotFoundError } from '../core';
import { CardDecryptionError, CardNotFoundError, DataKeyMissingError, ExportInputError, RefundedCardsError, SelectionError } from '../core';

/**
 * 4 (network) also says the merchant's answers did not agree (isMerchantInconsistency): a listing that
 * changed while paged, wherever it is met (`sync`, `reconcile`), or an answer that is not the interface.
 * 7 (merchantFailing): the merchant answered an order 500 MAX_SERVER_FAILURES times (contract §7.12);
 * it is kept, nothing more is sent until `order retry REF`.
 * 6 (differences): `reconcile` ran to the end and found something that differs, or a balance it could
 * not check (not an error; its first line says which).
 * 5: cards of an order the merchant took money back for (refunded, cancelled, partly refunded) were
 * asked for without the acknowledgement the app asks for too (--acknowledge-refunded / --include-refunded).
 */
export const EXIT = { ok: 0, failure: 1, usage: 2, business: 3, network: 4, refundAck: 5, differences: 6, merchantFailing: 7 } as const;

export interface Failure {
  code: number;
  message: string;
}

/** Wrong input or a reference this machine does not know: the command line must change. */
function isUsage(error: unknown): error is Error {
  return (
    error instanceof UsageError ||
    error instanceof ConnectionInputError ||
    error instanceof NotConnectedError ||
    error instanceof PurchaseValidationError ||
    error instanceof IntentStateError ||
    error instanceof PriceUnknownError ||
    error instanceof ExportInputError ||
    error instanceof SelectionError ||
    error instanceof CardNotFoundError ||
    error instanceof CaseValidationError ||
    error instanceof AftersaleNotFoundError ||
    // Profiles: an unknown or taken name, the last profile, cards never exported without --discard-unexported-cards.
    error instanceof ProfileNotFoundError ||
    error instanceof ProfileNameError ||
    error instanceof LastProfileError ||
    error instanceof ProfileCardsNotExportedError
  );
}

/**
 * The merchant's answers do not agree with each other or with the interface (paging anomalies of any
 * listing, a malformed answer): one code wherever it is met, like an outage, since only the merchant
 * can mend it and a later run may succeed.
 */
function isMerchantInconsistency(error: unknown): error is Error {
  return error instanceof CatalogPagingError || error instanceof ReconcilePagingError || error instanceof MerchantProtocolError;
}

/** What to print and which code to exit with; messages never carry a credential (see redaction). */
export function describeFailure(error: unknown): Failure {
  if (isUsage(error)) return { code: EXIT.usage, message: error.message };
  if (error instanceof RefundedCardsError) return { code: EXIT.refundAck, message: error.message };
  if (error instanceof ReconcileRangeError) return { code: EXIT.usage, message: error.message };
  if (isMerchantInconsistency(error)) return { code: EXIT.network, message: error.message };
  // The profile's open work (orders not finished, refunds open) waits on the merchant or the buyer, as an order does.
  if (error instanceof ProfileBusyError) return { code: EXIT.business, message: error.message };
  if (error instanceof TemplateNotSupportedError) return { code: EXIT.business, message: error.message };
  if (error instanceof CaseActionNotAllowedError) {
    const merchant = error.merchant === null ? '' : ` (${error.merchant.code}${error.merchant.requestId ? `, requestId ${error.merchant.requestId}` : ''})`;
    return { code: EXIT.business, message: `${error.message}${merchant}` };
  }
  if (error instanceof MerchantApiError) return { code: EXIT.business, message: `${error.code} ${error.errorName}${error.requestId ? ` (requestId ${error.requestId})` : ''}` };
  // The merchant asked to wait longer than a command blocks: it says until when.
  if (error instanceof MerchantNotBeforeError) return { code: EXIT.network, message: error.message };
  if (error instanceof MerchantTransportError || error instanceof CaseOpenPendingError) return { code: EXIT.network, message: error.message };
  if (error instanceof DataKeyMissingError || (error instanceof CardDecryptionError && error.keyMissing)) {
    return { code: EXIT.failure, message: 'the key that unlocks the stored cards is missing from the secret store' };
  }
  return { code: EXIT.failure, message: error instanceof Error ? error.message : String(error) };
}
