// The stable business error codes of interface v1 (interface v1 §7), by name: the one home of these numbers in
// the app (the sandbox, an independent merchant, keeps its own). Clients decide by code, never by
// message; code that decides writes MERCHANT_ERROR.NAME, and the name is what logs and the words shown
// to the buyer use.

export const MERCHANT_ERROR = {
  INVALID_ARGUMENT: 400001,
  INVALID_PUBLIC_REFERENCE: 400002,
  INVALID_CREDENTIAL: 401001,
  SOURCE_IP_DENIED: 403002,
  CREDENTIAL_SUSPENDED: 403005,
  RESOURCE_NOT_VISIBLE: 404001,
  ORDER_NOT_FOUND: 404002,
  AFTERSALE_NOT_FOUND: 404003,
  IDEMPOTENCY_CONFLICT: 409001,
  PURCHASE_SCHEMA_CHANGED: 409101,
  CANCELLATION_NOT_ALLOWED: 409102,
  REFUND_NOT_ALLOWED: 409103,
  CASE_ACTION_NOT_ALLOWED: 409104,
  ORDER_CREATE_REJECTED: 422100,
  PRODUCT_UNAVAILABLE: 422101,
  INVENTORY_UNAVAILABLE: 422102,
  BALANCE_INSUFFICIENT: 422103,
  UNITS_NOT_ALLOWED: 422110,
  PURCHASE_INPUT_INVALID: 422111,
  IMAGE_URL_INVALID: 422112,
  ORDER_CALLBACK_URL_INVALID: 422114,
  OTP_NOT_ALLOWED: 422120,
  RATE_LIMITED: 429001,
  OTP_ATTEMPTS_LIMITED: 429110,
  CANCELLATION_ATTEMPTS_LIMITED: 429111,
  REFUND_ATTEMPTS_LIMITED: 429112,
  INTERNAL_ERROR: 500001,
  TEMPORARILY_UNAVAILABLE: 503001,
} as const;

export type MerchantErrorName = keyof typeof MERCHANT_ERROR;
export type MerchantErrorCode = (typeof MERCHANT_ERROR)[MerchantErrorName];

const NAME_OF_CODE: ReadonlyMap<number, MerchantErrorName> = new Map(
  (Object.keys(MERCHANT_ERROR) as MerchantErrorName[]).map((name) => [MERCHANT_ERROR[name], name]),
);

/** The identifier of a code, or UNKNOWN_ERROR for one this build does not know (kept with its number). */
export function merchantErrorName(code: number): MerchantErrorName | 'UNKNOWN_ERROR' {
  return NAME_OF_CODE.get(code) ?? 'UNKNOWN_ERROR';
}
