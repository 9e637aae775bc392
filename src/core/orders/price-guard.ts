// The price guard (contract §7.7): right before an intent the merchant
// surely does not hold is sent, its product is read by GET /goods/{productRef}, and the intent goes out
// only when the merchant still asks at most the unit price the buyer confirmed and can supply the
// units. The interface cannot carry a price limit on POST /orders/create, so this narrows the window
// between what the buyer saw and what is charged; it cannot close it (the create answer's unitPrice is
// still compared afterwards). This file holds the judgement only; the outbox reads and parks.
import type { ProductDetail } from '../../shared/merchant/catalog';
import type { UnavailableReason } from './order-intent-store';

export type GuardVerdict =
  | { readonly kind: 'send' }
  | { readonly kind: 'priceChanged'; readonly unitPriceFen: number }
  | { readonly kind: 'unavailable'; readonly reason: UnavailableReason };

export interface GuardedIntent {
  readonly variantRef: number;
  readonly units: number;
  /** Null for an intent written before 0010 without a cached price: availability and stock are still checked. */
  readonly confirmedUnitPriceFen: number | null;
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
  return { kind: 'send' };
}
