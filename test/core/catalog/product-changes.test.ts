// product.changed events captured from the sandbox (a subscription bound to a local receiver, then
// control changes) applied through applyProductChangedEvent: the same state as GET /goods/{ref},
// stale snapshots ignored, brand null clears and absent keeps, templates fetched again when the
// purchaseSchemaRevision moves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCatalogSync } from '../../../src/main/core/catalog/catalog-sync';
import { applyProductChangedEvent, type ProductChangeResult } from '../../../src/main/core/catalog/product-changes';
import { productChangedEventSchema, type ProductChangedEvent } from '../../../src/shared/merchant/webhook-events';
import { changeProduct, controlProducts, type ControlProduct } from '../../support/control-catalog';
import { startSandbox, type RunningSandbox } from '../../support/sandbox-process';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';
import { comparable, expectedFromDetail } from './catalog-expectations';
import { count429, createCatalogStore, freshClient, requestsTo, type CatalogClientKit, type CatalogStore } from './catalog-kit';

const SCALE = 20;
const PRODUCTS = 60;

let sandbox: RunningSandbox;
let receiver: WebhookReceiver;
let kit: CatalogClientKit;
let s: CatalogStore;
const extraStores: CatalogStore[] = [];
let products: (ControlProduct & { brand: unknown })[];

beforeAll(async () => {
  sandbox = await startSandbox(['--products', String(PRODUCTS), '--time-scale', String(SCALE)]);
  receiver = await startWebhookReceiver();
  kit = await freshClient(sandbox, SCALE);
  s = createCatalogStore(kit.clock);
  await runCatalogSync({ repository: s.repository, client: kit.client, clock: kit.clock });
  products = (await controlProducts(sandbox, PRODUCTS)) as (ControlProduct & { brand: unknown })[];
});

afterAll(async () => {
  kit?.close();
  s?.temp.dispose();
  for (const extra of extraStores) extra.temp.dispose();
  await receiver?.close();
  await sandbox?.stop();
});

function eventsFor(productRef: number): ProductChangedEvent[] {
  return receiver.received
    .map((hook) => productChangedEventSchema.safeParse(hook.json))
    .flatMap((parsed) => (parsed.success && parsed.data.productRef === productRef ? [parsed.data] : []));
}

function applied(result: ProductChangeResult): Extract<ProductChangeResult, { kind: 'applied' }> {
  if (result.kind !== 'applied') throw new Error(`expected applied, got ${result.kind}`);
  return result;
}

