// Typed refusals of the after-sales module. Messages name rules, states and references only (never
// the buyer's text), so they can be logged and shown as they are.
import type { CaseFieldProblem } from '../../shared/aftersale-rules';

/** The input breaks a rule of contract §9: nothing was written or sent. */
export class CaseValidationError extends Error {
  override readonly name = 'CaseValidationError';
  constructor(
    readonly what: 'case' | 'message',
    readonly problems: readonly CaseFieldProblem[],
  ) {
    super(`the ${what} does not fit contract §9: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
  }
}

/**
 * CASE_ACTION_NOT_ALLOWED (409104) explained: the order cannot open a case (not in allowedActions, or
 * one is open), or the case takes no more messages (closed). Raised before sending when what is
 * stored already says so, and for the merchant's own 409104, whose code and requestId it carries.
 */
export class CaseActionNotAllowedError extends Error {
  override readonly name = 'CaseActionNotAllowedError';
  constructor(
    message: string,
    readonly merchant: { readonly code: number; readonly requestId: string | null } | null = null,
  ) {
    super(message);
  }
}

/** No such case or order in this app's store. */
export class AftersaleNotFoundError extends Error {
  override readonly name = 'AftersaleNotFoundError';
}

/**
 * A case create whose answer did not come (merchant away, 5xx, timeout): the merchant may have opened
 * the case. The same create is sent again in the background until the outcome is known (contract §9.1
 * makes that safe); the case then appears by itself.
 */
export class CaseOpenPendingError extends Error {
  override readonly name = 'CaseOpenPendingError';
  constructor(
    readonly clientOrderRef: string,
    readonly reason: 'unreachable' | 'merchantTrouble',
    readonly requestId: string | null,
  ) {
    super(
      `no answer from the merchant about the case for order ${clientOrderRef}; it may have been opened. The app sends the same request again until it knows, and the case then appears under After-sales`,
    );
  }
}
