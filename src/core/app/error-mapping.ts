// Core and merchant failures as the contract's IpcError: a stable code the UI explains in words, the
// merchant's code and requestId when it refused, field problems for a form. Messages are redacted
// (registered secrets and key shapes) before they cross; anything unexpected becomes INTERNAL with a
// generic message, its detail only in the (redacting) log.
import type { IpcError, IpcErrorCode } from '../../shared/ipc/ipc-result';
import { AftersaleNotFoundError, CaseActionNotAllowedError, CaseOpenPendingError, CaseValidationError } from '../aftersales/aftersale-errors';
import { ConnectionInputError } from '../connection/connection-settings';
import { NotOpenApiError } from '../connection/connect-probe';
import { MerchantSwitchRefusedError } from '../connection/merchant-switch';
import { fieldOfProblem } from '../../shared/connection-input';
import { NotConnectedError } from '../create-core';
import { LastProfileError, ProfileBusyError, ProfileCardsNotExportedError } from '../desk/profile-removal';
import { ProfileNameError, ProfileNotFoundError } from '../desk/profile-store';
import type { SecretAwareLogger } from '../logging/logger';
import { MerchantApiError, MerchantNotBeforeError, MerchantProtocolError, MerchantTransportError } from '../merchant/merchant-errors';
import { ActionInputError } from '../orders/order-actions';
import {
  ActionNotAllowedError,
  IntentStateError,
  PriceUnknownError,
  PurchaseValidationError,
  TemplateMissingError,
  TemplateNotSupportedError,
  TemplateOfflineError,
  VariantNotFoundError,
} from '../orders/order-errors';
import { RefundedCardsError } from '../vault/refund-mark';
import { CardDecryptionError, DataKeyMissingError } from '../vault/card-cipher';
import { CardNotFoundError } from '../vault/vault-reader';
import { MERCHANT_ERROR } from '../../shared/merchant-error-codes';

/** A refusal decided by a handler itself (not found, no clipboard, …), carried as it is. */
/** Another service's answer passed on as it was (the desk's routing to a profile's service). */
export class RelayedIpcError extends Error {
  override readonly name = 'RelayedIpcError';
  constructor(readonly ipcError: IpcError) {
    super(ipcError.message);
  }
}

export class AppFailure extends Error {
  override readonly name = 'AppFailure';
  constructor(
    readonly code: IpcErrorCode,
    message: string,
    /** Which input field is wrong and why, for a form (e.g. an export's password). */
    readonly fields?: readonly { readonly path: string; readonly message: string }[],
  ) {
    super(message);
  }
}

export const INTERNAL_MESSAGE = 'something went wrong inside the app; the details are in its log';

