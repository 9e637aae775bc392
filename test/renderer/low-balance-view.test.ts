// The low-balance banners, one per merchant (issue 17), driven through the store the notifications and
// account.changed events fill: another merchant's crossing is shown with its own balance and name,
// never judged by the active merchant's balance or line; the active one's follows the balances core
// sends after it and goes once one is back at or above the line; and a balance read before the
// crossing (a render still holding it) cannot lower the banner the moment it is raised.
import { beforeEach, describe, expect, it } from 'vitest';
import { lowBalanceViews } from '../../src/renderer/src/lib/low-balance-view';
import { useLowBalanceStore } from '../../src/renderer/src/state/low-balance-store';

const A = { profileId: 'p1', name: 'Merchant A' };
const B = { profileId: 'p2', name: 'Merchant B' };
const store = () => useLowBalanceStore.getState();
const views = (activeId: string | null, lineFen: number | null, several = true) => lowBalanceViews(store().crossings, activeId, lineFen, several);

beforeEach(() => {
  for (const key of Object.keys(store().crossings)) store().dismiss(key);
});

describe('low-balance banners per merchant', () => {
  it("shows B's crossing with B's balance and name while A is active, whatever A's balance", () => {
    store().crossed(4_000, B);
    // A's balances (account.changed of the active profile) do not touch B's crossing.
    store().balanceSeen(900_000, 'p1');
    expect(views('p1', 10_000)).toEqual({ shown: [{ key: 'p2', balanceFen: 4_000, lineFen: null, merchant: B }], recovered: [] });
  });

  it("keeps A's and B's crossings apart; A's goes once A's balance is back at its line, B's stays", () => {
    store().crossed(5_000, A);
    store().crossed(4_000, B);
    // A second crossing of B replaces B's, it does not add a banner.
    store().crossed(3_500, B);
    expect(views('p1', 10_000).shown).toEqual([
      { key: 'p1', balanceFen: 5_000, lineFen: 10_000, merchant: A },
      { key: 'p2', balanceFen: 3_500, lineFen: null, merchant: B },
    ]);
    store().balanceSeen(10_000, 'p1');
    const toppedUp = views('p1', 10_000);
    expect(toppedUp.recovered).toEqual(['p1']);
    expect(toppedUp.shown.map((view) => view.key)).toEqual(['p2']);
    for (const key of toppedUp.recovered) store().dismiss(key);
    expect(Object.keys(store().crossings)).toEqual(['p2']);
  });

  it('is judged by the balances that come after it once its merchant is the active one', () => {
    store().crossed(4_000, B);
    expect(views('p2', 10_000).shown).toEqual([{ key: 'p2', balanceFen: 4_000, lineFen: 10_000, merchant: B }]);
    store().balanceSeen(20_000, 'p2');
    expect(views('p2', 10_000)).toEqual({ shown: [], recovered: ['p2'] });
  });

  it('with one merchant: shown with the latest balance and the line, no name; the header still holding the balance from before does not lower it', () => {
    // The header read 9,981.50 before the order (the line is that); the crossing says 9,963.00.
    store().balanceSeen(998_150, 'p1');
    store().crossed(996_300);
    expect(views('p1', 998_150, false).shown).toEqual([{ key: '', balanceFen: 996_300, lineFen: 998_150, merchant: null }]);
    store().balanceSeen(995_000, 'p1');
    expect(views('p1', 998_150, false).shown[0]?.balanceFen).toBe(995_000);
    // A line of 0 is "no notice": nothing is shown.
    expect(views('p1', 0, false)).toEqual({ shown: [], recovered: [''] });
    // The line not read yet: the banner stays, without a line to name.
    expect(views(null, null, false).shown).toEqual([{ key: '', balanceFen: 995_000, lineFen: null, merchant: null }]);
  });

  it('dismissing one merchant leaves the other; dismissing an absent one, or a balance with no crossing, changes nothing', () => {
    store().crossed(5_000, A);
    store().crossed(4_000, B);
    const before = store().crossings;
    store().dismiss('p9');
    store().balanceSeen(5_000, 'p1');
    expect(store().crossings).toBe(before);
    store().dismiss('p1');
    expect(Object.keys(store().crossings)).toEqual(['p2']);
  });
});
