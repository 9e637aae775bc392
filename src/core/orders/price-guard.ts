// The price guard (contract §7.7): right before an intent the merchant
// surely does not hold is sent, its product is read by GET /goods/{productRef}, and the intent goes out
// only when the merchant still asks at most the unit price the buyer confirmed and can supply the
// units. The interface cannot carry a price limit on POST /orders/create, so this narrows the window
// between what the buyer saw and what is charged; it cannot close it (the create answer's unitPrice is
// still compared afterwards). A top-up whose variant now shows another purchaseSchemaRevision than the
// one it was checked against is not sent either (contract §7.10). This file holds the judgement only; the outbox reads and parks.
import type { ProductDetail } from '../../shared/merchant/catalog';
import type { UnavailableReason } from './order-intent-store';

export type GuardVerdict =
  | { readonly kind: 'send' }
  | { readonly kind: 'priceChanged'; readonly unitPriceFen: number }
  | { readonly kind: 'unavailable'; readonly reason: UnavailableReason }
  /** The detail shows another purchaseSchemaRevision than the top-up was checked against: never sent stale. */
  | { readonly kind: 'schemaChanged'; readonly purchaseSchemaRevision: number };

export interface GuardedIntent {
  readonly variantRef: number;
  readonly units: number;
  /** Null for an intent written before 0010 without a cached price: availability and stock are still checked. */
  readonly confirmedUnitPriceFen: number | null;
  /** What the intent was checked against; sent only for top-ups (card products take none, interface v1 §4.2.2). */
  readonly productType: string;
  readonly purchaseSchemaRevision: number | null;
}

/**
 * Only the known value `available` supplies: an unknown availability is kept raw elsewhere and never
 * taken for success here. An unknown inventory type says nothing about stock, so the merchant decides
 * (422102 if it cannot supply). A lower price is sent: the buyer pays less than confirmed, never more.
 */
export function judgeGuard(detail: ProductDetail, intent: GuardedIntent): GuardVerdict {
  if (detail.availability !== 'available') return { kind: 'unavailable', reason: 'productUnavailable' };
  const variant = detail.variants.find((v) => v.variantRef === intent.variantRef);
  if (variant === undefined) return { kind: 'unavailable', reason: 'variantGone' };
  if (variant.availability !== 'available') return { kind: 'unavailable', reason: 'variantUnavailable' };
  if (variant.inventoryType === 'tracked' && (variant.remainingUnits ?? 0) < intent.units) return { kind: 'unavailable', reason: 'outOfStock' };
  if (intent.confirmedUnitPriceFen !== null && variant.price > intent.confirmedUnitPriceFen) return { kind: 'priceChanged', unitPriceFen: variant.price };
  // The merchant would answer 409101: the same question to the buyer, without a create that must fail.
  if (intent.productType !== 'card' && intent.purchaseSchemaRevision !== null && variant.purchaseSchemaRevision !== intent.purchaseSchemaRevision) {
    return { kind: 'schemaChanged', purchaseSchemaRevision: variant.purchaseSchemaRevision };
  }
  return { kind: 'send' };
}