export function toIpcError(error: unknown, logger: SecretAwareLogger, channel: string): IpcError {
  const said = (message: string): string => logger.redact(message);
  if (error instanceof RelayedIpcError) return error.ipcError;
  if (error instanceof ProfileNameError) return { code: 'INVALID_INPUT', message: said(error.message), fields: [{ path: 'name', message: error.problem }] };
  if (error instanceof ProfileNotFoundError) return { code: 'NOT_FOUND', message: said(error.message) };
  if (error instanceof ProfileBusyError || error instanceof ProfileCardsNotExportedError || error instanceof LastProfileError) return { code: 'ACTION_NOT_ALLOWED', message: said(error.message) };
  if (error instanceof AppFailure) {
    const fields = error.fields?.map((f) => ({ path: f.path, message: said(f.message) }));
    return { code: error.code, message: said(error.message), ...(fields === undefined ? {} : { fields }) };
  }
  if (error instanceof MerchantSwitchRefusedError) return { code: 'ACTION_NOT_ALLOWED', message: said(error.message) };
  if (error instanceof MerchantApiError) {
    return { code: 'MERCHANT_REFUSED', message: said(error.message), merchantCode: error.code, requestId: error.requestId };
  }
  // The merchant's rate limit (its Retry-After is further away than a call waits): its words, its time.
  if (error instanceof MerchantNotBeforeError) return { code: 'MERCHANT_REFUSED', message: said(error.message), merchantCode: MERCHANT_ERROR.RATE_LIMITED, requestId: error.requestId };
  if (error instanceof MerchantTransportError) return { code: 'MERCHANT_UNREACHABLE', message: said(error.message), requestId: error.requestId, transportReason: error.reason };
  if (error instanceof MerchantProtocolError) return { code: 'MERCHANT_MALFORMED', message: said(error.message), requestId: error.requestId };
  if (error instanceof PurchaseValidationError) {
    return {
      code: 'INVALID_INPUT',
      message: 'the order does not fit the purchase template',
      fields: error.errors.map((e) => ({ path: e.path, message: said(e.message) })),
    };
  }
  if (error instanceof CaseValidationError) {
    return { code: 'INVALID_INPUT', message: `the ${error.what} does not fit the merchant's rules`, fields: error.problems.map((p) => ({ path: p.path, message: said(p.message) })) };
  }
  if (error instanceof CaseActionNotAllowedError) {
    return { code: 'ACTION_NOT_ALLOWED', message: said(error.message), ...(error.merchant === null ? {} : { merchantCode: error.merchant.code, requestId: error.merchant.requestId }) };
  }
  if (error instanceof CaseOpenPendingError) return { code: 'MERCHANT_UNREACHABLE', message: said(error.message), requestId: error.requestId };
  if (error instanceof AftersaleNotFoundError) return { code: 'NOT_FOUND', message: said(error.message) };
  // The field and the check that failed (shared/connection-input.ts) as a field problem: the form words it.
  if (error instanceof ConnectionInputError && error.problem !== null) {
    return { code: 'INVALID_INPUT', message: said(error.message), fields: [{ path: fieldOfProblem(error.problem), message: error.problem }] };
  }
  if (error instanceof NotOpenApiError) return { code: 'NOT_OPENAPI', message: said(error.message), requestId: error.requestId };
  if (error instanceof ConnectionInputError || error instanceof ActionInputError) return { code: 'INVALID_INPUT', message: said(error.message) };
  if (error instanceof ActionNotAllowedError || error instanceof IntentStateError) return { code: 'ACTION_NOT_ALLOWED', message: said(error.message) };
  // The merchant is newer than the app: ordering would mean guessing, which the buyer cannot fix by editing.
  if (error instanceof TemplateNotSupportedError) return { code: 'ACTION_NOT_ALLOWED', message: said(error.message) };
  if (error instanceof TemplateMissingError) return { code: 'TEMPLATE_MISSING', message: said(error.message) };
  // The merchant away and no trusted template: the order dialog offers to queue it as needs_template.
  if (error instanceof TemplateOfflineError) return { code: 'MERCHANT_UNREACHABLE', message: said(error.message) };
  if (error instanceof VariantNotFoundError) return { code: 'INVALID_INPUT', message: said(error.message), fields: [{ path: 'variantRef', message: 'the product has no such variant' }] };
  if (error instanceof PriceUnknownError) return { code: 'INVALID_INPUT', message: said(error.message) };
  if (error instanceof NotConnectedError) return { code: 'NOT_CONNECTED', message: said(error.message) };
  if (error instanceof CardNotFoundError) return { code: 'NOT_FOUND', message: said(error.message) };
  if (error instanceof RefundedCardsError) return { code: 'REFUND_ACK_REQUIRED', message: said(error.message) };
  if (error instanceof DataKeyMissingError || (error instanceof CardDecryptionError && error.keyMissing)) {
    return { code: 'DATA_KEY_MISSING', message: 'the key that unlocks the stored cards is missing from the secret store' };
  }
  logger.error('handler failed unexpectedly', {
    channel,
    error: error instanceof Error ? error.name : typeof error,
    message: error instanceof Error ? said(error.message) : undefined,
  });
  return { code: 'INTERNAL', message: INTERNAL_MESSAGE };
}
