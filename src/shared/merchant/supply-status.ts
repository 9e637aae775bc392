// One status per variant (and per catalog row) from the merchant's availability, inventoryType and
// remainingUnits: can the merchant supply it now, as far as the cache knows? The screens show this
// one value instead of "Available" beside "Out of stock", and Buy follows it. An unknown value in any
// of the three is kept raw and never purchasable (interface v1 §3.1).
import { classifyAvailability, classifyInventoryType } from './known-values';

export type SupplyStatus =
  | {
      readonly kind: 'available';
      /** Units left when the merchant publishes them (tracked); null when unlimited or undisclosed. */
      readonly remainingUnits: number | null;
      readonly unlimited: boolean;
    }
  | { readonly kind: 'outOfStock' }
  | { readonly kind: 'unavailable' }
  | { readonly kind: 'unknown'; readonly raw: string };

export interface VariantSupplyFacts {
  readonly availability: string;
  readonly inventoryType: string;
  readonly remainingUnits: number | null;
}

/** The product's own availability first (an unavailable product sells no variant), then the variant's. */
export function variantSupplyStatus(productAvailability: string, variant: VariantSupplyFacts): SupplyStatus {
  for (const raw of [productAvailability, variant.availability]) {
    const availability = classifyAvailability(raw);
    if (availability.kind === 'unknown') return { kind: 'unknown', raw: availability.raw };
    if (availability.value === 'unavailable') return { kind: 'unavailable' };
  }
  const inventory = classifyInventoryType(variant.inventoryType);
  if (inventory.kind === 'unknown') return { kind: 'unknown', raw: inventory.raw };
  if (inventory.value === 'tracked') {
    // A tracked variant must publish a count (interface v1 §2.4); one that does not is not known to be suppliable.
    if (variant.remainingUnits === null) return { kind: 'unknown', raw: 'tracked/null' };
    if (variant.remainingUnits <= 0) return { kind: 'outOfStock' };
    return { kind: 'available', remainingUnits: variant.remainingUnits, unlimited: false };
  }
  return { kind: 'available', remainingUnits: null, unlimited: inventory.value === 'unlimited' };
}

/**
 * A catalog row: the product's availability and whether any variant can be supplied (the cache's
 * in-stock summary, 0005). No variant in stock reads as out of stock.
 */
export function productSupplyStatus(productAvailability: string, anyVariantInStock: boolean): SupplyStatus {
  const availability = classifyAvailability(productAvailability);
  if (availability.kind === 'unknown') return { kind: 'unknown', raw: availability.raw };
  if (availability.value === 'unavailable') return { kind: 'unavailable' };
  return anyVariantInStock ? { kind: 'available', remainingUnits: null, unlimited: false } : { kind: 'outOfStock' };
}

/** Buy is offered only for a status that says the merchant can supply now. */
export function canBuy(status: SupplyStatus): boolean {
  return status.kind === 'available';
}

/** The units asked for are more than the published stock (only knowable for tracked variants). */
export function exceedsStock(status: SupplyStatus, units: number): boolean {
  return status.kind === 'available' && status.remainingUnits !== null && units > status.remainingUnits;
}
