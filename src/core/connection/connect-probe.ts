// The connect test: one GET /account through the probe client (sent once, short timeout, see
// merchant-services.ts). An answer that is not the interface's (a web page, a 404 of a site without
// the OpenAPI, JSON of something else) means the address is wrong, which the buyer can fix; it is
// named as such instead of "malformed answer". A gateway's 5xx page stays the merchant's trouble.
import type { Account } from '../../shared/merchant/account';
import { MerchantAccessError, MerchantApiError, MerchantProtocolError } from '../merchant/merchant-errors';
import type { MerchantClient } from '../merchant/merchant-client';

/** The address answered, but not as a Merchant OpenAPI v1 (interface v1 §5: 404 where the OpenAPI is off). */
export class NotOpenApiError extends Error {
  override readonly name = 'NotOpenApiError';
  constructor(
    readonly httpStatus: number,
    readonly requestId: string | null,
    detail: string,
  ) {
    super(`this address does not answer as a Merchant OpenAPI v1 (HTTP ${httpStatus}): ${detail}`);
  }
}

function notTheInterface(error: unknown): NotOpenApiError | null {
  if (error instanceof MerchantProtocolError && error.httpStatus < 500) return new NotOpenApiError(error.httpStatus, error.requestId, error.message);
  // A 404 envelope on GET /account: the path is not the interface's (its 404 codes are about resources).
  if (error instanceof MerchantApiError && !(error instanceof MerchantAccessError) && error.httpStatus === 404) {
    return new NotOpenApiError(error.httpStatus, error.requestId, error.message);
  }
  return null;
}

export async function probeAccount(client: MerchantClient): Promise<Account> {
  try {
    const { data } = await client.getAccount();
    return data;
  } catch (error) {
    throw notTheInterface(error) ?? error;
  }
}
