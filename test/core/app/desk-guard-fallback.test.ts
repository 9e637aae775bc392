// The price guard and the fallback (issue 24 point 4, contract §7.7 and §15.4) through the desk service
// with two sandboxes (A = p1, B = p2): the merchant changes A behind the app's back after its cache was
// filled; the guard's read parks the order at A (out of stock, or above the rule's limit) and is
// announced as catalog.changed at once, so the link's members, the compare rows and the offers show
// what the guard read; the offer at B is there; withdrawing A and ordering at B charges B only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventName } from '../../../src/shared/ipc/contract';
import type { VariantKey } from '../../../src/shared/ipc/views/compare';
import { entriesFor, fen, goodCard, must, type ControlProduct } from '../../support/orders-harness';
import { waitFor, type Merchant } from './app-kit';
import { openTwoMerchantDesk, type TwoMerchantDesk } from './desk-kit';

const SCALE = 50;
const LIMIT_FEN = 2500;
const UNITS = 2;

const SETUP = {
  soldOut: { a: { price: '22.00', tracked: 50 }, b: { price: '24.50' } },
  raised: { a: { price: '22.00' }, b: { price: '24.00' } },
  atB: { a: { price: '21.00' }, b: { price: '23.00', tracked: 40 } },
} as const;
type Case = keyof typeof SETUP;
const CASES = Object.keys(SETUP) as Case[];

const picked: Record<'a' | 'b', Map<Case, ControlProduct>> = { a: new Map(), b: new Map() };
let env: TwoMerchantDesk;
const events: { name: EventName; payload: unknown }[] = [];

const plainCard = (p: ControlProduct): boolean => {
  const v = p.variants[0];
  return p.variants.length === 1 && v !== undefined && v.variantRef === 0 && goodCard(p, v) && v.entryMode === 'none';
};

async function prepare(merchant: Merchant, which: 'a' | 'b'): Promise<void> {
  const cards = (await merchant.products()).filter(plainCard);
  for (const [i, name] of CASES.entries()) {
    const product = must(cards[i], `plain card product #${i} at merchant ${which}`);
    picked[which].set(name, product);
    const setup = SETUP[name][which];
    await merchant.control('POST', `/control/products/${product.productRef}`, { variantRef: 0, price: setup.price });
    if ('tracked' in setup) await merchant.control('POST', `/control/products/${product.productRef}`, { variantRef: 0, inventoryType: 'tracked', remainingUnits: setup.tracked });
  }
}

const keyOf = (which: 'a' | 'b', name: Case): VariantKey => ({ profileId: which === 'a' ? 'p1' : 'p2', productRef: must(picked[which].get(name), name).productRef, variantRef: 0 });
const changeAt = (which: 'a' | 'b', name: Case, change: Record<string, unknown>): Promise<unknown> =>
  env[which].merchant.control('POST', `/control/products/${keyOf(which, name).productRef}`, { variantRef: 0, ...change });

/** A catalog.changed naming the product was pushed since `from` (the events seen so far). */
const announced = (productRef: number, from: number): boolean =>
  events.slice(from).some((event) => {
    if (event.name !== 'catalog.changed' || typeof event.payload !== 'object' || event.payload === null || !('productRefs' in event.payload)) return false;
    return Array.isArray(event.payload.productRefs) && event.payload.productRefs.includes(productRef);
  });

async function linkWithRule(name: Case): Promise<number> {
  const link = await env.ok('links.link', { a: keyOf('a', name), b: keyOf('b', name) });
  await env.ok('links.setRule', { linkId: link.linkId, rule: { maxUnitPriceFen: LIMIT_FEN, preference: ['p1', 'p2'] } });
  return link.linkId;
}

const memberAt = async (key: VariantKey, profileId: string) => must((await env.ok('links.forVariant', { key }))?.members.find((m) => m.merchant.profileId === profileId), `member at ${profileId}`);

async function parkedAs(clientOrderRef: string, status: string) {
  return waitFor(`the order parked as ${status}`, async () => {
    const detail = await env.ok('orders.get', { clientOrderRef });
    if (detail.intentStatus !== 'queued' && detail.intentStatus !== 'sending' && detail.intentStatus !== status) throw new Error(`the order went ${detail.intentStatus}`);
    return detail.intentStatus === status ? detail : null;
  });
}

beforeAll(async () => {
  env = await openTwoMerchantDesk(SCALE, prepare);
  env.service.onEvent((name, payload) => events.push({ name, payload }));
}, 240_000);

afterAll(async () => {
  await env?.close();
});

