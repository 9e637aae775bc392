// The compare as pure functions: equal books find nothing; each change of one side is found as its
// kind; an unknown state is compared raw and counted apart; look-ups are planned only where the list
// cannot decide (a sent intent missing from it, the card count of every completed card order).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareBooks, mismatchFields, planLookups, unknownStateCount, type LocalBook, type LocalOrderFacts, type MerchantOrderFacts } from '../../../src/core/books/reconcile-compare';

const merchantOrder = (ref: string, over: Partial<MerchantOrderFacts> = {}): MerchantOrderFacts => ({
  clientOrderRef: ref,
  platformOrderRef: `P${ref}`,
  productName: '点卡',
  productType: 'card',
  units: 2,
  totalFen: 2000,
  refundedFen: 0,
  state: 'completed',
  createdAt: 1_000,
  revision: 3,
  refunds: [],
  ...over,
});

const localOf = (m: MerchantOrderFacts): LocalOrderFacts => ({ ...m });

function bookOf(orders: readonly MerchantOrderFacts[], over: Partial<LocalBook> = {}): LocalBook {
  return {
    intents: new Map(orders.map((o) => [o.clientOrderRef, { clientOrderRef: o.clientOrderRef, status: 'accepted', parkedFromUnknown: false, units: o.units, productType: o.productType, createdAt: o.createdAt }])),
    orders: new Map(orders.map((o) => [o.clientOrderRef, localOf(o)])),
    vaultCards: new Map(orders.map((o) => [o.clientOrderRef, o.state === 'completed' && o.productType === 'card' ? o.units : 0])),
    foreign: new Set(),
    ...over,
  };
}

const orderArb = fc.record({
  clientOrderRef: fc.stringMatching(/^[A-Za-z0-9]{4,12}$/),
  platformOrderRef: fc.stringMatching(/^\d{6}$/),
  productName: fc.string(),
  productType: fc.constantFrom('card', 'topup'),
  units: fc.integer({ min: 1, max: 50 }),
  totalFen: fc.integer({ min: 0, max: 10_000_000 }),
  refundedFen: fc.integer({ min: 0, max: 100 }),
  state: fc.constantFrom('pending', 'processing', 'completed', 'failed', 'cancelled', 'refunded', 'shipped_elsewhere'),
  createdAt: fc.integer({ min: 0, max: 2_000_000_000 }),
  revision: fc.integer({ min: 0, max: 100 }),
  // A refund's ref is unique within its order (the merchant's key for it; the app stores it so).
  refunds: fc.uniqueArray(fc.record({ refundRef: fc.stringMatching(/^R\d{3}$/), amountFen: fc.integer({ min: 1, max: 100 }), state: fc.constantFrom('pending', 'succeeded', 'rejected') }), {
    maxLength: 2,
    selector: (refund) => refund.refundRef,
  }),
});
const distinct = fc.uniqueArray(orderArb, { selector: (o) => o.clientOrderRef, maxLength: 20 });

