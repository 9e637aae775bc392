// The price guard over real HTTPS against the sandbox: right before an intent is first sent its product
// is read; a price above the one the buyer confirmed parks it as price_changed (nothing sent, nothing
// charged) until the buyer confirms the new price (then charged exactly that); a product or variant
// that cannot be supplied parks it as unavailable; a lower price is sent; a batch of one product is
// read once; a merchant away leaves it queued. Every money claim is checked against the ledger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedUnitPriceFen } from '../../../src/core/orders/order-intents';
import { getStoredOrder } from '../../../src/core/orders/order-store';
import type {
  Catalog} from '../../support/orders-harness';
import {
  changeProduct,
  entriesFor,
  fen,
  goodCard,
  hasStock,
  isCard,
  isOpen,
  ledger,
  must,
  yuanText,
  type ControlProduct,
  type ControlVariant,
  type Harness,
} from '../../support/orders-harness';
import { control } from '../../support/merchant-http';
import { launchManualSandboxKit, type ManualSandboxKit, isCreate, refOfBody, type OrdersKit } from './orders-kit';

const SCALE = 20;
let h: Harness;
let kit: OrdersKit;
let catalog: Catalog;

let opened: ManualSandboxKit | undefined;

beforeAll(async () => {
  opened = await launchManualSandboxKit({ scale: SCALE });
  ({ h, kit, catalog } = opened);
});

afterAll(async () => {
  await opened?.close();
});

interface Placed {
  readonly ref: string;
  readonly productRef: number;
  readonly variantRef: number;
  readonly priceFen: number;
}

/** A card variant the merchant supplies, cached, and one intent for it at the shown price. */
async function placeCard(units: number, filter: (p: ControlProduct, v: ControlVariant) => boolean = () => true): Promise<Placed> {
  const pick = catalog.claim((p, v) => goodCard(p, v) && filter(p, v), 'card that is supplied');
  const { productRef } = pick.product;
  const variantRef = pick.product.variants.length > 1 ? pick.variant.variantRef : 0;
  await kit.seedTemplate(productRef, variantRef, 'card');
  const priceFen = fen(pick.variant.price);
  const ref = kit.intents.placeOrder({ productRef, variantRef, units, unitPriceFen: priceFen }).clientOrderRef;
  return { ref, productRef, variantRef, priceFen };
}

const createsFor = (ref: string): number => kit.exchanges.filter((e) => isCreate(e.url) && refOfBody(e.body) === ref).length;
const productReads = (productRef: number): number => kit.exchanges.filter((e) => e.method === 'GET' && new URL(e.url).pathname.endsWith(`/goods/${productRef}`)).length;
const historyPrices = (productRef: number, variantRef: number): number[] =>
  kit.temp.db.prepare<[number, number], { price_fen: number }>('SELECT price_fen FROM price_history WHERE product_ref = ? AND variant_ref = ? ORDER BY id').all(productRef, variantRef).map((row) => row.price_fen);
const charges = async (ref: string): Promise<number[]> => entriesFor(await ledger(h, kit.account), ref, 'charge').map((e) => fen(e.amount));

