// PURCHASE_SCHEMA_CHANGED: the template's revision moves after the intent was written. The outbox
// must refresh the cached template, park the intent in needs_confirmation, and send nothing more
// until the buyer confirms; confirming re-validates against the new template and sends the same ref.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlHeaders } from '../../support/control-auth';
import { IntentStateError } from '../../../src/core/orders/order-errors';
import { readCachedTemplate } from '../../../src/core/orders/template-cache';
import { Catalog, changeProduct, controlProducts, entriesFor, isOpen, isTopup, launch, ledger, must, validEntries, type Harness } from '../../support/orders-harness';
import { createOrdersKit, isCreate, type OrdersKit } from './orders-kit';

const SCALE = 50;
let h: Harness;
let kit: OrdersKit;
let catalog: Catalog;

beforeAll(async () => {
  h = await launch([], SCALE);
  kit = await createOrdersKit(h, { scale: SCALE });
  catalog = new Catalog(await controlProducts(h));
});

afterAll(async () => {
  await kit?.close();
  await h?.sandbox.stop();
});

/**
 * Bumps the variant's template revision synchronously as the create is handed to the transport (the
 * hook runs before a byte is sent): the guard's detail read before it still showed the old revision.
 */
function bumpAsTheCreateLeaves(productRef: number, variantRef: number): void {
  let done = false;
  kit.onRequest = (_method, url) => {
    if (done || !isCreate(url)) return;
    done = true;
    const headers = Object.entries(controlHeaders(h.sandbox.controlToken, 'POST')).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
    const bumped = spawnSync('curl', ['-sS', '-f', '-X', 'POST', ...headers, '-d', JSON.stringify({ variantRef, purchaseSchemaRevision: 'bump' }), `${h.sandbox.controlUrl}/control/products/${productRef}`]);
    if (bumped.status !== 0) throw new Error(`the control bump failed: ${bumped.stderr.toString()}`);
  };
}

describe('purchase schema changed (409101)', () => {
  it('refreshes the template, waits for confirmation, and never resubmits by itself', async () => {
    const pick = catalog.claim((p, v) => isTopup(p) && isOpen(p, v) && v.supply === 'succeed' && v.entryMode === 'single', 'single-entry top-up');
    const { productRef } = pick.product;
    const { variantRef } = pick.variant;
    await kit.seedTemplate(productRef, variantRef, 'topup');
    const cached = must(readCachedTemplate(kit.temp.db, productRef, variantRef), 'cached template');
    const units = cached.unitRule.min;
    const entries = validEntries(cached, units);
    const intent = kit.intents.placeOrder({ productRef, variantRef, units, purchaseEntries: entries });

    const templateRequests = (): number => kit.exchanges.filter((e) => new URL(e.url).pathname.endsWith('/goods/tpl')).length;
    const before409 = templateRequests();
    // The bump lands after the guard's product read and before the create: only 409101 can tell.
    bumpAsTheCreateLeaves(productRef, variantRef);
    try {
      await kit.outbox.runOnce();
    } finally {
      kit.onRequest = null;
    }
    // Fetched again once, through the template source.
    expect(templateRequests() - before409).toBe(1);
    const parked = must(kit.intents.getIntent(intent.clientOrderRef), 'intent');
    expect(parked.status).toBe('needs_confirmation');
    expect(parked.lastErrorCode).toBe('409101');
    expect(parked.lastRequestId).toMatch(/^req_/);
    const refreshed = must(readCachedTemplate(kit.temp.db, productRef, variantRef), 'refreshed template');
    expect(refreshed.purchaseSchemaRevision).toBeGreaterThan(cached.purchaseSchemaRevision);
    // The stored content is still what the buyer validated: nothing was silently rewritten.
    expect(parked.purchaseSchemaRevision).toBe(cached.purchaseSchemaRevision);
    expect(parked.purchaseEntries).toEqual(entries);

    // More passes send nothing while it waits.
    const creates = (): number => kit.exchanges.filter((e) => isCreate(e.url)).length;
    const before = creates();
    await kit.outbox.runOnce();
    await kit.outbox.runOnce();
    expect(creates()).toBe(before);
    expect(entriesFor(await ledger(h, kit.account), intent.clientOrderRef)).toHaveLength(0);

    // The buyer confirms against the new template: same ref, new revision, then accepted once.
    expect(() => kit.intents.confirmIntent(intent.clientOrderRef, { units: 0, purchaseEntries: entries })).toThrow(/units/);
    const confirmed = kit.intents.confirmIntent(intent.clientOrderRef, { units, purchaseEntries: entries });
    expect(confirmed).toMatchObject({ status: 'queued', clientOrderRef: intent.clientOrderRef, purchaseSchemaRevision: refreshed.purchaseSchemaRevision });
    await kit.outbox.runOnce();
    expect(kit.intents.getIntent(intent.clientOrderRef)?.status).toBe('accepted');
    expect(() => kit.intents.confirmIntent(intent.clientOrderRef, { units, purchaseEntries: entries })).toThrow(IntentStateError);
    // Withdrawing what the merchant holds withdraws nothing, and says so.
    expect(await kit.outbox.withdraw(intent.clientOrderRef)).toBe('merchantHasOrder');
    expect(kit.intents.getIntent(intent.clientOrderRef)?.status).toBe('accepted');
    expect(entriesFor(await ledger(h, kit.account), intent.clientOrderRef, 'charge')).toHaveLength(1);
  });

  it('lets the buyer withdraw an intent parked by a schema change (the merchant holds nothing)', async () => {
    const pick = catalog.claim((p, v) => isTopup(p) && isOpen(p, v) && v.supply === 'succeed' && v.entryMode === 'perUnit', 'perUnit top-up');
    const { productRef } = pick.product;
    const { variantRef } = pick.variant;
    await kit.seedTemplate(productRef, variantRef, 'topup');
    const cached = must(readCachedTemplate(kit.temp.db, productRef, variantRef), 'cached template');
    const intent = kit.intents.placeOrder({ productRef, variantRef, units: cached.unitRule.min, purchaseEntries: validEntries(cached, cached.unitRule.min) });
    await changeProduct(h, productRef, { variantRef, purchaseSchemaRevision: 'bump' });
    await kit.outbox.runOnce();
    expect(kit.intents.getIntent(intent.clientOrderRef)?.status).toBe('needs_confirmation');
    expect(await kit.outbox.withdraw(intent.clientOrderRef)).toBe('withdrawn');
    expect(kit.intents.getIntent(intent.clientOrderRef)).toMatchObject({ status: 'withdrawn', purchaseEntries: null });
    expect(entriesFor(await ledger(h, kit.account), intent.clientOrderRef)).toHaveLength(0);
  });
});
