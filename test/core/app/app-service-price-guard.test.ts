// The app service's side of the price guard, withdraw and the recharged account, against a real
// sandbox over HTTPS with SQLite on disk: a price raised between the form and the send parks the order
// with both prices in the detail and nothing charged; orders.confirm with the new price sends it and
// the ledger shows exactly that price; orders.withdraw answers which case applied; a finished top-up
// keeps its recharged account sealed at rest, masked in the list and in full (with the template's
// labels) in the detail, and never in a log line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderDetail } from '../../../src/shared/ipc/views/orders';
import { isOptionField, optionLabelOf } from '../../../src/shared/purchase-option-labels';
import { maskRechargedAccount } from '../../../src/shared/recharged-account';
import type { Catalog} from '../../support/orders-harness';
import { entriesFor, fen, goodCard, isOpen, isTopup, must, validEntries, yuanText, type Ledger } from '../../support/orders-harness';
import { openConnectedApp, orderDetailWhen, expectContractShapes, expectNoSecretLeft, type AppKit, type Merchant } from './app-kit';

const SCALE = 50;
let merchant: Merchant;
let kit: AppKit;
let catalog: Catalog;
let account: { userId: string; apiKey: string };

beforeAll(async () => {
  ({ merchant, kit, catalog, account } = await openConnectedApp(SCALE));
});

afterAll(async () => {
  await kit?.close();
  await merchant?.stop();
});

const detailWhen = (ref: string, what: string, predicate: (d: OrderDetail) => boolean): Promise<OrderDetail> => orderDetailWhen(kit, ref, what, predicate);

const charges = async (ref: string): Promise<number[]> =>
  entriesFor(await merchant.control<Ledger>('GET', `/control/ledger/${account.userId}`), ref, 'charge').map((e) => fen(e.amount));

