// The interface's business errors (interface v1 §7): HTTP status and stable code travel together, so a handler
// throws one of these and the server writes the envelope.

export const ERRORS = {
  INVALID_ARGUMENT: { status: 400, code: 400001 },
  INVALID_PUBLIC_REFERENCE: { status: 400, code: 400002 },
  INVALID_CREDENTIAL: { status: 401, code: 401001 },
  CREDENTIAL_SUSPENDED: { status: 403, code: 403005 },
  SOURCE_IP_DENIED: { status: 403, code: 403002 },
  RESOURCE_NOT_VISIBLE: { status: 404, code: 404001 },
  ORDER_NOT_FOUND: { status: 404, code: 404002 },
  AFTERSALE_NOT_FOUND: { status: 404, code: 404003 },
  IDEMPOTENCY_CONFLICT: { status: 409, code: 409001 },
  RATE_LIMITED: { status: 429, code: 429001 },
  INTERNAL_ERROR: { status: 500, code: 500001 },
  TEMPORARILY_UNAVAILABLE: { status: 503, code: 503001 },
  PURCHASE_SCHEMA_CHANGED: { status: 409, code: 409101 },
  CANCELLATION_NOT_ALLOWED: { status: 409, code: 409102 },
  REFUND_NOT_ALLOWED: { status: 409, code: 409103 },
  CASE_ACTION_NOT_ALLOWED: { status: 409, code: 409104 },
  ORDER_CREATE_REJECTED: { status: 422, code: 422100 },
  PRODUCT_UNAVAILABLE: { status: 422, code: 422101 },
  INVENTORY_UNAVAILABLE: { status: 422, code: 422102 },
  BALANCE_INSUFFICIENT: { status: 422, code: 422103 },
  UNITS_NOT_ALLOWED: { status: 422, code: 422110 },
  PURCHASE_INPUT_INVALID: { status: 422, code: 422111 },
  IMAGE_URL_INVALID: { status: 422, code: 422112 },
  ORDER_CALLBACK_URL_INVALID: { status: 422, code: 422114 },
  OTP_NOT_ALLOWED: { status: 422, code: 422120 },
  OTP_ATTEMPTS_LIMITED: { status: 429, code: 429110 },
  CANCELLATION_ATTEMPTS_LIMITED: { status: 429, code: 429111 },
  REFUND_ATTEMPTS_LIMITED: { status: 429, code: 429112 },
} as const;

export type ErrorName = keyof typeof ERRORS;

export class ApiError extends Error {
  readonly status: number;
  readonly code: number;
  readonly headers: Record<string, string>;

  constructor(name: ErrorName, message: string, headers: Record<string, string> = {}) {
    super(`${name}: ${message}`);
    this.status = ERRORS[name].status;
    this.code = ERRORS[name].code;
    this.headers = headers;
  }
}

export function errorNameForCode(code: number): ErrorName {
  const entry = Object.entries(ERRORS).find(([, value]) => value.code === code);
  if (!entry) throw new Error(`unknown error code ${code}`);
  return entry[0] as ErrorName;
}
