// One supply status per variant: the product's availability, the variant's, its
// inventory type and stock, in that order; anything unknown stays unknown and is never buyable.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canBuy, exceedsStock, productSupplyStatus, variantSupplyStatus } from '../../../src/shared/merchant/supply-status';

const variant = (availability: string, inventoryType: string, remainingUnits: number | null) => ({ availability, inventoryType, remainingUnits });

describe('variantSupplyStatus', () => {
  it('says one thing for each combination a merchant sends', () => {
    expect(variantSupplyStatus('available', variant('available', 'tracked', 3))).toEqual({ kind: 'available', remainingUnits: 3, unlimited: false });
    expect(variantSupplyStatus('available', variant('available', 'tracked', 0))).toEqual({ kind: 'outOfStock' });
    expect(variantSupplyStatus('available', variant('available', 'unlimited', null))).toEqual({ kind: 'available', remainingUnits: null, unlimited: true });
    expect(variantSupplyStatus('available', variant('available', 'undisclosed', null))).toEqual({ kind: 'available', remainingUnits: null, unlimited: false });
    expect(variantSupplyStatus('available', variant('unavailable', 'tracked', 9))).toEqual({ kind: 'unavailable' });
    // An unavailable product sells no variant, whatever the variant says.
    expect(variantSupplyStatus('unavailable', variant('available', 'unlimited', null))).toEqual({ kind: 'unavailable' });
    expect(variantSupplyStatus('paused', variant('available', 'unlimited', null))).toEqual({ kind: 'unknown', raw: 'paused' });
    expect(variantSupplyStatus('available', variant('Available', 'unlimited', null))).toEqual({ kind: 'unknown', raw: 'Available' });
    expect(variantSupplyStatus('available', variant('available', 'preorder', 5))).toEqual({ kind: 'unknown', raw: 'preorder' });
    expect(variantSupplyStatus('available', variant('available', 'tracked', null))).toEqual({ kind: 'unknown', raw: 'tracked/null' });
  });

  it('is buyable only when both say available and stock is left or not counted', () => {
    const text = fc.oneof(fc.constantFrom('available', 'unavailable', 'tracked', 'unlimited', 'undisclosed'), fc.string({ maxLength: 12 }));
    fc.assert(
      fc.property(text, text, text, fc.option(fc.integer({ min: -5, max: 50 })), (product, availability, inventory, remaining) => {
        const status = variantSupplyStatus(product, variant(availability, inventory, remaining));
        const expected =
          product === 'available' &&
          availability === 'available' &&
          (inventory === 'unlimited' || inventory === 'undisclosed' || (inventory === 'tracked' && remaining !== null && remaining > 0));
        expect(canBuy(status)).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('knows when the units asked for are more than the published stock', () => {
    const tracked = variantSupplyStatus('available', variant('available', 'tracked', 3));
    expect(exceedsStock(tracked, 3)).toBe(false);
    expect(exceedsStock(tracked, 4)).toBe(true);
    expect(exceedsStock(variantSupplyStatus('available', variant('available', 'undisclosed', null)), 1000)).toBe(false);
  });
});

describe('productSupplyStatus', () => {
  it('is one status for a catalog row', () => {
    expect(productSupplyStatus('available', true).kind).toBe('available');
    expect(productSupplyStatus('available', false).kind).toBe('outOfStock');
    expect(productSupplyStatus('unavailable', true).kind).toBe('unavailable');
    expect(productSupplyStatus('soon', true)).toEqual({ kind: 'unknown', raw: 'soon' });
  });
});
