// The stable business error codes of interface v1 (interface v1 §7), by code. Clients decide by code, never by
// message; the identifier names the meaning for logs and for the words shown to the buyer.

export const MERCHANT_ERROR_CODES = {
  400001: 'INVALID_ARGUMENT',
  400002: 'INVALID_PUBLIC_REFERENCE',
  401001: 'INVALID_CREDENTIAL',
  403002: 'SOURCE_IP_DENIED',
  403005: 'CREDENTIAL_SUSPENDED',
  404001: 'RESOURCE_NOT_VISIBLE',
  404002: 'ORDER_NOT_FOUND',
  404003: 'AFTERSALE_NOT_FOUND',
  409001: 'IDEMPOTENCY_CONFLICT',
  409101: 'PURCHASE_SCHEMA_CHANGED',
  409102: 'CANCELLATION_NOT_ALLOWED',
  409103: 'REFUND_NOT_ALLOWED',
  409104: 'CASE_ACTION_NOT_ALLOWED',
  422100: 'ORDER_CREATE_REJECTED',
  422101: 'PRODUCT_UNAVAILABLE',
  422102: 'INVENTORY_UNAVAILABLE',
  422103: 'BALANCE_INSUFFICIENT',
  422110: 'UNITS_NOT_ALLOWED',
  422111: 'PURCHASE_INPUT_INVALID',
  422112: 'IMAGE_URL_INVALID',
  422114: 'ORDER_CALLBACK_URL_INVALID',
  422120: 'OTP_NOT_ALLOWED',
  429001: 'RATE_LIMITED',
  429110: 'OTP_ATTEMPTS_LIMITED',
  429111: 'CANCELLATION_ATTEMPTS_LIMITED',
  429112: 'REFUND_ATTEMPTS_LIMITED',
  500001: 'INTERNAL_ERROR',
  503001: 'TEMPORARILY_UNAVAILABLE',
} as const;

export type MerchantErrorName = (typeof MERCHANT_ERROR_CODES)[keyof typeof MERCHANT_ERROR_CODES];

/** The identifier of a code, or UNKNOWN_ERROR for one this build does not know (kept with its number). */
export function merchantErrorName(code: number): MerchantErrorName | 'UNKNOWN_ERROR' {
  return (MERCHANT_ERROR_CODES as Record<number, MerchantErrorName | undefined>)[code] ?? 'UNKNOWN_ERROR';
}
