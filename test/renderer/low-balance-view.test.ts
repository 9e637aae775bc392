// The low-balance banners, one per merchant (issue 17): another merchant's crossing is shown with its own
// balance and name, never judged by the active merchant's balance or line (which would hide it, or
// show the active balance under a banner about the other); the active one's goes by itself once its
// balance is back at or above its line. Driven through the store the notifications fill.
import { beforeEach, describe, expect, it } from 'vitest';
import { lowBalanceViews } from '../../src/renderer/src/lib/low-balance-view';
import { useLowBalanceStore } from '../../src/renderer/src/state/low-balance-store';

const A = { profileId: 'p1', name: 'Merchant A' };
const B = { profileId: 'p2', name: 'Merchant B' };
const store = () => useLowBalanceStore.getState();

beforeEach(() => {
  for (const key of Object.keys(store().crossings)) store().dismiss(key);
});

describe('low-balance banners per merchant', () => {
  it("shows B's crossing with B's balance and name while A is active and well above A's line", () => {
    store().crossed(4_000, B);
    const { shown, recovered } = lowBalanceViews(store().crossings, { profileId: 'p1', balanceFen: 900_000, lineFen: 10_000 }, true);
    expect(recovered).toEqual([]);
    expect(shown).toEqual([{ key: 'p2', balanceFen: 4_000, lineFen: null, merchant: B }]);
  });

  it("keeps A's and B's crossings apart; A's goes once A's balance is back at its line, B's stays", () => {
    store().crossed(5_000, A);
    store().crossed(4_000, B);
    // A second crossing of B replaces B's, it does not add a banner.
    store().crossed(3_500, B);
    const low = lowBalanceViews(store().crossings, { profileId: 'p1', balanceFen: 5_000, lineFen: 10_000 }, true);
    expect(low.shown).toEqual([
      { key: 'p1', balanceFen: 5_000, lineFen: 10_000, merchant: A },
      { key: 'p2', balanceFen: 3_500, lineFen: null, merchant: B },
    ]);
    const toppedUp = lowBalanceViews(store().crossings, { profileId: 'p1', balanceFen: 10_000, lineFen: 10_000 }, true);
    expect(toppedUp.recovered).toEqual(['p1']);
    expect(toppedUp.shown.map((view) => view.key)).toEqual(['p2']);
    for (const key of toppedUp.recovered) store().dismiss(key);
    expect(Object.keys(store().crossings)).toEqual(['p2']);
  });

  it('judges a crossing by the active balance once its merchant is the active one', () => {
    store().crossed(4_000, B);
    const switched = lowBalanceViews(store().crossings, { profileId: 'p2', balanceFen: 20_000, lineFen: 10_000 }, true);
    expect(switched).toEqual({ shown: [], recovered: ['p2'] });
  });

  it('with one merchant: the crossing that named none is the active one, shown with the balance now and the line, no name', () => {
    store().crossed(6_000);
    expect(lowBalanceViews(store().crossings, { profileId: 'p1', balanceFen: 5_500, lineFen: 10_000 }, false).shown).toEqual([{ key: '', balanceFen: 5_500, lineFen: 10_000, merchant: null }]);
    // A line of 0 is "no notice": nothing is shown.
    expect(lowBalanceViews(store().crossings, { profileId: 'p1', balanceFen: 5_500, lineFen: 0 }, false)).toEqual({ shown: [], recovered: [''] });
    // The balance not read yet: the crossing's own figure, kept until the line is known.
    expect(lowBalanceViews(store().crossings, { profileId: null, balanceFen: null, lineFen: null }, false).shown).toEqual([{ key: '', balanceFen: 6_000, lineFen: null, merchant: null }]);
  });

  it('dismissing one merchant leaves the other; dismissing an absent one changes nothing', () => {
    store().crossed(5_000, A);
    store().crossed(4_000, B);
    const before = store().crossings;
    store().dismiss('p9');
    expect(store().crossings).toBe(before);
    store().dismiss('p1');
    expect(Object.keys(store().crossings)).toEqual(['p2']);
  });
});
