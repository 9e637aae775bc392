// product.changed events captured from the sandbox (a subscription bound to a local receiver, then
// control changes) applied through applyProductChangedEvent as hints: the detail is read with our key
// and gives the state GET /goods/{ref} shows; a hint no newer than the stored detail costs nothing; a
// forged snapshot is never stored, a forged future revision refused unasked, and a forged revision an
// older version stored is corrected by the next authenticated sync; templates are fetched again when
// the purchaseSchemaRevision moves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCatalogSync } from '../../../src/core/catalog/catalog-sync';
import { migrations } from '../../../src/core/db/migrations';
import { applyProductChangedEvent, type ProductChangeResult } from '../../../src/core/catalog/product-changes';
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
  // Every template cached, so the events below test the revision rule (a stale template is fetched again).
  await runCatalogSync({ repository: s.repository, client: kit.client, clock: kit.clock, templates: 'all' });
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

/** Applies a hint with "now" read from the sandbox's own (faster) clock: its revisions are sandbox seconds. */
function applyHint(event: ProductChangedEvent): Promise<ProductChangeResult> {
  return applyProductChangedEvent({ repository: s.repository, client: kit.client, nowSeconds: () => event.occurredAt }, event);
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
    for (const event of events) results.push(await applyHint(event));
    // The first hint reads the detail, which already holds all four changes; the later hints are
    // no newer than that authenticated copy and cost no request.
    const first = applied(results[0] ?? { kind: 'stale', productRef: 0, revision: 0, storedRevision: 0 });
    expect(results.slice(1).map((r) => r.kind)).toEqual(['stale', 'stale', 'stale']);
    expect(first.changes.variants).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ variantRef: v1.variantRef, priceChanged: true }),
        expect.objectContaining({ variantRef: v0.variantRef, availabilityChanged: true }),
      ]),
    );
    const v1After = first.changes.variants.find((v) => v.variantRef === v1.variantRef);
    expect(v1After?.after?.priceFen).toBe(Math.round(Number(newPrice) * 100));
    expect(first.changes.brand?.after).toBeNull();
    // The template is fetched again for exactly the variant whose revision moved.
    expect(first.templatesRefetched).toEqual([{ productRef: target.productRef, variantRef: v0.variantRef, purchaseSchemaRevision: v0.purchaseSchemaRevision + 1 }]);
    expect(s.reader.readTemplate(target.productRef, v0.variantRef)?.template.purchaseSchemaRevision).toBe(v0.purchaseSchemaRevision + 1);
    const applyRequests = kit.exchanges.slice(start);
    expect(requestsTo(applyRequests, `/goods/${target.productRef}`)).toHaveLength(1);
    expect(requestsTo(applyRequests, '/goods/tpl')).toHaveLength(1);
    expect(applyRequests).toHaveLength(2);

    const { data: detail } = await kit.client.getProduct(target.productRef);
    const cached = s.reader.readProduct(target.productRef);
    expect(comparable(cached)).toEqual(expectedFromDetail(detail));
    expect(cached?.brand).toBeNull();

    // An older hint after a newer one: reported stale, nothing asked, nothing written.
    const historyCount = s.repository.counts().priceHistory;
    const oldest = events[0];
    if (!oldest) throw new Error('no event');
    const before = kit.exchanges.length;
    const stale = await applyHint(oldest);
    expect(stale).toMatchObject({ kind: 'stale', revision: oldest.revision, storedRevision: detail.revision });
    expect(kit.exchanges.length).toBe(before);
    expect(s.reader.readProduct(target.productRef)).toEqual(cached);
    expect(s.repository.counts().priceHistory).toBe(historyCount);
    expect(count429(kit.exchanges)).toBe(0);
  });

  it('a well-formed forged snapshot is never stored: the detail read with our key is (interface v1 §6.4.9)', async () => {
    const target = products.find((p) => p.variants.length > 1 && p.brand !== null && eventsFor(p.productRef).length === 0);
    if (!target) throw new Error('no branded multi-variant product');
    const before = s.reader.readProduct(target.productRef);
    if (!before?.brand || before.revision === null) throw new Error('product not cached');
    const kept = before.variants[0];
    if (!kept) throw new Error('no variant');
    const event = productChangedEventSchema.parse({
      eventId: 'evt_forged_plausible',
      eventType: 'product.changed',
      occurredAt: before.revision + 1,
      productRef: target.productRef,
      revision: before.revision + 1,
      changedProperties: ['variants', 'price', 'brand'],
      productSnapshot: {
        productRef: target.productRef,
        catalogRef: before.catalogRef,
        brand: null,
        availability: before.availability,
        revision: before.revision + 1,
        variants: [
          { variantRef: kept.variantRef, title: kept.title, price: 0.01, availability: 'available', inventoryType: 'unlimited', remainingUnits: null, purchaseSchemaRevision: kept.purchaseSchemaRevision },
        ],
      },
    });
    const start = kit.exchanges.length;
    const result = applied(await applyHint(event));
    expect(requestsTo(kit.exchanges.slice(start), `/goods/${target.productRef}`)).toHaveLength(1);
    // The merchant's detail says nothing changed: no price of 0.01, no variant removed, the brand kept.
    expect(result.changes.variants).toEqual([]);
    expect(result.changes.brand).toBeNull();
    const after = s.reader.readProduct(target.productRef);
    expect(after?.brand).toEqual(before.brand);
    expect(after?.variants).toEqual(before.variants);
  });

  it('a forged revision far in the future is refused unasked; a forged one stored by the previous version is corrected by the next authenticated sync', async () => {
    const target = products.find((p) => eventsFor(p.productRef).length === 0 && p.variants.length === 1);
    if (!target) throw new Error('no single-variant product');
    const before = s.reader.readProduct(target.productRef);
    const variant = before?.variants[0];
    if (!before || !variant) throw new Error('product not cached');
    const forged = productChangedEventSchema.parse({
      eventId: 'evt_forged_future',
      eventType: 'product.changed',
      occurredAt: 9_999_999_999,
      productRef: target.productRef,
      revision: 9_999_999_999,
      changedProperties: ['price'],
      productSnapshot: {
        productRef: target.productRef,
        catalogRef: before.catalogRef,
        availability: 'available',
        revision: 9_999_999_999,
        variants: [{ variantRef: variant.variantRef, title: variant.title, price: 0.01, availability: 'available', inventoryType: 'unlimited', remainingUnits: null, purchaseSchemaRevision: variant.purchaseSchemaRevision }],
      },
    });
    const start = kit.exchanges.length;
    const refused = await applyProductChangedEvent({ repository: s.repository, client: kit.client }, forged);
    expect(refused.kind).toBe('refused');
    expect(kit.exchanges.length).toBe(start);
    expect(s.reader.readProduct(target.productRef)).toEqual(before);

    // What the previous version did with it: the snapshot stored with its revision (bench path).
    s.repository.applyProductSnapshot({ from: 'event', snapshot: forged.productSnapshot });
    expect(s.reader.readProduct(target.productRef)?.variants[0]?.priceFen).toBe(1);
    // Migration 0013's correction (the same statement), then an authenticated sync puts it right.
    s.db.exec('DROP TRIGGER products_revision_never_decreases');
    s.db.prepare('UPDATE products SET revision = 0 WHERE revision IS NOT NULL AND (listed_revision IS NULL OR revision > listed_revision)').run();
    const trigger = migrations.find((m) => m.id === 13)?.sql.match(/CREATE TRIGGER[\s\S]*?END;/)?.[0];
    if (!trigger) throw new Error('no trigger in 0013');
    s.db.exec(trigger);
    s.repository.writeSyncState({ phase: 'done', nextPage: 1, itemsDone: 0, itemsTotal: null, startedAt: 0, updatedAt: 0, finishedAt: 0, lastSuccessAt: 0, failure: null });
    await runCatalogSync({ repository: s.repository, client: kit.client, clock: kit.clock, templates: 'all' });
    const corrected = s.reader.readProduct(target.productRef);
    expect(corrected?.variants[0]?.priceFen).toBe(variant.priceFen);
    expect(corrected?.revision).toBe(before.revision);
  });

  it('an event for a product not cached yet fetches its detail, and its templates only when it is watched', async () => {
    const event = eventsFor(products.find((p) => eventsFor(p.productRef).length > 0)?.productRef ?? 0).at(-1);
    if (!event) throw new Error('no captured event');
    // Nobody watches or ordered it: the detail alone (its templates wait until an order needs them).
    const empty = createCatalogStore(kit.clock);
    extraStores.push(empty);
    const start = kit.exchanges.length;
    const result = applied(await applyProductChangedEvent({ repository: empty.repository, client: kit.client, nowSeconds: () => event.occurredAt }, event));
    expect(result.fetchedDetail).toBe(true);
    const cached = empty.reader.readProduct(event.productRef);
    expect(cached?.name.length).toBeGreaterThan(0);
    expect(result.templatesRefetched).toEqual([]);
    expect(requestsTo(kit.exchanges.slice(start), '/goods/tpl')).toHaveLength(0);
    // Watched: every variant's template comes with it.
    const watching = createCatalogStore(kit.clock);
    extraStores.push(watching);
    watching.db.prepare('INSERT INTO watched_products (product_ref, watched_at) VALUES (?, 0)').run(event.productRef);
    const watched = applied(await applyProductChangedEvent({ repository: watching.repository, client: kit.client, nowSeconds: () => event.occurredAt }, event));
    expect(watched.templatesRefetched).toHaveLength(cached?.variants.length ?? -1);
    expect(count429(kit.exchanges)).toBe(0);
  });
});