describe('product.changed', () => {
  it('events applied in order give the state GET /goods/{ref} shows; an older one afterwards changes nothing', async () => {
    const target = products.find((p) => p.variants.length > 1 && p.brand !== null);
    if (!target) throw new Error('no multi-variant branded product');
    const [v0, v1] = target.variants;
    if (!v0 || !v1) throw new Error('variants missing');
    await kit.client.changeSubscriptions({ productRefs: [target.productRef], subscriptionState: 'subscribed', callbackUrl: receiver.url });

    const newPrice = (Number(v1.price) + 2.5).toFixed(2);
    await changeProduct(sandbox, target.productRef, { variantRef: v1.variantRef, price: newPrice });
    await changeProduct(sandbox, target.productRef, { variantRef: v0.variantRef, purchaseSchemaRevision: 'bump' });
    await changeProduct(sandbox, target.productRef, { brand: null });
    await changeProduct(sandbox, target.productRef, { variantRef: v0.variantRef, availability: 'unavailable' });
    await receiver.waitFor(() => eventsFor(target.productRef).length >= 4);
    const events = eventsFor(target.productRef);
    expect(events).toHaveLength(4);

    const start = kit.exchanges.length;
    const results: ProductChangeResult[] = [];
    for (const event of events) results.push(await applyProductChangedEvent({ repository: s.repository, client: kit.client }, event));
    const [price, bump, brand, availability] = results.map(applied);

    // What changed, for notifications: by variant, from the data rather than the hints.
    expect(price?.changes.variants).toEqual([
      expect.objectContaining({ variantRef: v1.variantRef, priceChanged: true, stockChanged: false, availabilityChanged: false }),
    ]);
    expect(price?.changes.variants[0]?.after?.priceFen).toBe(Math.round(Number(newPrice) * 100));
    expect(price?.templatesRefetched).toEqual([]);
    // The template is fetched again for exactly the variant whose revision moved.
    expect(bump?.templatesRefetched).toEqual([{ productRef: target.productRef, variantRef: v0.variantRef, purchaseSchemaRevision: v0.purchaseSchemaRevision + 1 }]);
    expect(s.reader.readTemplate(target.productRef, v0.variantRef)?.template.purchaseSchemaRevision).toBe(v0.purchaseSchemaRevision + 1);
    expect(brand?.changes.brand?.after).toBeNull();
    expect(availability?.changes.variants).toEqual([expect.objectContaining({ variantRef: v0.variantRef, availabilityChanged: true })]);
    const applyRequests = kit.exchanges.slice(start);
    expect(requestsTo(applyRequests, '/goods/tpl')).toHaveLength(1);
    expect(applyRequests).toHaveLength(1);

    const { data: detail } = await kit.client.getProduct(target.productRef);
    const cached = s.reader.readProduct(target.productRef);
    expect(comparable(cached)).toEqual(expectedFromDetail(detail));
    expect(cached?.brand).toBeNull();

    // An older snapshot after a newer one: reported stale, nothing written.
    const historyCount = s.repository.counts().priceHistory;
    const oldest = events[0];
    if (!oldest) throw new Error('no event');
    const stale = await applyProductChangedEvent({ repository: s.repository, client: kit.client }, oldest);
    expect(stale).toMatchObject({ kind: 'stale', revision: oldest.revision, storedRevision: detail.revision });
    expect(s.reader.readProduct(target.productRef)).toEqual(cached);
    expect(s.repository.counts().priceHistory).toBe(historyCount);
    expect(count429(kit.exchanges)).toBe(0);
  });

  it('a snapshot without a brand keeps the stored brand; the variant list is replaced whole', async () => {
    const target = products.find((p) => p.variants.length > 1 && p.brand !== null && eventsFor(p.productRef).length === 0);
    if (!target) throw new Error('no branded multi-variant product');
    const before = s.reader.readProduct(target.productRef);
    if (!before?.brand || before.revision === null) throw new Error('product not cached');
    const kept = before.variants[0];
    if (!kept) throw new Error('no variant');
    const event = productChangedEventSchema.parse({
      eventId: 'evt_synthetic_brand_absent',
      eventType: 'product.changed',
      occurredAt: before.revision + 1,
      productRef: target.productRef,
      revision: before.revision + 1,
      changedProperties: ['variants'],
      productSnapshot: {
        productRef: target.productRef,
        catalogRef: before.catalogRef,
        availability: before.availability,
        revision: before.revision + 1,
        variants: [
          {
            variantRef: kept.variantRef,
            title: kept.title,
            price: kept.priceFen / 100,
            availability: kept.availability,
            inventoryType: kept.inventoryType,
            remainingUnits: kept.remainingUnits,
            purchaseSchemaRevision: kept.purchaseSchemaRevision,
          },
        ],
      },
    });
    const result = applied(await applyProductChangedEvent({ repository: s.repository, client: kit.client }, event));
    const after = s.reader.readProduct(target.productRef);
    expect(after?.brand).toEqual(before.brand);
    expect(after?.variants.map((v) => v.variantRef)).toEqual([kept.variantRef]);
    expect(result.changes.brand).toBeNull();
    expect(result.changes.variants.every((v) => v.after === null)).toBe(true);
    expect(result.templatesRefetched).toEqual([]);
    // The removed variants' templates are gone with them.
    for (const gone of before.variants.slice(1)) expect(s.reader.readTemplate(target.productRef, gone.variantRef)).toBeNull();
  });

  it('an event for a product not cached yet fetches its detail and templates', async () => {
    const empty = createCatalogStore(kit.clock);
    extraStores.push(empty);
    const event = eventsFor(products.find((p) => eventsFor(p.productRef).length > 0)?.productRef ?? 0).at(-1);
    if (!event) throw new Error('no captured event');
    const result = applied(await applyProductChangedEvent({ repository: empty.repository, client: kit.client }, event));
    expect(result.fetchedDetail).toBe(true);
    const cached = empty.reader.readProduct(event.productRef);
    expect(cached?.name.length).toBeGreaterThan(0);
    expect(result.templatesRefetched).toHaveLength(cached?.variants.length ?? -1);
    expect(count429(kit.exchanges)).toBe(0);
  });
});
