// Compare and fall back (contract §15.4) through the desk service with TWO sandboxes at once (merchant
// A = profile p1, merchant B = profile p2; different catalogs and prices): one search across both
// catalogs; links and a rule; the offers an order dialog shows; a batch for a variant A cannot supply
// (or prices above the rule's limit) goes to B under the rule, charged in B's ledger at B's price at
// or below the limit and nothing at A; B above the limit places nothing; without a rule nothing moves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchStatusView } from '../../../src/shared/ipc/views/batch';
import type { VariantKey } from '../../../src/shared/ipc/views/compare';
import { entriesFor, fen, goodCard, must, type ControlProduct } from '../../support/orders-harness';
import { base64, utf8Bom } from '../batch/batch-fixtures';
import { parseCsvLines } from '../export/file-readers';
import { expectRefused, waitFor, type Merchant } from './app-kit';
import { openTwoMerchantDesk, type TwoMerchantDesk } from './desk-kit';

const SCALE = 50;
const LIMIT_FEN = 2800;

/** Four pairs of plain card products, one at each merchant, with the prices and stock each test needs. */
const SETUP = {
  offers: { a: { price: '30.00', outOfStock: false }, b: { price: '25.00' } },
  batch: { a: { price: '27.00', outOfStock: true }, b: { price: '26.00' } },
  aboveLimit: { a: { price: '30.00', outOfStock: false }, b: { price: '35.00' } },
  noRule: { a: { price: '27.00', outOfStock: true }, b: { price: '20.00' } },
  notEnough: { a: { price: '27.00', remaining: 2 }, b: { price: '26.50' } },
  offline: { a: { price: '31.00', outOfStock: true }, b: { price: '24.00' } },
} as const;
type Case = keyof typeof SETUP;
const CASES = Object.keys(SETUP) as Case[];

const picked: Record<'a' | 'b', Map<Case, ControlProduct>> = { a: new Map(), b: new Map() };
let env: TwoMerchantDesk;

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
    if ('outOfStock' in setup && setup.outOfStock) await merchant.control('POST', `/control/products/${product.productRef}`, { variantRef: 0, inventoryType: 'tracked', remainingUnits: 0 });
    if ('remaining' in setup) await merchant.control('POST', `/control/products/${product.productRef}`, { variantRef: 0, inventoryType: 'tracked', remainingUnits: setup.remaining });
  }
}

const keyOf = (which: 'a' | 'b', name: Case): VariantKey => ({ profileId: which === 'a' ? 'p1' : 'p2', productRef: must(picked[which].get(name), name).productRef, variantRef: 0 });
const file = (text: string): { fileName: string; dataBase64: string } => ({ fileName: 'cards.csv', dataBase64: base64(utf8Bom(text)) });
let drafts = 0;
const draftRef = (): string => `bd_fallback_${String(++drafts).padStart(3, '0')}_${Date.now().toString(36)}`;

beforeAll(async () => {
  env = await openTwoMerchantDesk(SCALE, prepare);
}, 240_000);

afterAll(async () => {
  await env?.close();
});

describe('catalog.compare across two merchants', () => {
  it('searches both catalogs, each row naming its merchant, ranked side by side and cheaper first within a rank', async () => {
    const names = (which: 'a' | 'b'): string[] => [...picked[which].values()].map((p) => p.name);
    // A term both catalogs have: a two-character piece of one of A's names that one of B's names holds too.
    const allB = (await env.b.merchant.products()).map((p) => p.name);
    const allA = (await env.a.merchant.products()).map((p) => p.name);
    const term = must(
      allA.flatMap((name) => Array.from({ length: Math.max(0, Array.from(name).length - 1) }, (_, i) => Array.from(name).slice(i, i + 2).join(''))).find((piece) => /^\S+$/u.test(piece) && allB.some((n) => n.includes(piece))),
      'a term in both catalogs',
    );
    const result = await env.ok('catalog.compare', { text: term, limit: 10 });
    expect(result.perMerchant.map((part) => part.merchant.profileId)).toEqual(['p1', 'p2']);
    expect(result.perMerchant.every((part) => part.total > 0)).toBe(true);
    const merchants = new Set(result.rows.map((row) => row.merchant.profileId));
    expect(merchants).toEqual(new Set(['p1', 'p2']));
    expect(result.rows.find((row) => row.merchant.profileId === 'p2')?.merchant.name).toBe('Merchant B');
    // Each merchant's own order is kept (its search's order), and the first two rows are each merchant's best.
    const ownA = (await env.ok('catalog.search', { text: term, limit: 10 })).items.map((item) => item.productRef);
    expect(result.rows.filter((row) => row.merchant.profileId === 'p1').map((row) => row.product.productRef)).toEqual(ownA);
    expect(new Set(result.rows.slice(0, 2).map((row) => row.merchant.profileId)).size).toBe(2);
    const [first, second] = result.rows;
    expect((first?.product.priceFromFen ?? 0) <= (second?.product.priceFromFen ?? Infinity)).toBe(true);
    expect(names('a').length + names('b').length).toBe(2 * CASES.length);
    expectRefused(await env.call('catalog.compare', { text: '' }), 'INVALID_INPUT');
  });
});

