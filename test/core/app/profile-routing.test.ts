// Which profile a forwarded call goes to (contract §15.2): the named one, else the owner of the
// reference the input carries (at the top, or inside the vault's card lists and export selections).
import { describe, expect, it } from 'vitest';
import { routeCall } from '../../../src/core/app/profile-routing';

describe('routeCall', () => {
  it('takes a valid profileId off the input and keeps an invalid one for the profile to refuse', () => {
    expect(routeCall({ productRef: 3, profileId: 'p2' })).toEqual({ profileId: 'p2', input: { productRef: 3 }, owned: null });
    expect(routeCall({ productRef: 3, profileId: '../p1' })).toEqual({ profileId: null, input: { productRef: 3, profileId: '../p1' }, owned: null });
  });

  it('finds the order of a top-level ref, a card list, and an export selection of cards or of an order', () => {
    expect(routeCall({ clientOrderRef: 'o_a', seq: 1 }).owned).toEqual({ kind: 'order', ref: 'o_a' });
    expect(routeCall({ cards: [{ clientOrderRef: 'o_b', seq: 1 }], flag: 'used', value: true }).owned).toEqual({ kind: 'order', ref: 'o_b' });
    expect(routeCall({ selection: { kind: 'cards', cards: [{ clientOrderRef: 'o_c', seq: 2 }] } }).owned).toEqual({ kind: 'order', ref: 'o_c' });
    expect(routeCall({ selection: { kind: 'order', clientOrderRef: 'o_d' }, format: 'xlsx' }).owned).toEqual({ kind: 'order', ref: 'o_d' });
  });

  it('leaves selections without a ref, empty lists and junk to the active profile', () => {
    expect(routeCall({ selection: { kind: 'notExported' } }).owned).toBeNull();
    expect(routeCall({ cards: [] }).owned).toBeNull();
    expect(routeCall({ cards: [null, 5] }).owned).toBeNull();
    expect(routeCall({ selection: 'x' }).owned).toBeNull();
    expect(routeCall(null).owned).toBeNull();
    expect(routeCall({ platformCaseRef: 'AS_1' }).owned).toEqual({ kind: 'case', ref: 'AS_1' });
  });
});
