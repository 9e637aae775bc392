// A sync's failure as data the screen can put in words: the merchant's code, the transport reason, a
// paging anomaly or the merchant's "not before", each with the requestId. An English message is never
// stored for the buyer (issue 14: raw "merchant error 503001 …" text reached the Chinese screen).
import { MerchantApiError, MerchantError, MerchantNotBeforeError, MerchantProtocolError, MerchantTransportError } from '../merchant/merchant-errors';
import { CatalogPagingError } from './paging-guard';
import type { SyncFailure } from './sync-state';

export function syncFailureOf(error: unknown, nowSeconds: number): SyncFailure {
  const requestId = error instanceof MerchantError ? (error.requestId ?? error.requestIds.at(-1) ?? null) : null;
  const base: SyncFailure = { kind: 'other', merchantCode: null, transportReason: null, requestId, notBeforeAt: null, at: nowSeconds };
  if (error instanceof MerchantApiError) return { ...base, kind: 'merchant', merchantCode: error.code };
  if (error instanceof MerchantNotBeforeError) return { ...base, kind: 'notBefore', notBeforeAt: Math.ceil(error.notBeforeMs / 1000) };
  if (error instanceof MerchantTransportError) return { ...base, kind: 'transport', transportReason: error.reason };
  if (error instanceof MerchantProtocolError) return { ...base, kind: 'malformed' };
  if (error instanceof CatalogPagingError) return { ...base, kind: 'paging' };
  return base;
}