describe('links, rules and the offers of an order dialog', () => {
  it('links A and B, sets a rule, and offers B when A asks above the limit (B is the rule choice)', async () => {
    const [a, b] = [keyOf('a', 'offers'), keyOf('b', 'offers')];
    const link = await env.ok('links.link', { a, b });
    expect(link.members.map((m) => [m.merchant.profileId, m.productRef, m.unitPriceFen, m.supply])).toEqual([
      ['p1', a.productRef, 3000, 'available'],
      ['p2', b.productRef, 2500, 'available'],
    ]);
    expect((await env.ok('links.forVariant', { key: b }))?.linkId).toBe(link.linkId);
    const compared = await env.ok('catalog.compare', { text: must(picked.a.get('offers'), 'A').name, limit: 50 });
    expect(compared.rows.find((row) => row.merchant.profileId === 'p1' && row.product.productRef === a.productRef)?.linkIds).toEqual([link.linkId]);

    // No rule yet: A can supply, nothing to offer; B is listed, not chosen.
    const before = await env.ok('orders.offers', { key: a, units: 1 });
    expect(before).toMatchObject({ reason: null, ruleChoice: null, current: { withinLimit: null, canSupply: true } });

    expectRefused(await env.call('links.setRule', { linkId: link.linkId, rule: { maxUnitPriceFen: LIMIT_FEN, preference: ['p9'] } }), 'INVALID_INPUT');
    expectRefused(await env.call('links.setRule', { linkId: 999, rule: { maxUnitPriceFen: LIMIT_FEN, preference: ['p2'] } }), 'NOT_FOUND');
    const ruled = await env.ok('links.setRule', { linkId: link.linkId, rule: { maxUnitPriceFen: LIMIT_FEN, preference: ['p2'] } });
    expect(ruled.rule).toEqual({ maxUnitPriceFen: LIMIT_FEN, preference: ['p2'] });

    const offers = await env.ok('orders.offers', { key: a, units: 2 });
    expect(offers.reason).toBe('aboveLimit');
    expect(offers.current).toMatchObject({ unitPriceFen: 3000, withinLimit: false, canSupply: true });
    expect(offers.alternatives).toHaveLength(1);
    expect(offers.alternatives[0]).toMatchObject({ merchant: { profileId: 'p2', name: 'Merchant B' }, productRef: b.productRef, unitPriceFen: 2500, withinLimit: true, canSupply: true });
    expect(offers.ruleChoice).toEqual(b);
    expect(offers.link?.linkId).toBe(link.linkId);

    // The buyer takes B's offer: the order is B's, charged in B's ledger at B's price, nothing at A.
    const [bookA, bookB] = [await env.a.ledger(), await env.b.ledger()];
    const placed = await env.ok('orders.place', { profileId: 'p2', productRef: b.productRef, variantRef: 0, units: 1, unitPriceFen: 2500 });
    await waitFor('the order accepted at B', async () => ((await env.ok('orders.get', { clientOrderRef: placed.clientOrderRef })).intentStatus === 'accepted' ? true : null));
    expect(entriesFor(await env.b.ledger(), placed.clientOrderRef, 'charge').map((e) => fen(e.amount))).toEqual([2500]);
    expect((await env.b.ledger()).entries.length - bookB.entries.length).toBe(1);
    expect((await env.a.ledger()).entries.length).toBe(bookA.entries.length);
    // The dialog at B shows B's balance (after this charge), asked of B; the active profile is still A.
    const [balanceA, balanceB] = [fen((await env.a.ledger()).balance), fen((await env.b.ledger()).balance)];
    expect(balanceB).toBe(balanceA - 2500);
    expect(await env.ok('account.get', { profileId: 'p2' })).toMatchObject({ userId: env.b.account.userId, balanceFen: balanceB });
    expect(await env.ok('account.get')).toMatchObject({ userId: env.a.account.userId, balanceFen: balanceA });
    expectRefused(await env.call('account.get', { profileId: 'p7' }), 'NOT_FOUND');
    const rows = await env.ok('orders.list', {});
    expect(rows.find((row) => row.clientOrderRef === placed.clientOrderRef)?.merchant).toEqual({ profileId: 'p2', name: 'Merchant B' });
  });

  it('refuses a variant the cache does not hold, an unknown profile, and odd inputs', async () => {
    expectRefused(await env.call('links.link', { a: keyOf('a', 'offers'), b: { profileId: 'p2', productRef: 987_654, variantRef: 0 } }), 'NOT_FOUND');
    expectRefused(await env.call('links.link', { a: keyOf('a', 'offers'), b: { profileId: 'p7', productRef: 1, variantRef: 0 } }), 'NOT_FOUND');
    expectRefused(await env.call('links.link', { a: keyOf('a', 'offers'), b: { ...keyOf('b', 'offers'), variantRef: 77 } }), 'NOT_FOUND');
    expectRefused(await env.call('links.link', { a: keyOf('a', 'offers'), b: keyOf('a', 'offers') }), 'INVALID_INPUT');
    expectRefused(await env.call('links.unlink', { key: { profileId: 'p2', productRef: 987_654, variantRef: 0 } }), 'NOT_FOUND');
    expectRefused(await env.call('orders.offers', { key: keyOf('a', 'offers'), units: 0 }), 'INVALID_INPUT');
    expect(await env.ok('links.forVariant', { key: { profileId: 'p1', productRef: 987_654, variantRef: 0 } })).toBeNull();
    // Linking the same pair twice (a double click) is the same link.
    const again = await env.ok('links.link', { a: keyOf('a', 'offers'), b: keyOf('b', 'offers') });
    expect(again.members).toHaveLength(2);
    expect((await env.ok('links.list')).filter((l) => l.linkId === again.linkId)).toHaveLength(1);
  });
});

