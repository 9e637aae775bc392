// The catch-up after webhooks may have been lost (interface v1 §6.4.6–8): the receiver or the tunnel was down,
// or the callback URL changed. Nothing can be replayed (three failed sends and the message is gone,
// a product's subscription with it), so what matters is read again by detail:
// - every order not yet final (needsPolling: not terminal, or completed with a refund pending) by an
//   authenticated GET /orders/{ref} applied by the tracker (order-store's applyOrderDetail);
// - every watched product by GET /goods/{ref}, applied through the catalog repository exactly as a
//   sync or a product.changed would (revision never moves back), templates fetched again where the
//   purchaseSchemaRevision moved.
// Requests go through the client's quota model, a few at a time. An unreachable merchant ends the
// run early and says so, so the caller tries again later instead of believing it caught up.
import type { Database } from 'better-sqlite3';
import type { CatalogRepository } from '../catalog/catalog-repository';
import type { Logger } from '../logging/logger';
import type { MerchantClient } from '../merchant/merchant-client';
import { MerchantApiError, MerchantError } from '../merchant/merchant-errors';
import type { Clock } from '../platform/clock';
import { needsPolling } from '../orders/poll-policy';
import type { OrderTracker } from '../orders/order-tracker';
import { runBounded } from '../platform/bounded-pool';

const NOT_VISIBLE = 404_001;

export interface CatchUpReport {
  /** Our clock, ms. */
  readonly startedAt: number;
  readonly finishedAt: number;
  readonly orders: { readonly checked: number; readonly failed: number };
  readonly products: { readonly checked: number; readonly applied: number; readonly stale: number; readonly notVisible: number; readonly failed: number };
  /** False when the merchant could not be reached and some were not read: run it again later. */
  readonly complete: boolean;
}

export interface CatchUpDeps {
  readonly db: Database;
  readonly client: Pick<MerchantClient, 'getProduct' | 'getTemplate'>;
  readonly tracker: Pick<OrderTracker, 'refresh'>;
  readonly catalog: CatalogRepository;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Requests in flight at once (the quota model paces them in any case). */
  readonly concurrency?: number;
}

/** Orders whose state could still change without us: not terminal, or a refund still pending. */
export function ordersToCatchUp(db: Database): string[] {
  const orders = db.prepare<[], { ref: string; state: string }>('SELECT client_order_ref AS ref, state FROM orders ORDER BY created_at, rowid').all();
  const refundStates = db.prepare<[string], string>('SELECT state FROM refunds WHERE client_order_ref = ?').pluck();
  return orders.filter((o) => needsPolling(o.state, refundStates.all(o.ref))).map((o) => o.ref);
}

export async function runCatchUp(deps: CatchUpDeps, productRefs: readonly number[], signal?: AbortSignal): Promise<CatchUpReport> {
  const { db, tracker, clock, logger } = deps;
  const concurrency = deps.concurrency ?? 4;
  const startedAt = clock.nowMs();
  let unreachable = false;
  const stop = (): boolean => unreachable || signal?.aborted === true;
  const orders = { checked: 0, failed: 0 };
  const onError = (error: unknown, what: Record<string, unknown>): void => {
    if (isUnreachable(error)) unreachable = true;
    logger.info('catch-up read failed', { ...what, error: error instanceof Error ? error.message : 'unknown', requestId: error instanceof MerchantError ? error.requestId : null });
  };

  await runBounded(
    ordersToCatchUp(db),
    async (ref) => {
      try {
        await tracker.refresh(ref);
        orders.checked++;
      } catch (error) {
        orders.failed++;
        onError(error, { clientOrderRef: ref });
      }
    },
    { concurrency, stopWhen: stop },
  );

  const read = stop() ? null : await readProductsByDetail(deps, productRefs, signal);
  const { complete: productsComplete, ...products } = read ?? { checked: 0, applied: 0, stale: 0, notVisible: 0, failed: 0, complete: false };
  const report: CatchUpReport = { startedAt, finishedAt: clock.nowMs(), orders, products, complete: !stop() && productsComplete };
  logger.info('catch-up finished', { orders: orders.checked, ordersFailed: orders.failed, products: products.checked, productsApplied: products.applied, complete: report.complete });
  return report;
}

export interface ProductReadReport {
  readonly checked: number;
  readonly applied: number;
  readonly stale: number;
  readonly notVisible: number;
  readonly failed: number;
  /** False when the merchant could not be reached and some were not read. */
  readonly complete: boolean;
}

/**
 * Reads products by GET /goods/{ref} and applies each as a sync or a product.changed would (revision
 * never moves back; templates fetched again where the purchaseSchemaRevision moved). Serves the
 * catch-up and the watched-product poll.
 */
export async function readProductsByDetail(deps: Omit<CatchUpDeps, 'tracker' | 'db'>, productRefs: readonly number[], signal?: AbortSignal): Promise<ProductReadReport> {
  const { client, catalog, logger } = deps;
  const concurrency = deps.concurrency ?? 4;
  let unreachable = false;
  const stop = (): boolean => unreachable || signal?.aborted === true;
  const products = { checked: 0, applied: 0, stale: 0, notVisible: 0, failed: 0 };
  const onError = (error: unknown, what: Record<string, unknown>): void => {
    if (isUnreachable(error)) unreachable = true;
    logger.info('product read failed', { ...what, error: error instanceof Error ? error.message : 'unknown', requestId: error instanceof MerchantError ? error.requestId : null });
  };
  await runBounded(
    productRefs,
    async (productRef) => {
      try {
        const { data } = await client.getProduct(productRef, signal);
        products.checked++;
        const outcome = catalog.applyProductSnapshot({ from: 'detail', detail: data });
        if (outcome.kind === 'stale') {
          products.stale++;
          return;
        }
        if (outcome.kind !== 'applied') return;
        products.applied++;
        // Templates are refreshed only for a product whose detail was cached before: stale ones, and
        // missing ones of a watched or recently ordered product (catalog-repository.ts NEEDS_TEMPLATE);
        // a product never synced gets its templates from the next sync.
        const templates = outcome.previousRevision === null ? [] : outcome.templatesToFetch;
        for (const need of templates) {
          try {
            const { data: template } = await client.getTemplate(need.productRef, need.variantRef, signal);
            catalog.upsertTemplate(template);
          } catch (error) {
            // A variant gone meanwhile: the next sync settles it.
            if (!(error instanceof MerchantApiError && error.code === NOT_VISIBLE)) throw error;
          }
        }
      } catch (error) {
        if (error instanceof MerchantApiError && error.code === NOT_VISIBLE) {
          products.notVisible++;
          return;
        }
        products.failed++;
        onError(error, { productRef });
      }
    },
    { concurrency, stopWhen: stop },
  );

  return { ...products, complete: !stop() };
}

/** Business errors belong to one item; anything else means the merchant is not there now. Non-merchant errors are bugs: rethrown. */
function isUnreachable(error: unknown): boolean {
  if (!(error instanceof MerchantError)) throw error;
  return !(error instanceof MerchantApiError) || error.httpStatus === 429 || error.httpStatus >= 500 || error.httpStatus === 401 || error.httpStatus === 403;
}
