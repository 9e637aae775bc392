// Exit codes of the CLI (README "The command line"), and the mapping of failures onto them.
import { UsageError } from './cli-args';
import { ConnectionInputError } from '../core';
import { NotConnectedError } from '../core';
import { MerchantApiError, MerchantNotBeforeError, MerchantProtocolError, MerchantTransportError } from '../core';
import { IntentStateError, PriceUnknownError, PurchaseValidationError, TemplateNotSupportedError } from '../core';
import { ReconcilePagingError, ReconcileRangeError } from '../core';

/** differences: `reconcile` ran to the end and found something that differs (not an error). */
export const EXIT = { ok: 0, failure: 1, usage: 2, business: 3, network: 4, differences: 5 } as const;

export interface Failure {
  code: number;
  message: string;
}

/** What to print and which code to exit with; messages never carry a credential (see redaction). */
export function describeFailure(error: unknown): Failure {
  if (error instanceof UsageError || error instanceof ConnectionInputError || error instanceof NotConnectedError) return { code: EXIT.usage, message: error.message };
  if (error instanceof PurchaseValidationError || error instanceof IntentStateError || error instanceof PriceUnknownError) return { code: EXIT.usage, message: error.message };
  if (error instanceof ReconcileRangeError) return { code: EXIT.usage, message: error.message };
  // The merchant's list moved in a way no rule explains: like an outage, try again later.
  if (error instanceof ReconcilePagingError) return { code: EXIT.network, message: error.message };
  if (error instanceof TemplateNotSupportedError) return { code: EXIT.business, message: error.message };
  if (error instanceof MerchantApiError) return { code: EXIT.business, message: `${error.code} ${error.errorName}${error.requestId ? ` (requestId ${error.requestId})` : ''}` };
  // The merchant asked to wait longer than a command blocks: it says until when.
  if (error instanceof MerchantNotBeforeError) return { code: EXIT.network, message: error.message };
  if (error instanceof MerchantTransportError || error instanceof MerchantProtocolError) return { code: EXIT.network, message: error.message };
  return { code: EXIT.failure, message: error instanceof Error ? error.message : String(error) };
}
