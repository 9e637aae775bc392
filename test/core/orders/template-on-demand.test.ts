// Templates on demand (contract §7.10) over real HTTPS against the sandbox, SQLite on disk: a variant
// never synced gets its detail and template when an order needs it (one template request, charged once
// at the confirmed price); concurrent orders share one template fetch; a revision bump seen in a detail
// makes the cached template untrusted (refetched, never sent stale); offline (the sandbox refuses
// connections) an order without a trusted template is kept as needs_template, nothing sent, and
// completed exactly once when the merchant is back; a top-up kept without its entries waits for the
// buyer with the template's form. Every money claim is checked against the sandbox ledger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrderPlacement, type OrderPlacement } from '../../../src/core/orders/order-placement';
import { TemplateOfflineError, VariantNotFoundError } from '../../../src/core/orders/order-errors';
import { createCatalogRepository } from '../../../src/core/catalog/catalog-repository';
import { readCachedTemplate } from '../../../src/core/orders/template-cache';
import {
  changeProduct,
  entriesFor,
  fen,
  goodCard,
  isOpen,
  isTopup,
  ledger,
  must,
  setFaults,
  template,
  validEntries,
  type Catalog,
  type Harness,
  type Pick,
} from '../../support/orders-harness';
import { isCreate, launchManualSandboxKit, refOfBody, type ManualSandboxKit, type OrdersKit } from './orders-kit';

const SCALE = 20;
let h: Harness;
let kit: OrdersKit;
let catalog: Catalog;
let opened: ManualSandboxKit | undefined;
/** What the connection state says (the app's is fed by every answer; here the test decides). */
let reachable = true;
let placement: OrderPlacement;

beforeAll(async () => {
  opened = await launchManualSandboxKit({ scale: SCALE });
  ({ h, kit, catalog } = opened);
  placement = createOrderPlacement({ templates: kit.templates, intents: kit.intents, logger: kit.logger, reachable: () => reachable });
});

afterAll(async () => {
  await setFaults(h, { refuseConnections: false }).catch(() => undefined);
  await opened?.close();
});

const isTemplateRequest = (url: string): boolean => new URL(url).pathname.endsWith('/goods/tpl');
const isDetailRequest = (url: string): boolean => /\/goods\/\d+$/.test(new URL(url).pathname);
const count = (match: (url: string) => boolean): number => kit.exchanges.filter((e) => match(e.url)).length;
const creates = (ref: string): number => kit.exchanges.filter((e) => isCreate(e.url) && refOfBody(e.body) === ref).length;

async function charges(ref: string): Promise<number[]> {
  return entriesFor(await ledger(h, kit.account), ref, 'charge').map((e) => fen(e.amount));
}

/** Runs outbox passes (clearing any backoff) until the intent is no longer queued or due. */
async function drain(ref: string): Promise<void> {
  for (let i = 0; i < 6; i++) {
    kit.temp.db.prepare('UPDATE order_intents SET next_attempt_at = 0 WHERE client_order_ref = ?').run(ref);
    kit.outbox.poke();
    await kit.outbox.runOnce();
    const status = kit.intents.getIntent(ref)?.status;
    if (status !== 'queued' && status !== 'unknown' && status !== 'needs_template') return;
  }
}

function card(what: string): Pick {
  return catalog.claim((p, v) => goodCard(p, v) && p.variants.length === 1, what);
}