describe('reconcile compare', () => {
  it('finds nothing when the books equal the merchant (any orders, any states)', () => {
    fc.assert(
      fc.property(distinct, (orders) => {
        const book = bookOf(orders);
        const cardOrders = orders.filter((o) => o.productType === 'card' && o.state === 'completed');
        expect(planLookups(orders, book, () => true)).toEqual({ missing: [], cards: cardOrders.map((o) => o.clientOrderRef) });
        // Every completed card order's detail is read; one card per unit everywhere is no difference.
        const details = new Map(cardOrders.map((o) => [o.clientOrderRef, { found: true as const, order: o, cards: o.units }]));
        expect(compareBooks(orders, book, details).differences).toEqual([]);
      }),
    );
  });

  it('finds a changed field of one order as a mismatch naming exactly that field', () => {
    const changes: [Partial<MerchantOrderFacts>, string][] = [
      [{ state: 'failed' }, 'state'],
      [{ totalFen: 1999 }, 'amount'],
      [{ units: 3 }, 'units'],
      [{ refundedFen: 500, refunds: [{ refundRef: 'R1', amountFen: 500, state: 'succeeded' }] }, 'refunds'],
    ];
    for (const [change, field] of changes) {
      const local = merchantOrder('A', { productType: 'topup' });
      expect(mismatchFields({ ...local, ...change }, localOf(local))).toEqual([field]);
    }
    expect(mismatchFields(merchantOrder('A'), null)).toEqual(['notStored']);
  });

  it('finds an order the app never placed as foreign, unless it was recorded', () => {
    fc.assert(
      fc.property(distinct, orderArb, (orders, extra) => {
        fc.pre(!orders.some((o) => o.clientOrderRef === extra.clientOrderRef));
        const book = bookOf(orders);
        const found = compareBooks([...orders, extra], book, new Map()).differences;
        expect(found.map((d) => `${d.kind}:${d.clientOrderRef}`)).toEqual([`foreign:${extra.clientOrderRef}`]);
        expect(compareBooks([...orders, extra], { ...book, foreign: new Set([extra.clientOrderRef]) }, new Map()).differences).toEqual([]);
      }),
    );
  });

  it('asks the merchant for a sent intent the list lacks, and reports it never received only on "not found"', () => {
    const order = merchantOrder('A');
    const book = bookOf([order]);
    expect(planLookups([], book, () => true).missing).toEqual(['A']);
    expect(planLookups([], book, () => false).missing).toEqual([]);
    const notFound = compareBooks([], book, new Map([['A', { found: false }]])).differences;
    expect(notFound).toMatchObject([{ kind: 'notReceived', clientOrderRef: 'A', intentStatus: 'accepted' }]);
    // Found by look-up (listed under another day): compared, nothing differs.
    expect(compareBooks([], book, new Map([['A', { found: true, order, cards: 2 }]])).differences).toEqual([]);
  });

  it('never expects a queued intent at the merchant, and looks up an unknown outcome instead of assuming it', () => {
    const order = merchantOrder('A');
    const base = bookOf([order]);
    const withStatus = (status: string, parkedFromUnknown = false): LocalBook => ({
      ...base,
      orders: new Map(),
      intents: new Map([['A', { clientOrderRef: 'A', status, parkedFromUnknown, units: 2, productType: 'card', createdAt: 1_000 }]]),
    });
    for (const status of ['queued', 'needs_confirmation', 'price_changed', 'rejected', 'withdrawn']) expect(planLookups([], withStatus(status), () => true).missing).toEqual([]);
    for (const status of ['unknown', 'sending', 'withdrawing']) expect(planLookups([], withStatus(status), () => true).missing).toEqual(['A']);
    expect(planLookups([], withStatus('needs_key', true), () => true).missing).toEqual(['A']);
  });

  it('plans a card look-up for every completed card order of the app, and finds a card the merchant took back', () => {
    const order = merchantOrder('A');
    const book = bookOf([order]);
    // The vault and the units agree (2 and 2): only the merchant's detail can say it now holds 1.
    expect(planLookups([order], book, () => true).cards).toEqual(['A']);
    expect(compareBooks([order], book, new Map([['A', { found: true, order, cards: 1 }]])).differences).toMatchObject([{ kind: 'cards', merchantCards: 1, vaultCards: 2, units: 2 }]);
    expect(compareBooks([order], book, new Map([['A', { found: true, order, cards: 2 }]])).differences).toEqual([]);
    // A foreign order's cards are not the app's: never looked up for them.
    expect(planLookups([merchantOrder('F')], book, () => true).cards).toEqual([]);
    const short = { ...book, vaultCards: new Map([['A', 1]]) };
    expect(planLookups([order], short, () => true).cards).toEqual(['A']);
    expect(compareBooks([order], short, new Map([['A', { found: true, order, cards: 2 }]])).differences).toMatchObject([{ kind: 'cards', merchantCards: 2, vaultCards: 1, units: 2 }]);
    expect(planLookups([{ ...order, state: 'pending' }], short, () => true).cards).toEqual([]);
    expect(planLookups([{ ...order, productType: 'topup' }], short, () => true).cards).toEqual([]);
  });

  it('keeps an unknown state raw: compared exactly, counted apart, never as completed', () => {
    const odd = merchantOrder('A', { state: 'on_hold' });
    expect(unknownStateCount([odd, merchantOrder('B')])).toBe(1);
    const book = bookOf([merchantOrder('A')]);
    expect(compareBooks([odd], book, new Map()).differences).toMatchObject([{ kind: 'mismatch', fields: ['state'], merchant: { state: 'on_hold' } }]);
  });
});