describe('price guard', () => {
  it('parks an order whose price rose before it was sent, charges nothing, and charges exactly the re-confirmed price', async () => {
    const { ref, productRef, variantRef, priceFen } = await placeCard(2);
    const raised = priceFen + 50;
    await changeProduct(h, productRef, { variantRef, price: yuanText(raised) });

    await kit.outbox.runOnce();
    expect(kit.intents.getIntent(ref)).toMatchObject({ status: 'price_changed', confirmedUnitPriceFen: priceFen, guardUnitPriceFen: raised, attempts: 0 });
    expect(createsFor(ref)).toBe(0);
    expect(await charges(ref)).toEqual([]);
    // The read was applied to the catalog cache as any authenticated snapshot is.
    expect(cachedUnitPriceFen(kit.temp.db, productRef, variantRef)).toBe(raised);
    // Parked intents are never sent by themselves.
    await kit.outbox.runOnce();
    expect(createsFor(ref)).toBe(0);

    const confirmed = kit.intents.confirmIntent(ref, { units: 2, unitPriceFen: raised });
    expect(confirmed).toMatchObject({ status: 'queued', clientOrderRef: ref, confirmedUnitPriceFen: raised, guardUnitPriceFen: null });
    await kit.outbox.runOnce();
    expect(kit.intents.getIntent(ref)?.status).toBe('accepted');
    expect(await charges(ref)).toEqual([raised * 2]);
    expect(getStoredOrder(kit.temp.db, ref)).toMatchObject({ unitPriceFen: raised, totalFen: raised * 2 });
    expect(createsFor(ref)).toBe(1);
  });

  it('sends an order whose price fell, at the lower price', async () => {
    const { ref, productRef, variantRef, priceFen } = await placeCard(1, (_p, v) => fen(v.price) > 100);
    const lowered = priceFen - 30;
    await changeProduct(h, productRef, { variantRef, price: yuanText(lowered) });
    await kit.outbox.runOnce();
    expect(kit.intents.getIntent(ref)?.status).toBe('accepted');
    expect(await charges(ref)).toEqual([lowered]);
  });

  it('parks as unavailable a product or variant that cannot be supplied, or tracked stock below the units', async () => {
    const product = await placeCard(1, (p) => p.variants.length === 1);
    await changeProduct(h, product.productRef, { availability: 'unavailable' });
    const variant = await placeCard(1, (p) => p.variants.length === 1);
    await changeProduct(h, variant.productRef, { variantRef: 0, availability: 'unavailable' });
    const stock = await placeCard(3, (p) => p.variants.length === 1);
    await changeProduct(h, stock.productRef, { variantRef: 0, remainingUnits: 2 });
    const multi = catalog.claim((p, v) => isCard(p) && isOpen(p, v) && hasStock(v) && v.supply === 'succeed' && p.variants.length > 1, 'multi-variant card');
    await kit.seedTemplate(multi.product.productRef, multi.variant.variantRef, 'card');
    const gone = kit.intents.placeOrder({ productRef: multi.product.productRef, variantRef: multi.variant.variantRef, units: 1, unitPriceFen: fen(multi.variant.price) }).clientOrderRef;
    await changeProduct(h, multi.product.productRef, { removeVariantRef: multi.variant.variantRef });

    await kit.outbox.runOnce();
    const reasons = [product.ref, variant.ref, stock.ref, gone].map((ref) => kit.intents.getIntent(ref));
    expect(reasons.map((i) => [i?.status, i?.unavailableReason])).toEqual([
      ['unavailable', 'productUnavailable'],
      ['unavailable', 'variantUnavailable'],
      ['unavailable', 'outOfStock'],
      ['unavailable', 'variantGone'],
    ]);
    for (const ref of [product.ref, variant.ref, stock.ref, gone]) {
      expect(createsFor(ref)).toBe(0);
      expect(await charges(ref)).toEqual([]);
    }

    // Restocked: the buyer confirms again (fewer units fit now too) and it is sent, guarded again.
    await changeProduct(h, stock.productRef, { variantRef: 0, remainingUnits: 10 });
    kit.intents.confirmIntent(stock.ref, { units: 3 });
    await kit.outbox.runOnce();
    expect(kit.intents.getIntent(stock.ref)?.status).toBe('accepted');
    expect(await charges(stock.ref)).toEqual([stock.priceFen * 3]);
  });

  it('guards a batch of one product with one read, and parks every intent of it', async () => {
    const first = await placeCard(1, (p) => p.variants.length === 1);
    const batchId = 'batch-guard-1';
    kit.temp.db.prepare('UPDATE order_intents SET batch_id = ? WHERE client_order_ref = ?').run(batchId, first.ref);
    const refs = [
      first.ref,
      ...Array.from({ length: 4 }, () => kit.intents.placeOrder({ productRef: first.productRef, variantRef: 0, units: 1, unitPriceFen: first.priceFen, batchId }).clientOrderRef),
    ];
    await changeProduct(h, first.productRef, { variantRef: 0, price: yuanText(first.priceFen + 1) });
    const readsBefore = productReads(first.productRef);
    await kit.outbox.runOnce();
    expect(productReads(first.productRef) - readsBefore).toBe(1);
    expect(kit.intents.listIntents({ batchId }).map((i) => [i.status, i.guardUnitPriceFen])).toEqual(refs.map(() => ['price_changed', first.priceFen + 1]));
    const book = await ledger(h, kit.account);
    for (const ref of refs) expect(entriesFor(book, ref)).toEqual([]);
  });

  it('leaves the intent queued while the product cannot be read (merchant away), then guards and sends it', async () => {
    const { ref, priceFen } = await placeCard(1);
    kit.offline = true;
    const pass = await kit.outbox.runOnce();
    kit.offline = false;
    expect(pass.offline).toBe(true);
    expect(kit.intents.getIntent(ref)).toMatchObject({ status: 'queued', attempts: 0, lastErrorCode: 'TRANSPORT' });
    kit.outbox.poke();
    kit.temp.db.prepare('UPDATE order_intents SET next_attempt_at = 0 WHERE client_order_ref = ?').run(ref);
    await kit.outbox.runOnce();
    expect(kit.intents.getIntent(ref)?.status).toBe('accepted');
    expect(await charges(ref)).toEqual([priceFen]);
  });

  it('sends an intent written before the guard without a known price at the merchant’s price, as before (migration 0010)', async () => {
    const { ref, productRef, variantRef, priceFen } = await placeCard(1);
    kit.temp.db.prepare('UPDATE order_intents SET confirmed_unit_price_fen = NULL WHERE client_order_ref = ?').run(ref);
    await changeProduct(h, productRef, { variantRef, price: yuanText(priceFen + 10) });
    await kit.outbox.runOnce();
    expect(kit.intents.getIntent(ref)).toMatchObject({ status: 'accepted', confirmedUnitPriceFen: null });
    expect(await charges(ref)).toEqual([priceFen + 10]);
  });

  it('says so, and keeps both prices, when the merchant charged more than confirmed (the window after the read)', async () => {
    const { ref, productRef, variantRef, priceFen } = await placeCard(1);
    // The create reached the merchant at a higher price and its answer was lost (a crash mid-send):
    // the outbox finds the order by GET and must not hide the difference.
    await changeProduct(h, productRef, { variantRef, price: yuanText(priceFen + 20) });
    await kit.client.createOrder({ clientOrderRef: ref, productRef, ...(variantRef === 0 ? {} : { variantRef }), units: 1 });
    kit.temp.db.prepare(`UPDATE order_intents SET status = 'sending', attempts = 1 WHERE client_order_ref = ?`).run(ref);
    kit.outbox.recover();
    await kit.outbox.runOnce();
    expect(kit.intents.getIntent(ref)).toMatchObject({ status: 'accepted', confirmedUnitPriceFen: priceFen });
    expect(must(getStoredOrder(kit.temp.db, ref), 'order').unitPriceFen).toBe(priceFen + 20);
    expect(await charges(ref)).toEqual([priceFen + 20]);
    expect(kit.logLines.some((line) => line.includes('charged a higher unit price than the buyer confirmed') && line.includes(ref))).toBe(true);
    // The price charged is a price the merchant asked: it is in the variant's history (issue 24), after the cached one.
    expect(historyPrices(productRef, variantRef).slice(-2)).toEqual([priceFen, priceFen + 20]);
  });

  it('puts the price the merchant charged into the history when it moved between the read and the create', async () => {
    const { ref, productRef, variantRef, priceFen } = await placeCard(1, (_p, v) => fen(v.price) > 100);
    const lowered = priceFen - 40;
    // The create waits at the merchant; the price moves meanwhile (the window the guard cannot close).
    await control(h.sandbox, 'POST', '/control/faults', { latencyMs: 800 });
    const moved: Promise<void>[] = [];
    kit.onRequest = (_method, url, body) => {
      if (isCreate(url) && refOfBody(body) === ref && moved.length === 0) moved.push(changeProduct(h, productRef, { variantRef, price: yuanText(lowered) }));
    };
    try {
      await kit.outbox.runOnce();
    } finally {
      kit.onRequest = null;
      await control(h.sandbox, 'POST', '/control/faults', { latencyMs: 0 });
    }
    await Promise.all(moved);
    expect(moved).toHaveLength(1);
    expect(kit.intents.getIntent(ref)?.status).toBe('accepted');
    expect(await charges(ref)).toEqual([lowered]);
    // The guard read the confirmed price; the create's answer says what was charged: both are in the history.
    expect(cachedUnitPriceFen(kit.temp.db, productRef, variantRef)).toBe(priceFen);
    expect(historyPrices(productRef, variantRef).slice(-2)).toEqual([priceFen, lowered]);
  });
});
