// The two pure rules behind the price guard and the recharged account: the guard's verdict on a product detail (only the known
// value `available` supplies; an unknown availability is never taken for success; a lower price
// sends), and how a recharged account is masked for lists (never the whole value).
import { describe, expect, it } from 'vitest';
import type { ProductDetail } from '../../../src/shared/merchant/catalog';
import { maskAccountValue, maskRechargedAccount } from '../../../src/shared/recharged-account';
import { judgeGuard } from '../../../src/core/orders/price-guard';

function detail(over: { availability?: string; variant?: Partial<ProductDetail['variants'][number]> } = {}): ProductDetail {
  return {
    productRef: 1,
    catalogRef: 1,
    availability: over.availability ?? 'available',
    revision: 1,
    name: 'p',
    productType: 'card',
    description: '',
    imageUrl: null,
    variants: [
      {
        variantRef: 3,
        title: 'v',
        price: 1850,
        availability: 'available',
        inventoryType: 'tracked',
        remainingUnits: 5,
        purchaseSchemaRevision: 1,
        faceValue: null,
        ...over.variant,
      },
    ],
  };
}

const intent = { variantRef: 3, units: 2, confirmedUnitPriceFen: 1850, productType: 'card', purchaseSchemaRevision: 1 };

describe('judgeGuard', () => {
  it('sends at an equal or lower price', () => {
    expect(judgeGuard(detail(), intent)).toEqual({ kind: 'send' });
    expect(judgeGuard(detail({ variant: { price: 1700 } }), intent)).toEqual({ kind: 'send' });
  });

  it('parks a higher price with the price read', () => {
    expect(judgeGuard(detail({ variant: { price: 1851 } }), intent)).toEqual({ kind: 'priceChanged', unitPriceFen: 1851 });
  });

  it('parks what cannot be supplied, unknown availability values included', () => {
    expect(judgeGuard(detail({ availability: 'unavailable' }), intent)).toEqual({ kind: 'unavailable', reason: 'productUnavailable' });
    expect(judgeGuard(detail({ availability: 'paused' }), intent)).toEqual({ kind: 'unavailable', reason: 'productUnavailable' });
    expect(judgeGuard(detail({ variant: { availability: 'soldOut' } }), intent)).toEqual({ kind: 'unavailable', reason: 'variantUnavailable' });
    expect(judgeGuard(detail({ variant: { variantRef: 4 } }), intent)).toEqual({ kind: 'unavailable', reason: 'variantGone' });
    expect(judgeGuard(detail({ variant: { remainingUnits: 1 } }), intent)).toEqual({ kind: 'unavailable', reason: 'outOfStock' });
  });

  it('lets the merchant decide stock it does not publish, and checks no price it was never given', () => {
    expect(judgeGuard(detail({ variant: { inventoryType: 'undisclosed', remainingUnits: null } }), intent)).toEqual({ kind: 'send' });
    expect(judgeGuard(detail({ variant: { price: 9999 } }), { ...intent, confirmedUnitPriceFen: null })).toEqual({ kind: 'send' });
  });

  it('never sends a top-up checked against another template revision than the detail shows; card products carry none', () => {
    const topup = { ...intent, productType: 'topup' };
    expect(judgeGuard(detail(), topup)).toEqual({ kind: 'send' });
    expect(judgeGuard(detail({ variant: { purchaseSchemaRevision: 2 } }), topup)).toEqual({ kind: 'schemaChanged', purchaseSchemaRevision: 2 });
    expect(judgeGuard(detail({ variant: { purchaseSchemaRevision: 2 } }), intent)).toEqual({ kind: 'send' });
    // A higher price is asked first: confirming it also re-checks the form.
    expect(judgeGuard(detail({ variant: { purchaseSchemaRevision: 2, price: 1851 } }), topup)).toEqual({ kind: 'priceChanged', unitPriceFen: 1851 });
  });
});

describe('maskRechargedAccount', () => {
  it('shows the first group masked and counts the others', () => {
    expect(maskAccountValue('13800138000')).toBe('138****8000');
    expect(maskAccountValue('a@b.cn')).toBe('a***n');
    expect(maskAccountValue('123')).toBe('****');
    expect(maskRechargedAccount([{ mobile: '13800138000' }])).toBe('138****8000');
    expect(maskRechargedAccount([{ account: '1234567890', server: 'S1' }, { account: '9876543210', server: 'S2' }, { account: 'x', server: 'y' }])).toBe('123****7890 **** +2');
    expect(maskRechargedAccount(null)).toBeNull();
    // A value picked from the options (a zone) is not an account: left out of the mask, never `a***q`.
    expect(maskRechargedAccount([{ zone: 'android-qq', account: '123456789' }], (fieldRef) => fieldRef === 'zone')).toBe('123****6789');
    expect(maskRechargedAccount([{ zone: 'android-qq' }, { zone: 'ios-qq' }], (fieldRef) => fieldRef === 'zone')).toBe('+1');
    expect(maskRechargedAccount([{ zone: 'android-qq' }], (fieldRef) => fieldRef === 'zone')).toBeNull();
    expect(maskRechargedAccount([])).toBeNull();
  });
});
