// catalog.*: reads of the offline cache (categories, search, product, price history), the background
// sync, and the watch toggle. Watching goes through the webhook service when it runs (it subscribes
// the product with the live callback URL); otherwise the row is written to the same watch list
// (0007) and subscribed once webhooks start. A new watch first reads the product's detail, so its
// baseline (app/change-watch.ts) is the merchant's product at the moment the watch began. Opening a
// product (catalog.openProduct) loads its detail first when the cache has only the list's data, an
// older revision or a reading older than DETAIL_FRESH_FOR_S (catalog/product-opener.ts).
import type { ProductView } from '../../shared/ipc/views/catalog';
import { readProductsByDetail } from '../webhooks/catch-up';
import { createProductOpener } from '../catalog/product-opener';
import { AppFailure } from './error-mapping';
import type { AppContext } from './app-context';
import type { HandlersFor } from './handler-types';
import { toCategoryView, toPricePoint, toProductView, toSearchResult } from './view-mapping';

type Channels =
  | 'catalog.categories'
  | 'catalog.search'
  | 'catalog.product'
  | 'catalog.openProduct'
  | 'catalog.priceHistory'
  | 'catalog.sync'
  | 'catalog.syncStatus'
  | 'catalog.setWatched';

export function catalogHandlers(ctx: AppContext): HandlersFor<Channels> {
  const syncedAt = ctx.core.db.prepare<[number], { synced_at: number }>('SELECT synced_at FROM products WHERE product_ref = ?');

  const productView = (productRef: number): ProductView => {
    const product = ctx.reader.readProduct(productRef);
    if (product === null) throw new AppFailure('NOT_FOUND', `product ${productRef} is not in the catalog cache; sync the catalog`);
    return toProductView(product, ctx.watchStore.get(productRef) !== null, syncedAt.get(productRef)?.synced_at ?? null);
  };
  const opener = createProductOpener({ reader: ctx.reader, catalog: ctx.core.catalog, logger: ctx.logger, nowSeconds: () => ctx.nowSeconds() });
  // Sent only while the connection state says the merchant answers: offline, a refused key or a
  // certificate problem would fail it anyway, and the banner already says why.
  const reachable = (): boolean => ['online', 'degraded'].includes(ctx.connectionState().state);

  return {
    'catalog.categories': () => ctx.reader.listCategories().map(toCategoryView),

    'catalog.search': (query) => {
      // The category on screen: a running sync fetches its details next (issue 15).
      ctx.sync.noteBrowsing(query.catalogRef ?? null);
      return toSearchResult(ctx.core.search(query));
    },

    'catalog.product': ({ productRef }) => productView(productRef),

    'catalog.openProduct': async ({ productRef }) => {
      productView(productRef);
      const services = ctx.activeServices();
      const result = await opener.loadDetail(productRef, services === null ? null : { client: services.client, reachable: reachable() });
      if (result.changed) ctx.events.emit('catalog.changed', { productRefs: [productRef] });
      return { product: productView(productRef), detailLoad: result.load, requestId: result.requestId };
    },

    'catalog.priceHistory': ({ productRef, variantRef }) => ctx.core.catalog.priceHistory(productRef, variantRef).map(toPricePoint),

    'catalog.sync': async () => ctx.sync.start(await ctx.merchant()),

    'catalog.syncStatus': () => ctx.sync.status(),

    'catalog.setWatched': async ({ productRef, watched }) => {
      productView(productRef);
      const services = ctx.activeServices();
      const webhooks = services?.webhooks ?? null;
      if (watched && ctx.watchStore.get(productRef) === null && services !== null) {
        // The watch's baseline is the merchant's product now, not a cache that may be hours old: read
        // before the row exists, so that what changed before the watch began is not notified as news
        // and the first change after it (even one back to the old cached value) is. Best effort: an
        // unreachable merchant leaves the cache as the baseline.
        await readProductsByDetail({ client: services.client, catalog: ctx.core.catalog, clock: ctx.core.clock, logger: ctx.logger }, [productRef]);
      }
      if (watched) {
        if (webhooks !== null) webhooks.watch([productRef]);
        else ctx.watchStore.add([productRef], ctx.nowSeconds());
      } else if (webhooks !== null) {
        await webhooks.unwatch([productRef]);
      } else {
        // Without webhooks running nothing can be unsubscribed now; the subscription lapses at its expiry.
        ctx.watchStore.remove([productRef]);
      }
      ctx.changed();
      return productView(productRef);
    },
  };
}