describe('the rule applied by the batch', () => {
  const settled = (s: BatchStatusView): boolean => s.counts.queued + s.counts.sending === 0;

  it('sends a batch for a variant A cannot supply to B at B price (at or below the limit), charged at B only', async () => {
    const [a, b] = [keyOf('a', 'batch'), keyOf('b', 'batch')];
    const link = await env.ok('links.link', { a, b });
    await env.ok('links.setRule', { linkId: link.linkId, rule: { maxUnitPriceFen: LIMIT_FEN, preference: ['p2'] } });
    const input = { profileId: 'p1', file: file('数量\r\n1\r\n2\r\n'), productRef: a.productRef, variantRef: 0, mapping: null };
    const [bookA, bookB] = [await env.a.ledger(), await env.b.ledger()];

    const preview = await env.ok('batch.preview', input);
    expect(preview.fallback).toMatchObject({ from: { profileId: 'p1', name: expect.any(String) as string }, to: { profileId: 'p2', name: 'Merchant B' }, reason: 'outOfStock', limitFen: LIMIT_FEN, productRef: b.productRef, variantRef: 0, fromUnitPriceFen: 2700 });
    expect(preview.fallback?.productName).toEqual(expect.any(String));
    expect(preview.unitPriceFen).toBe(2600);
    expect(preview.totals).toMatchObject({ ok: 2, units: 3, totalFen: 3 * 2600 });
    // Per merchant (issue 24): B is asked for all of it, A for nothing.
    expect(preview.merchants).toEqual([
      { merchant: { profileId: 'p2', name: 'Merchant B' }, fallback: true, orders: 2, units: 3, unitPriceFen: 2600, totalFen: 3 * 2600 },
      { merchant: { profileId: 'p1', name: expect.any(String) as string }, fallback: false, orders: 0, units: 0, unitPriceFen: 2700, totalFen: 0 },
    ]);

    // Confirming a price above the limit is refused before anything is written.
    expectRefused(await env.call('batch.place', { ...input, payToProfileId: 'p2', mapping: preview.mapping, unitPriceFen: LIMIT_FEN + 1, confirmedTotalFen: 3 * (LIMIT_FEN + 1), confirmedRows: 2, draftRef: draftRef() }), 'ACTION_NOT_ALLOWED');

    const unconfirmed = { ...input, mapping: preview.mapping, unitPriceFen: preview.unitPriceFen, confirmedTotalFen: preview.totals.totalFen, confirmedRows: 2 };
    // Paying B needs the buyer's OK for B: without it (or with A named) nothing is written anywhere.
    for (const payTo of [{}, { payToProfileId: 'p1' }]) {
      const refused = expectRefused(await env.call('batch.place', { ...unconfirmed, ...payTo, draftRef: draftRef() }), 'ACTION_NOT_ALLOWED');
      expect(refused.message).toContain('paying Merchant B was not confirmed');
    }
    for (const profile of env.desk.opened()) expect(profile.core.db.prepare('SELECT count(*) FROM batches').pluck().get()).toBe(0);
    const place = { ...unconfirmed, payToProfileId: 'p2', draftRef: draftRef() };
    // A double click: both calls land, one batch is written (at B).
    const [status, twin] = await Promise.all([env.ok('batch.place', place), env.ok('batch.place', place)]);
    expect(twin.batchId).toBe(status.batchId);
    expect(status).toMatchObject({ productRef: b.productRef, variantRef: 0, confirmedUnitPriceFen: 2600, fallback: { to: { profileId: 'p2' }, reason: 'outOfStock' } });
    // The same confirmation again is the same batch (wherever the rule sent it).
    expect((await env.ok('batch.place', place)).batchId).toBe(status.batchId);
    // The batch is B's: its status is found by its id.
    const done = await waitFor('every row settled', async () => {
      const now = await env.ok('batch.status', { batchId: status.batchId });
      return settled(now) ? now : null;
    }, 30_000);
    expect(done.counts.accepted).toBe(2);
    // The status keeps saying where the batch went and why, after the placing answer.
    expect(done.fallback).toMatchObject({ from: { profileId: 'p1' }, to: { profileId: 'p2', name: 'Merchant B' }, reason: 'outOfStock', limitFen: LIMIT_FEN });
    const afterB = await env.b.ledger();
    expect(done.rows.map((row) => entriesFor(afterB, row.clientOrderRef, 'charge').map((e) => fen(e.amount)))).toEqual([[2600], [2 * 2600]]);
    expect(afterB.entries.length - bookB.entries.length).toBe(2);
    expect(fen(bookB.balance) - fen(afterB.balance)).toBe(3 * 2600);
    expect((await env.a.ledger()).entries.length).toBe(bookA.entries.length);
    expect(env.desk.opened().find((p) => p.record.id === 'p1')?.core.db.prepare('SELECT count(*) FROM batches').pluck().get()).toBe(0);
    // The results file names the merchant of every order, next to its order number there.
    const results = await env.ok('batch.exportResults', { batchId: status.batchId, file: input.file, format: 'csv' });
    // The refs are code cells (contract §16.1): the ref and one TAB, so a spreadsheet keeps every digit.
    const lines = parseCsvLines(Buffer.from(results.dataBase64, 'base64').toString('utf8').replace(/^\uFEFF/, ''));
    expect(lines[0]).toEqual(['数量', 'status', 'clientOrderRef', 'platformOrderRef', 'error', 'merchant']);
    expect(lines.slice(1).map((cells) => [cells[2], cells[3], cells[5]])).toEqual(done.rows.map((row) => [`${row.clientOrderRef}\t`, `${row.platformOrderRef ?? ''}\t`, 'Merchant B']));
  });

  it('sends it to B when the file asks more units than A has left, and keeps it at A when A has enough', async () => {
    const [a, b] = [keyOf('a', 'notEnough'), keyOf('b', 'notEnough')];
    const link = await env.ok('links.link', { a, b });
    await env.ok('links.setRule', { linkId: link.linkId, rule: { maxUnitPriceFen: LIMIT_FEN, preference: ['p2'] } });
    const enough = await env.ok('batch.preview', { file: file('数量\r\n1\r\n1\r\n'), productRef: a.productRef, variantRef: 0, mapping: null });
    expect(enough.fallback).toBeUndefined();
    expect(enough.merchants).toBeUndefined();
    expect(enough.unitPriceFen).toBe(2700);
    const more = await env.ok('batch.preview', { file: file('数量\r\n2\r\n1\r\n'), productRef: a.productRef, variantRef: 0, mapping: null });
    expect(more.fallback).toMatchObject({ to: { profileId: 'p2' }, reason: 'notEnoughStock', productRef: b.productRef });
    expect(more.unitPriceFen).toBe(2650);
    expect((await env.ok('orders.offers', { key: a, units: 3 })).ruleChoice).toEqual(b);
    // B confirmed, then the rule is cleared before Pay: the batch would now stay at A, which the buyer
    // never confirmed: refused, nothing written at either merchant (issue 24).
    await env.ok('links.setRule', { linkId: link.linkId, rule: null });
    const confirmedB = { file: file('数量\r\n2\r\n1\r\n'), productRef: a.productRef, variantRef: 0, mapping: more.mapping, unitPriceFen: 2650, confirmedTotalFen: 3 * 2650, confirmedRows: 2, payToProfileId: 'p2', draftRef: draftRef() };
    const moved = expectRefused(await env.call('batch.place', confirmedB), 'ACTION_NOT_ALLOWED');
    expect(moved.message).toMatch(/now stays with .+, not Merchant B as confirmed: preview the batch again; nothing was placed/);
    for (const profile of env.desk.opened()) expect(profile.core.db.prepare('SELECT count(*) FROM order_intents WHERE product_ref IN (?, ?)').pluck().get(a.productRef, b.productRef)).toBe(0);
  });

  it('places nothing, with a clear error, when B is above the limit too', async () => {
    const [a, b] = [keyOf('a', 'aboveLimit'), keyOf('b', 'aboveLimit')];
    const link = await env.ok('links.link', { a, b });
    await env.ok('links.setRule', { linkId: link.linkId, rule: { maxUnitPriceFen: LIMIT_FEN, preference: ['p2'] } });
    const offers = await env.ok('orders.offers', { key: a, units: 1 });
    expect(offers).toMatchObject({ reason: 'aboveLimit', ruleChoice: null, alternatives: [{ unitPriceFen: 3500, withinLimit: false, canSupply: true }] });
    const [bookA, bookB] = [await env.a.ledger(), await env.b.ledger()];
    const input = { file: file('数量\r\n1\r\n'), productRef: a.productRef, variantRef: 0, mapping: null };
    const refused = expectRefused(await env.call('batch.preview', input), 'ACTION_NOT_ALLOWED');
    expect(refused.message).toMatch(/no merchant of the link's fallback rule can supply 1 unit\(s\) at or below ¥28\.00: nothing was placed/);
    expectRefused(await env.call('batch.place', { ...input, mapping: { '@units': '数量' }, unitPriceFen: 3000, confirmedTotalFen: 3000, confirmedRows: 1, draftRef: draftRef() }), 'ACTION_NOT_ALLOWED');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await env.a.ledger()).entries.length).toBe(bookA.entries.length);
    expect((await env.b.ledger()).entries.length).toBe(bookB.entries.length);
    for (const profile of env.desk.opened()) expect(profile.core.db.prepare('SELECT count(*) FROM order_intents WHERE product_ref IN (?, ?)').pluck().get(a.productRef, b.productRef)).toBe(0);
  });

  it('without a rule nothing moves: the batch stays with A at A price, the offers choose nothing', async () => {
    const [a, b] = [keyOf('a', 'noRule'), keyOf('b', 'noRule')];
    await env.ok('links.link', { a, b });
    const offers = await env.ok('orders.offers', { key: a, units: 1 });
    expect(offers).toMatchObject({ reason: 'outOfStock', ruleChoice: null, alternatives: [{ productRef: b.productRef, unitPriceFen: 2000, withinLimit: null, canSupply: true }] });
    const preview = await env.ok('batch.preview', { file: file('数量\r\n1\r\n'), productRef: a.productRef, variantRef: 0, mapping: null });
    expect(preview.fallback).toBeUndefined();
    expect(preview.unitPriceFen).toBe(2700);
  });

  it('a removed rule stops the fallback; unlinking ends a link of two', async () => {
    const a = keyOf('a', 'batch');
    const link = must(await env.ok('links.forVariant', { key: a }), 'the batch link');
    await env.ok('links.setRule', { linkId: link.linkId, rule: null });
    const preview = await env.ok('batch.preview', { file: file('数量\r\n1\r\n'), productRef: a.productRef, variantRef: 0, mapping: null });
    expect(preview.fallback).toBeUndefined();
    const left = await env.ok('links.unlink', { key: a });
    expect(left.some((l) => l.linkId === link.linkId)).toBe(false);
    expect(await env.ok('links.forVariant', { key: keyOf('b', 'batch') })).toBeNull();
  });
});

