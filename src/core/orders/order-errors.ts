// Typed refusals of the orders module. Messages never carry an entry value, a code or a card secret:
// they name fields and rules only, so they can be logged and shown as they are. One exception, never
// logged: a select value no option answers to is quoted back (cut at 40 characters) beside the labels
// the buyer can use (contract §7.11), since "not one of the options" alone does not say which to fix.

/** One problem with the purchase input, tied to the field (or `units`) the buyer must correct. */
export interface PurchaseFieldError {
  /** `units`, `purchaseEntries`, or `purchaseEntries[i].fieldRef`. */
  readonly path: string;
  readonly code:
    | 'UNITS_OUT_OF_RANGE'
    | 'UNITS_STEP'
    | 'ENTRY_COUNT'
    | 'REQUIRED'
    | 'UNKNOWN_FIELD'
    | 'NOT_A_STRING'
    | 'TOO_SHORT'
    | 'TOO_LONG'
    | 'PATTERN'
    | 'MOBILE'
    | 'EMAIL'
    | 'INTEGER'
    | 'OPTION'
    | 'INVALID_CHARACTERS';
  readonly message: string;
  /** OPTION: the value as given (cut), why no option was taken, and the labels to choose from (or that it could be). */
  readonly option?: { readonly given: string; readonly reason: 'unknown' | 'ambiguous'; readonly labels: readonly string[] };
}

/** The input does not fit the cached template: nothing was written or sent. */
export class PurchaseValidationError extends Error {
  override readonly name = 'PurchaseValidationError';
  constructor(readonly errors: readonly PurchaseFieldError[]) {
    super(`the purchase does not fit the template: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
  }
}

/**
 * The template uses an entry mode or field type this build does not know: the merchant is newer
 * than the app, and guessing what it wants could buy the wrong thing. Nothing was written or sent.
 */
export class TemplateNotSupportedError extends Error {
  override readonly name = 'TemplateNotSupportedError';
}

/** No cached template for the product/variant: sync the catalog (or fetch the template) first. */
export class TemplateMissingError extends Error {
  override readonly name = 'TemplateMissingError';
  constructor(productRef: number, variantRef: number) {
    super(`no cached purchase template for product ${productRef} variant ${variantRef}; sync the catalog first`);
  }
}

/** Neither the buyer nor the catalog cache gave a unit price: nothing to hold the merchant to, so nothing is placed. */
export class PriceUnknownError extends Error {
  override readonly name = 'PriceUnknownError';
  constructor(productRef: number, variantRef: number) {
    super(`no confirmed unit price for product ${productRef} variant ${variantRef}, and the catalog cache has none; sync the catalog or give the price`);
  }
}

/** An intent operation that its current status does not allow (confirm an accepted one, …). */
export class IntentStateError extends Error {
  override readonly name = 'IntentStateError';
}

/** An order action refused locally because the stored `allowedActions` does not list it. */
export class ActionNotAllowedError extends Error {
  override readonly name = 'ActionNotAllowedError';
  constructor(
    readonly action: string,
    readonly clientOrderRef: string,
    readonly reason: string,
  ) {
    super(`${action} is not allowed for order ${clientOrderRef}: ${reason}`);
  }
}

/**
 * The product (as the merchant's detail shows it) has no such variant: a multi-variant product
 * ordered without choosing one, or a variant since removed. Nothing was written or sent; `variants`
 * names the ones there are, so the caller can say which to choose.
 */
export class VariantNotFoundError extends Error {
  override readonly name = 'VariantNotFoundError';
  constructor(
    readonly productRef: number,
    readonly variantRef: number,
    readonly variants: readonly { readonly variantRef: number; readonly title: string }[],
  ) {
    super(`product ${productRef} has no variant ${variantRef}`);
  }
}

/**
 * The merchant cannot be reached (the connection is offline, degraded or failing its certificate, or
 * the fetch failed in transport) and no trusted template is cached: the form cannot be built now. An
 * order can still be queued as needs_template (contract §7.10).
 */
export class TemplateOfflineError extends Error {
  override readonly name = 'TemplateOfflineError';
  constructor(
    readonly productRef: number,
    readonly variantRef: number,
  ) {
    super(`the merchant cannot be reached and no current purchase template is cached for product ${productRef} variant ${variantRef}`);
  }
}