describe('app service: price guard, withdraw, recharged account', () => {
  it('parks an order whose price rose after the buyer confirmed, shows both prices, and charges exactly the re-confirmed price', async () => {
    const pick = catalog.claim((p, v) => goodCard(p, v), 'card that is supplied');
    const { productRef } = pick.product;
    const variantRef = pick.product.variants.length > 1 ? pick.variant.variantRef : 0;
    const shown = fen(pick.variant.price);
    await kit.ok('orders.template', { productRef, variantRef });
    // The price moves while the dialog is open.
    const raised = shown + 150;
    await merchant.control('POST', `/control/products/${productRef}`, { variantRef, price: yuanText(raised) });

    const placed = await kit.ok('orders.place', { productRef, variantRef, units: 2, unitPriceFen: shown });
    expect(placed).toMatchObject({ confirmedUnitPriceFen: shown, confirmedTotalFen: shown * 2, unitPriceFen: null });
    const parked = await detailWhen(placed.clientOrderRef, 'the guard to park it', (d) => d.intentStatus === 'price_changed');
    expect(parked).toMatchObject({ confirmedUnitPriceFen: shown, guardUnitPriceFen: raised, confirmedTotalFen: shown * 2, unitPriceFen: null, totalFen: null });
    expect(await charges(placed.clientOrderRef)).toEqual([]);

    const confirmed = await kit.ok('orders.confirm', { clientOrderRef: placed.clientOrderRef, units: 2, unitPriceFen: raised });
    expect(confirmed).toMatchObject({ confirmedUnitPriceFen: raised, guardUnitPriceFen: null });
    const accepted = await detailWhen(placed.clientOrderRef, 'acceptance', (d) => d.intentStatus === 'accepted');
    expect(accepted).toMatchObject({ unitPriceFen: raised, totalFen: raised * 2, confirmedTotalFen: raised * 2 });
    expect(await charges(placed.clientOrderRef)).toEqual([raised * 2]);
  });

  it('answers a withdraw with what it did: withdrawn for a parked order, merchantHasOrder for an accepted one', async () => {
    const pick = catalog.claim((p, v) => goodCard(p, v) && p.variants.length === 1, 'single-variant card');
    const { productRef } = pick.product;
    await kit.ok('orders.template', { productRef, variantRef: 0 });
    await merchant.control('POST', `/control/products/${productRef}`, { availability: 'unavailable' });
    const placed = await kit.ok('orders.place', { productRef, variantRef: 0, units: 1, unitPriceFen: fen(pick.variant.price) });
    const parked = await detailWhen(placed.clientOrderRef, 'the guard to park it', (d) => d.intentStatus === 'unavailable');
    expect(parked.unavailableReason).toBe('productUnavailable');
    const withdrawn = await kit.ok('orders.withdraw', { clientOrderRef: placed.clientOrderRef });
    expect(withdrawn).toMatchObject({ outcome: 'withdrawn', order: { intentStatus: 'withdrawn', unavailableReason: 'productUnavailable' } });
    expect(await charges(placed.clientOrderRef)).toEqual([]);

    const open = catalog.claim((p, v) => goodCard(p, v), 'card that is supplied');
    const variantRef = open.product.variants.length > 1 ? open.variant.variantRef : 0;
    const sent = await kit.ok('orders.place', { productRef: open.product.productRef, variantRef, units: 1, unitPriceFen: fen(open.variant.price) });
    await detailWhen(sent.clientOrderRef, 'acceptance', (d) => d.intentStatus === 'accepted');
    expect(await kit.ok('orders.withdraw', { clientOrderRef: sent.clientOrderRef })).toMatchObject({ outcome: 'merchantHasOrder', order: { intentStatus: 'accepted' } });
    expect(await charges(sent.clientOrderRef)).toEqual([fen(open.variant.price)]);
  });

  it('keeps the recharged account of a finished top-up: sealed at rest, masked in the list, in full with labels in the detail', async () => {
    const pick = catalog.claim((p, v) => isTopup(p) && isOpen(p, v) && v.supply === 'succeed' && v.entryMode === 'perUnit', 'perUnit top-up');
    const variantRef = pick.product.variants.length > 1 ? pick.variant.variantRef : 0;
    const template = await kit.ok('orders.template', { productRef: pick.product.productRef, variantRef });
    const units = Math.max(2, template.unitRule.min);
    const entries = validEntries(template, units);
    const values = entries.flatMap((group) => Object.values(group));
    const placed = await kit.ok('orders.place', { productRef: pick.product.productRef, variantRef, units, purchaseEntries: entries, unitPriceFen: fen(pick.variant.price) });
    const ref = placed.clientOrderRef;
    await detailWhen(ref, 'acceptance', (d) => d.intentStatus === 'accepted');
    await merchant.advance(ref, 'processing');
    await merchant.advance(ref, 'completed');
    const done = await detailWhen(ref, 'completed', (d) => d.state === 'completed');

    const fields = new Map(template.purchaseFields.map((f) => [f.fieldRef, f]));
    const picked = (fieldRef: string, value: string) => {
      const label = optionLabelOf(fields.get(fieldRef), value);
      return label === null ? null : { fieldRef, label, merchantCode: null };
    };
    expect(done.rechargedEntries).toEqual(entries.map((group) => Object.entries(group).map(([fieldRef, value]) => ({ fieldRef, label: fields.get(fieldRef)?.label, value, picked: picked(fieldRef, value) }))));
    const row = must((await kit.ok('orders.list', {})).find((r) => r.clientOrderRef === ref), 'list row');
    expect(row.rechargedAccountMasked).toBe(maskRechargedAccount(entries, (fieldRef) => isOptionField(fields.get(fieldRef))));
    expect(row.rechargedAccountMasked).toMatch(new RegExp(` \\+${units - 1}$`));
    for (const value of Object.values(must(entries[0], 'group'))) if (value.length >= 8) expect(row.rechargedAccountMasked).not.toContain(value);

    // At rest: no plain entries once accepted, and the sealed bytes hold none of the values.
    const stored = must(
      kit.core.db.prepare<[string], { plain: string | null; sealed: Buffer | null }>('SELECT purchase_entries_json AS plain, recharged_entries_sealed AS sealed FROM order_intents WHERE client_order_ref = ?').get(ref),
      'intent row',
    );
    expect(stored.plain).toBeNull();
    const sealed = must(stored.sealed, 'sealed entries');
    for (const value of values) expect(sealed.includes(Buffer.from(value, 'utf8'))).toBe(false);
    // Bound to its intent: moved onto another row it does not open.
    expect(() => kit.core.vault.openRechargedEntries('o_other', sealed)).toThrow(/decrypt/);

    // Full values only in the order's detail (and the answer to the place that carried them): never in
    // a list, an event or a log line.
    const elsewhere = [
      ...kit.answers.filter((a) => a.channel === 'orders.list').map((a) => JSON.stringify(a.result)),
      ...kit.events.map((e) => JSON.stringify(e)),
      ...kit.logLines,
    ].join('\n');
    for (const value of values) expect(elsewhere.includes(value), `entry value ${value.slice(0, 3)}… leaked`).toBe(false);
    expectNoSecretLeft(kit, kit.secrets);
    expectContractShapes(kit);
  });
});