describe('templates on demand', () => {
  it('orders a variant the catalog never saw: detail and template fetched once, charged once at the confirmed price', async () => {
    const pick = card('single-variant card');
    const { productRef } = pick.product;
    const { variantRef } = pick.variant;
    const priceFen = fen(pick.variant.price);
    expect(readCachedTemplate(kit.temp.db, productRef, variantRef)).toBeNull();
    const tplBefore = count(isTemplateRequest);
    const intent = await placement.place({ productRef, variantRef, units: 1, unitPriceFen: priceFen });
    expect(intent).toMatchObject({ status: 'queued', productType: 'card', confirmedUnitPriceFen: priceFen });
    expect(count(isTemplateRequest) - tplBefore).toBe(1);
    // Trusted from now on: the form and a second order ask nothing.
    await placement.templateForForm(productRef, variantRef);
    expect(count(isTemplateRequest) - tplBefore).toBe(1);
    await drain(intent.clientOrderRef);
    expect(kit.intents.getIntent(intent.clientOrderRef)?.status).toBe('accepted');
    expect(await charges(intent.clientOrderRef)).toEqual([priceFen]);
    expect(creates(intent.clientOrderRef)).toBe(1);
  });

  it('says which variants there are when the product has not the one asked for, having written nothing', async () => {
    const pick = catalog.claim((p, v) => goodCard(p, v) && p.variants.length > 1, 'multi-variant card');
    const missing = Math.max(...pick.product.variants.map((v) => v.variantRef)) + 1000;
    const before = kit.intents.listIntents().length;
    const error = await placement.place({ productRef: pick.product.productRef, variantRef: missing, units: 1, unitPriceFen: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VariantNotFoundError);
    expect((error as VariantNotFoundError).variants.map((v) => v.variantRef).sort()).toEqual(pick.product.variants.map((v) => v.variantRef).sort());
    expect(kit.intents.listIntents()).toHaveLength(before);
  });

  it('two orders placed at the same moment share one template request', async () => {
    const pick = card('card for concurrent orders');
    const { productRef } = pick.product;
    const { variantRef } = pick.variant;
    const priceFen = fen(pick.variant.price);
    const tplBefore = count(isTemplateRequest);
    const detailBefore = count(isDetailRequest);
    const [a, b] = await Promise.all([
      placement.place({ productRef, variantRef, units: 1, unitPriceFen: priceFen }),
      placement.place({ productRef, variantRef, units: 1, unitPriceFen: priceFen }),
    ]);
    expect(count(isTemplateRequest) - tplBefore).toBe(1);
    expect(count(isDetailRequest) - detailBefore).toBe(1);
    expect(a.clientOrderRef).not.toBe(b.clientOrderRef);
    await drain(a.clientOrderRef);
    await drain(b.clientOrderRef);
    expect(await charges(a.clientOrderRef)).toEqual([priceFen]);
    expect(await charges(b.clientOrderRef)).toEqual([priceFen]);
  });

  it('a revision bump seen in a detail makes the cached template stale: fetched again, the order carries the new revision', async () => {
    const pick = catalog.claim((p, v) => isTopup(p) && isOpen(p, v) && v.supply === 'succeed' && v.entryMode === 'single', 'single-entry top-up');
    const { productRef } = pick.product;
    const { variantRef } = pick.variant;
    await kit.seedTemplate(productRef, variantRef, 'topup');
    const old = must(readCachedTemplate(kit.temp.db, productRef, variantRef), 'cached template');
    expect(kit.templates.trusted(productRef, variantRef)).not.toBeNull();
    await changeProduct(h, productRef, { variantRef, purchaseSchemaRevision: 'bump' });
    // A detail (a sync, a product.changed, the product opened) shows the new revision.
    const { data: detail } = await kit.client.getProduct(productRef);
    createCatalogRepository(kit.temp.db, kit.clock).applyProductSnapshot({ from: 'detail', detail });
    expect(kit.templates.trusted(productRef, variantRef)).toBeNull();
    const tplBefore = count(isTemplateRequest);
    const fresh = await placement.templateForForm(productRef, variantRef);
    expect(count(isTemplateRequest) - tplBefore).toBe(1);
    expect(fresh.purchaseSchemaRevision).toBeGreaterThan(old.purchaseSchemaRevision);
    const units = fresh.unitRule.min;
    const intent = await placement.place({ productRef, variantRef, units, purchaseEntries: validEntries(fresh, units), unitPriceFen: fen(pick.variant.price) });
    expect(count(isTemplateRequest) - tplBefore).toBe(1);
    expect(intent.purchaseSchemaRevision).toBe(fresh.purchaseSchemaRevision);
    await drain(intent.clientOrderRef);
    expect(kit.intents.getIntent(intent.clientOrderRef)?.status).toBe('accepted');
    const sent = kit.exchanges.filter((e) => isCreate(e.url) && refOfBody(e.body) === intent.clientOrderRef).map((e) => (JSON.parse(must(e.body, 'body')) as { purchaseSchemaRevision?: number }).purchaseSchemaRevision);
    expect(sent).toEqual([fresh.purchaseSchemaRevision]);
    expect(await charges(intent.clientOrderRef)).toEqual([fen(pick.variant.price) * units]);
  });

  it('a queued top-up whose variant shows a new revision before sending is parked, not sent stale; confirming sends the new one', async () => {
    const pick = catalog.claim((p, v) => isTopup(p) && isOpen(p, v) && v.supply === 'succeed' && v.entryMode === 'single', 'second single-entry top-up');
    const { productRef } = pick.product;
    const { variantRef } = pick.variant;
    const tpl = await placement.templateForForm(productRef, variantRef);
    const units = tpl.unitRule.min;
    const entries = validEntries(tpl, units);
    const intent = await placement.place({ productRef, variantRef, units, purchaseEntries: entries, unitPriceFen: fen(pick.variant.price) });
    await changeProduct(h, productRef, { variantRef, purchaseSchemaRevision: 'bump' });
    const tplBefore = count(isTemplateRequest);
    await drain(intent.clientOrderRef);
    // The guard's detail showed the bump: the template was fetched again and the buyer is asked; no create was sent.
    expect(kit.intents.getIntent(intent.clientOrderRef)).toMatchObject({ status: 'needs_confirmation', lastErrorCode: 'SCHEMA_CHANGED' });
    expect(count(isTemplateRequest) - tplBefore).toBe(1);
    expect(creates(intent.clientOrderRef)).toBe(0);
    const fresh = must(kit.templates.trusted(productRef, variantRef), 'fresh template');
    expect(fresh.purchaseSchemaRevision).toBeGreaterThan(tpl.purchaseSchemaRevision);
    kit.intents.confirmIntent(intent.clientOrderRef, { units, purchaseEntries: entries });
    await drain(intent.clientOrderRef);
    expect(kit.intents.getIntent(intent.clientOrderRef)?.status).toBe('accepted');
    expect(await charges(intent.clientOrderRef)).toEqual([fen(pick.variant.price) * units]);
  });
});

describe('offline: needs template', () => {
  it('keeps the order as needs_template with nothing sent, and completes it exactly once when the merchant is back', async () => {
    const pick = card('card ordered offline');
    const { productRef } = pick.product;
    const { variantRef } = pick.variant;
    const priceFen = fen(pick.variant.price);
    // The catalog knows the variant (its detail), no template was ever fetched.
    const { data: detail } = await kit.client.getProduct(productRef);
    createCatalogRepository(kit.temp.db, kit.clock).applyProductSnapshot({ from: 'detail', detail });
    const balanceBefore = (await ledger(h, kit.account)).balance;
    await setFaults(h, { refuseConnections: true });
    try {
      // The state still says online: the fetch fails in transport.
      const a = await placement.place({ productRef, variantRef, units: 2, unitPriceFen: priceFen });
      // The state says offline: no request at all.
      reachable = false;
      const sentBefore = kit.exchanges.length;
      await expect(placement.templateForForm(productRef, variantRef)).rejects.toBeInstanceOf(TemplateOfflineError);
      const b = await placement.place({ productRef, variantRef, units: 1, unitPriceFen: priceFen });
      expect(kit.exchanges.length).toBe(sentBefore);
      for (const intent of [a, b]) {
        expect(intent).toMatchObject({ status: 'needs_template', purchaseSchemaRevision: null, attempts: 0, confirmedUnitPriceFen: priceFen, productType: 'card' });
      }
      // The outbox, offline, sends nothing.
      await kit.outbox.runOnce();
      expect(kit.intents.getIntent(a.clientOrderRef)?.status).toBe('needs_template');
      expect(creates(a.clientOrderRef) + creates(b.clientOrderRef)).toBe(0);
      expect((await ledger(h, kit.account)).balance).toBe(balanceBefore);
      expect(entriesFor(await ledger(h, kit.account), a.clientOrderRef)).toHaveLength(0);
      await setFaults(h, { refuseConnections: false });
      reachable = true;
      const tplBefore = count(isTemplateRequest);
      await drain(a.clientOrderRef);
      await drain(b.clientOrderRef);
      expect(count(isTemplateRequest) - tplBefore).toBe(1);
      expect(kit.intents.getIntent(a.clientOrderRef)?.status).toBe('accepted');
      expect(kit.intents.getIntent(b.clientOrderRef)?.status).toBe('accepted');
      expect(await charges(a.clientOrderRef)).toEqual([priceFen * 2]);
      expect(await charges(b.clientOrderRef)).toEqual([priceFen]);
      expect(creates(a.clientOrderRef)).toBe(1);
    } finally {
      reachable = true;
      await setFaults(h, { refuseConnections: false });
    }
  });

  it('a top-up kept without its entries asks the buyer with the template when the merchant is back, and can be withdrawn meanwhile', async () => {
    const pick = catalog.claim((p, v) => isTopup(p) && isOpen(p, v) && v.supply === 'succeed' && v.entryMode === 'single' && p.variants.length === 1, 'single-variant top-up');
    const { productRef } = pick.product;
    const { variantRef } = pick.variant;
    const priceFen = fen(pick.variant.price);
    const { data: detail } = await kit.client.getProduct(productRef);
    createCatalogRepository(kit.temp.db, kit.clock).applyProductSnapshot({ from: 'detail', detail });
    const rule = (await template(h, kit.account, pick)).unitRule;
    reachable = false;
    try {
      const kept = await placement.place({ productRef, variantRef, units: rule.min, unitPriceFen: priceFen });
      const dropped = await placement.place({ productRef, variantRef, units: rule.min, unitPriceFen: priceFen });
      expect(kept.status).toBe('needs_template');
      expect(await kit.outbox.withdraw(dropped.clientOrderRef)).toBe('withdrawn');
      reachable = true;
      await drain(kept.clientOrderRef);
      expect(kit.intents.getIntent(kept.clientOrderRef)).toMatchObject({ status: 'needs_confirmation', lastErrorCode: 'TEMPLATE_INPUT', purchaseSchemaRevision: null });
      expect(creates(kept.clientOrderRef)).toBe(0);
      // The buyer gives the account with the template's form: the same ref goes out, with the template's revision.
      const tpl = must(kit.templates.trusted(productRef, variantRef), 'template fetched when back');
      const confirmed = kit.intents.confirmIntent(kept.clientOrderRef, { units: rule.min, purchaseEntries: validEntries(tpl, rule.min) });
      expect(confirmed).toMatchObject({ status: 'queued', purchaseSchemaRevision: tpl.purchaseSchemaRevision });
      await drain(kept.clientOrderRef);
      expect(kit.intents.getIntent(kept.clientOrderRef)?.status).toBe('accepted');
      expect(await charges(kept.clientOrderRef)).toEqual([priceFen * rule.min]);
      expect(entriesFor(await ledger(h, kit.account), dropped.clientOrderRef)).toHaveLength(0);
      expect(kit.intents.getIntent(dropped.clientOrderRef)?.status).toBe('withdrawn');
    } finally {
      reachable = true;
    }
  });

  it('a top-up kept with valid entries goes out by itself, and a price rise meanwhile still parks it', async () => {
    const pick = catalog.claim((p, v) => isTopup(p) && isOpen(p, v) && v.supply === 'succeed' && v.entryMode === 'single' && p.variants.length === 1, 'second single-variant top-up');
    const { productRef } = pick.product;
    const { variantRef } = pick.variant;
    const priceFen = fen(pick.variant.price);
    const { data: detail } = await kit.client.getProduct(productRef);
    createCatalogRepository(kit.temp.db, kit.clock).applyProductSnapshot({ from: 'detail', detail });
    const tpl = await template(h, kit.account, pick);
    reachable = false;
    let ref: string | undefined;
    try {
      const intent = await placement.place({ productRef, variantRef, units: tpl.unitRule.min, purchaseEntries: validEntries(tpl, tpl.unitRule.min), unitPriceFen: priceFen });
      ref = intent.clientOrderRef;
      expect(intent.status).toBe('needs_template');
    } finally {
      reachable = true;
    }
    await changeProduct(h, productRef, { variantRef, price: ((priceFen + 100) / 100).toFixed(2) });
    await drain(ref);
    expect(kit.intents.getIntent(ref)).toMatchObject({ status: 'price_changed', guardUnitPriceFen: priceFen + 100, purchaseSchemaRevision: tpl.purchaseSchemaRevision });
    expect(creates(ref)).toBe(0);
    expect(entriesFor(await ledger(h, kit.account), ref)).toHaveLength(0);
  });
});