describe("the guard's read reaches the links, the compare rows and the offers", () => {
  it('A sold out behind the app: parked as unavailable, A shown out of stock at once, B offered under the rule; withdrawing A and ordering at B charges B only', async () => {
    const [a, b] = [keyOf('a', 'soldOut'), keyOf('b', 'soldOut')];
    await linkWithRule('soldOut');
    expect(await memberAt(a, 'p1')).toMatchObject({ unitPriceFen: 2200, supply: 'available', remainingUnits: 50 });
    expect((await env.ok('orders.offers', { key: a, units: UNITS })).reason).toBeNull();
    const [bookA, bookB] = [await env.a.ledger(), await env.b.ledger()];

    await changeAt('a', 'soldOut', { remainingUnits: 0 });
    const seen = events.length;
    const placed = await env.ok('orders.place', { ...a, units: UNITS, unitPriceFen: 2200 });
    const parked = await parkedAs(placed.clientOrderRef, 'unavailable');
    expect(parked.unavailableReason).toBe('outOfStock');
    await waitFor('catalog.changed naming A', () => (announced(a.productRef, seen) ? true : null));

    // What the guard read, everywhere the buyer compares: no sync ran.
    expect(await memberAt(a, 'p1')).toMatchObject({ supply: 'outOfStock', remainingUnits: 0 });
    const compared = await env.ok('catalog.compare', { text: must(picked.a.get('soldOut'), 'A').name, limit: 50 });
    expect(compared.rows.find((row) => row.merchant.profileId === 'p1' && row.product.productRef === a.productRef)?.product.inStock).toBe(false);
    const offers = await env.ok('orders.offers', { key: a, units: UNITS });
    expect(offers.reason).toBe('outOfStock');
    expect(offers.ruleChoice).toEqual(b);
    expect(offers.alternatives[0]).toMatchObject({ merchant: { profileId: 'p2' }, unitPriceFen: 2450, canSupply: true, withinLimit: true });

    // The buyer takes B: A's intent (never sent) is withdrawn, B's order is its own, at B's price.
    expect((await env.ok('orders.withdraw', { clientOrderRef: placed.clientOrderRef })).outcome).toBe('withdrawn');
    const atB = await env.ok('orders.place', { ...b, units: UNITS, unitPriceFen: 2450 });
    await waitFor('the order accepted at B', async () => ((await env.ok('orders.get', { clientOrderRef: atB.clientOrderRef })).intentStatus === 'accepted' ? true : null));
    expect(entriesFor(await env.b.ledger(), atB.clientOrderRef, 'charge').map((e) => fen(e.amount))).toEqual([UNITS * 2450]);
    expect((await env.b.ledger()).entries.length - bookB.entries.length).toBe(1);
    expect((await env.a.ledger()).entries).toEqual(bookA.entries);
  });

  it("A's price raised above the rule's limit: parked as price_changed, the link shows the new price and the offers say aboveLimit with B chosen", async () => {
    const [a, b] = [keyOf('a', 'raised'), keyOf('b', 'raised')];
    await linkWithRule('raised');
    const bookA = await env.a.ledger();
    await changeAt('a', 'raised', { price: '26.00' });
    const seen = events.length;
    const placed = await env.ok('orders.place', { ...a, units: UNITS, unitPriceFen: 2200 });
    expect((await parkedAs(placed.clientOrderRef, 'price_changed')).guardUnitPriceFen).toBe(2600);
    await waitFor('catalog.changed naming A', () => (announced(a.productRef, seen) ? true : null));
    expect(await memberAt(a, 'p1')).toMatchObject({ unitPriceFen: 2600, supply: 'available' });
    const offers = await env.ok('orders.offers', { key: a, units: UNITS });
    expect(offers).toMatchObject({ reason: 'aboveLimit', ruleChoice: b, current: { unitPriceFen: 2600, withinLimit: false } });
    expect((await env.ok('orders.withdraw', { clientOrderRef: placed.clientOrderRef })).outcome).toBe('withdrawn');
    expect((await env.a.ledger()).entries).toEqual(bookA.entries);
  });

  it('a park at the merchant that is not the active one is announced too (the compare screen shows every merchant)', async () => {
    const b = keyOf('b', 'atB');
    await linkWithRule('atB');
    expect((await env.ok('profiles.list')).activeId).toBe('p1');
    const bookB = await env.b.ledger();
    await changeAt('b', 'atB', { remainingUnits: 1 });
    const seen = events.length;
    const placed = await env.ok('orders.place', { ...b, units: UNITS, unitPriceFen: 2300 });
    expect((await parkedAs(placed.clientOrderRef, 'unavailable')).unavailableReason).toBe('outOfStock');
    await waitFor("catalog.changed naming B's product", () => (announced(b.productRef, seen) ? true : null));
    expect(await memberAt(b, 'p2')).toMatchObject({ supply: 'available', remainingUnits: 1 });
    const offers = await env.ok('orders.offers', { key: b, units: UNITS });
    expect(offers).toMatchObject({ reason: 'notEnoughStock', ruleChoice: keyOf('a', 'atB') });
    expect((await env.ok('orders.withdraw', { clientOrderRef: placed.clientOrderRef })).outcome).toBe('withdrawn');
    expect((await env.b.ledger()).entries).toEqual(bookB.entries);
  });
});
