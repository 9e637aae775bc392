// The product two sandboxes both sell, as the two-merchant e2e files pick it: a plain card (one variant,
// delivered at once, nothing to fill in) under one name that is unique in each catalog. The tests that
// empty a merchant's stock need a counted inventory; the others an unlimited one.
import type { ControlProduct, ControlVariant, Ledger } from './sandbox-control';

export interface PlainRule {
  /** The variant must allow at least this many units. */
  readonly units: number;
  /** 'unlimited': never runs out during a test; 'any': a counted stock is welcome (it is set to 0 on purpose). */
  readonly inventory: 'unlimited' | 'any';
}

export interface SharedProduct {
  readonly name: string;
  readonly a: ControlProduct;
  readonly b: ControlProduct;
}

export function plainCard(product: ControlProduct, rule: PlainRule): ControlVariant | null {
  const variant = product.variants[0];
  const ok =
    product.variants.length === 1 &&
    variant !== undefined &&
    variant.variantRef === 0 &&
    product.productType === 'card' &&
    product.availability === 'available' &&
    variant.availability === 'available' &&
    (rule.inventory === 'any' || variant.inventoryType === 'unlimited') &&
    variant.supply === 'succeed' &&
    variant.entryMode === 'none' &&
    variant.unitRule.min === 1 &&
    variant.unitRule.step === 1 &&
    variant.unitRule.max >= rule.units;
  return ok ? variant : null;
}

/** A product both merchants sell under one name (unique in each catalog), plain at both. */
export function pickSharedProduct(atA: readonly ControlProduct[], atB: readonly ControlProduct[], rule: PlainRule): SharedProduct {
  const named = (list: readonly ControlProduct[], name: string): ControlProduct[] => list.filter((p) => p.name === name);
  for (const a of atA) {
    if (plainCard(a, rule) === null || named(atA, a.name).length !== 1) continue;
    const [b, ...more] = named(atB, a.name);
    if (b !== undefined && more.length === 0 && plainCard(b, rule) !== null) return { name: a.name, a, b };
  }
  throw new Error('no plain card product sold by both sandboxes under one name');
}

export const chargesOf = (book: Ledger): Ledger['entries'] => book.entries.filter((entry) => entry.kind === 'charge');
