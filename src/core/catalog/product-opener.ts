// Opening a product whose detail the cache lacks (contract §11.2): the buyer is waiting, so its
// GET /goods/{productRef} goes now, on the interactive client (ahead of the background sync), and its
// answer is stored through the one snapshot path (applyProductSnapshot), as the sync would store it.
// A stored detail read longer ago than DETAIL_FRESH_FOR_S is read again too (detail-state.ts
// readingIsOld): the merchant moves prices and stock without a revision the list has named yet.
// Nothing is sent when the stored detail is as new as the list says and recent, when the merchant is not
// reachable now (the list's data stands, and the detail loads on a later open or by the sync), or
// when the product is already marked removed. Two opens of one product while its GET is under way
// share that GET (platform/single-flight.ts).
import { MERCHANT_ERROR } from '../../shared/merchant-error-codes';
import type { DetailLoad } from '../../shared/ipc/views/catalog';
import type { Logger } from '../logging/logger';
import type { MerchantClient } from '../merchant/merchant-client';
import { MerchantAccessError, MerchantApiError, MerchantError, MerchantProtocolError } from '../merchant/merchant-errors';
import { createKeyedSingleFlight } from '../platform/single-flight';
import type { CatalogReader } from './catalog-reader';
import type { CatalogRepository } from './catalog-repository';
import { detailState, readingIsOld } from './detail-state';

/** The merchant as an open sees it: its interactive client, and whether it is reachable now. */
export interface OpenerMerchant {
  readonly client: Pick<MerchantClient, 'getProduct'>;
  /** The connection state says requests can be answered (online, or degraded but there). */
  readonly reachable: boolean;
}

export interface DetailLoadResult {
  readonly load: DetailLoad;
  /** The merchant's requestId of a failed GET, for support. */
  readonly requestId: string | null;
  /** Something was written (a detail stored, the product marked removed): lists should refresh. */
  readonly changed: boolean;
}

export interface ProductOpener {
  /** Brings the product's stored detail up to the list's revision when it can; the product must be cached. */
  loadDetail(productRef: number, merchant: OpenerMerchant | null): Promise<DetailLoadResult>;
}

export interface ProductOpenerDeps {
  readonly reader: Pick<CatalogReader, 'readProduct'>;
  readonly catalog: Pick<CatalogRepository, 'applyProductSnapshot' | 'markProductRemoved'>;
  readonly logger: Logger;
  /** Unix seconds on core's clock: how old the stored reading is. */
  readonly nowSeconds: () => number;
}

const UNCHANGED = { requestId: null, changed: false } as const;

export function createProductOpener({ reader, catalog, logger, nowSeconds }: ProductOpenerDeps): ProductOpener {
  const flight = createKeyedSingleFlight<number, DetailLoadResult>();
  // The listed revision a GET was last answered for, per product: a merchant whose detail lags its
  // list (answers an older revision) is asked once per listed revision, not at every open.
  const answeredFor = new Map<number, number | null>();

  const fetchDetail = async (productRef: number, listedRevision: number | null, client: OpenerMerchant['client']): Promise<DetailLoadResult> => {
    try {
      const { data } = await client.getProduct(productRef);
      const outcome = catalog.applyProductSnapshot({ from: 'detail', detail: data });
      answeredFor.set(productRef, listedRevision);
      logger.info('product detail loaded for the buyer', { productRef, outcome: outcome.kind });
      // Applied or not, the reading is new: its age (the view's syncedAt) and any price it moved are news.
      return { load: 'fetched', requestId: null, changed: outcome.kind === 'applied' };
    } catch (error) {
      if (!(error instanceof MerchantError)) throw error;
      logger.info('product detail not loaded for the buyer', { productRef, error: error.message, requestId: error.requestId });
      if (error instanceof MerchantApiError && error.code === MERCHANT_ERROR.RESOURCE_NOT_VISIBLE) {
        catalog.markProductRemoved(productRef);
        return { load: 'removed', requestId: error.requestId, changed: true };
      }
      return { load: merchantAway(error) ? 'merchantUnreachable' : 'failed', requestId: error.requestId, changed: false };
    }
  };

  return {
    async loadDetail(productRef, merchant) {
      const product = reader.readProduct(productRef);
      if (product === null) throw new RangeError(`product ${productRef} is not cached`);
      if (product.removedAt !== null) return { load: 'removed', ...UNCHANGED };
      const state = detailState(product.revision, product.listedRevision);
      const old = state !== 'listOnly' && readingIsOld(product.syncedAt, nowSeconds());
      if (state === 'stored' && !old) return { load: 'current', ...UNCHANGED };
      if (state === 'stale' && !old && answeredFor.get(productRef) === product.listedRevision) return { load: 'current', ...UNCHANGED };
      if (merchant === null || !merchant.reachable) return { load: 'merchantUnreachable', ...UNCHANGED };
      return flight.run(productRef, () => fetchDetail(productRef, product.listedRevision, merchant.client));
    },
  };
}

/**
 * No usable answer now, though the product may well be there: no connection, a refused key or address,
 * a Retry-After hold, or the merchant struggling (5xx, 429). The detail loads once it answers again.
 * A business refusal of this one request or an answer that is not the interface is a failure.
 */
function merchantAway(error: MerchantError): boolean {
  if (error instanceof MerchantProtocolError) return false;
  if (!(error instanceof MerchantApiError)) return true;
  return error instanceof MerchantAccessError || error.httpStatus === 429 || error.httpStatus >= 500;
}