describe('an order moved to B while B cannot be reached', () => {
  it('is kept at B under one reference (a second Pay is the same order), sent once when B is back, charged at B only at the confirmed price', async () => {
    const b = keyOf('b', 'offline');
    const priceFen = 2400;
    // The dialog at B has read B's order form (cached at B) before the network went away.
    await env.ok('orders.template', { ...b });
    const [bookA, bookB] = [await env.a.ledger(), await env.b.ledger()];
    const stateOfB = async (): Promise<string> => must((await env.ok('profiles.list')).profiles.find((p) => p.id === 'p2'), 'p2').state.state;
    const input = { ...b, units: 3, unitPriceFen: priceFen, draftRef: draftRef() };
    await env.b.merchant.control('POST', '/control/faults', { refuseConnections: true });
    let ref = '';
    try {
      const placed = await env.ok('orders.place', input);
      ref = placed.clientOrderRef;
      expect(placed).toMatchObject({ units: 3, confirmedUnitPriceFen: priceFen, confirmedTotalFen: 3 * priceFen });
      await waitFor('B offline', async () => ((await stateOfB()) === 'offline' ? true : null));
      // A second Pay (a double click, a retry after the error) is the same order: one intent, one reference.
      expect((await env.ok('orders.place', input)).clientOrderRef).toBe(ref);
      const row = must((await env.ok('orders.list', {})).find((r) => r.clientOrderRef === ref), 'the moved order in the list');
      expect(row.merchant).toEqual({ profileId: 'p2', name: 'Merchant B' });
      expect(['queued', 'sending', 'unknown']).toContain(row.intentStatus);
      // A is not touched by B's outage, and nothing reached B.
      expect(await stateOfB()).toBe('offline');
      expect(must((await env.ok('profiles.list')).profiles.find((p) => p.id === 'p1'), 'p1').state.state).toBe('online');
      expect(entriesFor(await env.b.ledger(), ref, 'charge')).toEqual([]);
    } finally {
      await env.b.merchant.control('POST', '/control/faults', { refuseConnections: false });
    }
    await waitFor('the order accepted at B once B is back', async () => ((await env.ok('orders.get', { clientOrderRef: ref })).intentStatus === 'accepted' ? true : null), 90_000);
    expect(entriesFor(await env.b.ledger(), ref, 'charge').map((e) => fen(e.amount))).toEqual([3 * priceFen]);
    expect((await env.b.ledger()).entries.length - bookB.entries.length).toBe(1);
    const afterA = await env.a.ledger();
    expect(afterA.entries.length).toBe(bookA.entries.length);
    expect(afterA.entries.some((e) => e.clientOrderRef === ref)).toBe(false);
    expect(await stateOfB()).toBe('online');
  }, 150_000);
});
