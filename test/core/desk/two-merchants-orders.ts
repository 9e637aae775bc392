// Orders of one profile placed through the desk service (its `profileId` scope), and waiting on an
// order's detail, which the desk answers from whichever profile holds the ref.
import type { OrderDetail } from '../../../src/shared/ipc/views/orders';
import { waitFor } from '../app/app-kit';
import { Catalog, fen, goodCard } from '../../support/orders-harness';
import type { Side, TwoMerchants } from './two-merchants-kit';

const catalogs = new Map<Side, Catalog>();

/** The orders.place input for one unit of a card product not ordered before in this run, for that profile. */
export async function cardOrderInput(side: Side, profileId: string): Promise<Record<string, unknown>> {
  let catalog = catalogs.get(side);
  if (catalog === undefined) {
    catalog = new Catalog(await side.merchant.products());
    catalogs.set(side, catalog);
  }
  const pick = catalog.claim((product, variant) => goodCard(product, variant), 'a card that is supplied');
  const variantRef = pick.product.variants.length > 1 ? pick.variant.variantRef : 0;
  return { profileId, productRef: pick.product.productRef, variantRef, units: 1, unitPriceFen: fen(pick.variant.price) };
}

/** One unit of a card product not ordered before in this run that succeeds, at the merchant's price, for that profile; its clientOrderRef. */
export async function placeCardOrder(t: TwoMerchants, side: Side, profileId: string): Promise<string> {
  const placed = await t.ok('orders.place', await cardOrderInput(side, profileId));
  return placed.clientOrderRef;
}

export function orderDetailWhenOn(t: TwoMerchants, ref: string, predicate: (detail: OrderDetail) => boolean, timeoutMs = 20_000): Promise<OrderDetail> {
  return waitFor(
    `order ${ref}`,
    async () => {
      const detail = await t.ok('orders.get', { clientOrderRef: ref });
      return predicate(detail) ? detail : null;
    },
    timeoutMs,
  );
}
