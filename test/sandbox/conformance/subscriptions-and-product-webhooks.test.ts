// Subscriptions and product.changed (interface v1 §2.4, 3.2, 6.2, 6.3, 6.4.7; contract §4.1, 6): the batch
// subscription endpoint, then one product.changed per change with the full snapshot and exactly the
// hints of 6.3, strictly increasing revisions, nothing for a category change, nothing for products
// that are not (or no longer) subscribed, and a subscription created by a successful order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, control } from '../../support/merchant-http';
import { startSandbox, type RunningSandbox } from '../../support/sandbox-process';
import { startWebhookReceiver, type ReceivedHook, type WebhookReceiver } from '../../support/webhook-receiver';
import {
  changeProduct,
  controlProducts,
  deliveries,
  isFullyAvailable,
  isOrderableCard,
  isSingleVariant,
  pickProduct,
  type ControlProduct,
} from '../../support/control-catalog';
import { expectSnapshot, type Snapshot } from '../../support/snapshot-checks';
import { asArray, asRecord, expectError, expectListPayload, expectOk, must, newAccount, pacedCall, sleep, templateMinUnits, type Credentials } from '../../support/wire-checks';
import { controlHeaders } from '../../support/control-auth';

/** How long to keep listening after an event arrived, to be sure no second one follows. */
const QUIET_MS = 400;

let sandbox: RunningSandbox;
let receiver: WebhookReceiver;
let products: ControlProduct[];
const used = new Set<number>();
const seenEventIds = new Set<string>();

beforeAll(async () => {
  // 120 products so that a batch of 101 real products can be refused for its size alone.
  [sandbox, receiver] = await Promise.all([startSandbox(['--products', '120']), startWebhookReceiver()]);
  products = await controlProducts(sandbox);
  // The subscription tests below use the first five products with this receiver; changes are made on others.
  for (const p of products.slice(0, 5)) used.add(p.productRef);
});

afterAll(async () => {
  await Promise.all([sandbox?.stop(), receiver?.close()]);
});

function productEvents(hooks: ReceivedHook[], productRef: number): ReceivedHook[] {
  return hooks.filter((h) => h.json?.eventType === 'product.changed' && h.json.productRef === productRef);
}

function subscribe(auth: Credentials, productRefs: number[], callbackUrl?: string, subscriptionState = 'subscribed'): ReturnType<typeof callApi> {
  return pacedCall(sandbox, auth, 'POST', '/goods/subscriptions', { body: { productRefs, subscriptionState, ...(callbackUrl === undefined ? {} : { callbackUrl }) } });
}

async function subscribedRefs(auth: Credentials): Promise<number[]> {
  const page = expectListPayload(expectOk(await pacedCall(sandbox, auth, 'GET', '/goods/catalog', { query: { subscriptionState: 'subscribed', pageSize: 100 } })));
  return page.list.map((i) => i.productRef as number);
}

async function catalogItem(s: RunningSandbox, auth: Credentials, productRef: number, catalogRef?: number): Promise<Record<string, unknown>> {
  for (let page = 1; page < 10; page++) {
    const res = await callApi(s, 'GET', '/goods/catalog', { auth, query: { page, pageSize: 100, catalogRef } });
    const part = expectListPayload(expectOk(res));
    const found = part.list.find((i) => i.productRef === productRef);
    if (found !== undefined) return found;
    if (part.list.length === 0) break;
  }
  throw new Error(`product ${productRef} not in the catalog`);
}

/** The common checks of one product.changed body (interface v1 §2.4). */
function expectProductChanged(hook: ReceivedHook, productRef: number): { body: Record<string, unknown>; snapshot: Snapshot } {
  expect(hook.method).toBe('POST');
  expect(hook.headers['content-type']).toMatch(/^application\/json/);
  // No credentials and no signature on webhooks (interface v1 §5, 6.4.9).
  expect(hook.headers['x-service-key']).toBeUndefined();
  expect(hook.headers['x-service-user-id']).toBeUndefined();
  const body = asRecord(hook.json, 'webhook body');
  expect(typeof body.eventId).toBe('string');
  expect((body.eventId as string).length).toBeGreaterThan(0);
  expect(body.eventType).toBe('product.changed');
  expect(String(body.occurredAt)).toMatch(/^\d{10}$/);
  expect(body.productRef).toBe(productRef);
  expect(Number.isInteger(body.revision)).toBe(true);
  expect(asArray(body.changedProperties, 'changedProperties').every((x) => typeof x === 'string')).toBe(true);
  const snapshot = expectSnapshot(body.productSnapshot, 'productSnapshot');
  expect(snapshot.productRef).toBe(productRef);
  expect(snapshot.revision).toBe(body.revision);
  return { body, snapshot };
}

describe('POST /goods/subscriptions (interface v1 §3.2; contract §6)', () => {
  it('subscribes a batch and answers each product with its state and expiry', async () => {
    const auth = await newAccount(sandbox);
    const refs = [must(products[0], 'p0').productRef, must(products[1], 'p1').productRef];
    const before = Math.floor(Date.now() / 1000);
    const data = expectOk(await subscribe(auth, refs, receiver.url));
    const list = asArray(data.list, 'list').map((x, i) => asRecord(x, `list[${i}]`));
    expect(list.map((i) => i.productRef).sort()).toEqual([...refs].sort());
    for (const item of list) {
      expect(item.subscriptionState).toBe('subscribed');
      expect(item.subscriptionExpiresAt as number).toBeGreaterThanOrEqual(before + 604800 - 5);
      expect(item.subscriptionExpiresAt as number).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 604800 + 5);
    }
    expect((await subscribedRefs(auth)).sort()).toEqual([...refs].sort());
    // Unsubscribing cancels.
    const off = expectOk(await subscribe(auth, [must(refs[0], 'ref')], undefined, 'unsubscribed'));
    expect(asRecord(asArray(off.list, 'list')[0], 'item').subscriptionState).toBe('unsubscribed');
    expect(await subscribedRefs(auth)).toEqual([refs[1]]);
  });

  it('100 products are accepted; 101 are 400001 and change nothing', async () => {
    const auth = await newAccount(sandbox);
    const refs = products.map((p) => p.productRef);
    expect(refs.length).toBeGreaterThanOrEqual(101);
    expectError(await subscribe(auth, refs.slice(0, 101)), 400, 400001);
    expect(await subscribedRefs(auth)).toEqual([]);
    const ok = expectOk(await subscribe(auth, refs.slice(0, 100)));
    expect(asArray(ok.list, 'list')).toHaveLength(100);
  });

  it('an empty list, duplicates, a missing or unknown state are 400001', async () => {
    const auth = await newAccount(sandbox);
    const p = must(products[2], 'p2').productRef;
    expectError(await subscribe(auth, []), 400, 400001);
    expectError(await pacedCall(sandbox, auth, 'POST', '/goods/subscriptions', { body: { productRefs: [p] } }), 400, 400001);
    expectError(await subscribe(auth, [p], undefined, 'maybe'), 400, 400001);
    expectError(await pacedCall(sandbox, auth, 'POST', '/goods/subscriptions', { body: { productRefs: 'all', subscriptionState: 'subscribed' } }), 400, 400001);
    expectError(await pacedCall(sandbox, auth, 'POST', '/goods/subscriptions', { body: { productRefs: ['x'], subscriptionState: 'subscribed' } }), 400, 400001);
    expect(await subscribedRefs(auth)).toEqual([]);
  });

  it('a list with the same product twice is 400001 (contract §6: "1 to 100 distinct products")', async () => {
    const auth = await newAccount(sandbox);
    const p = must(products[2], 'p2').productRef;
    expectError(await subscribe(auth, [p, p]), 400, 400001);
    expect(await subscribedRefs(auth)).toEqual([]);
  });

  it('an unknown product is 404001 and nothing changes (all or nothing)', async () => {
    const auth = await newAccount(sandbox);
    const [a, b] = [must(products[3], 'p3').productRef, must(products[4], 'p4').productRef];
    expectOk(await subscribe(auth, [a]));
    const expiryBefore = (await catalogItem(sandbox, auth, a)).subscriptionExpiresAt;
    const unknown = Math.max(...products.map((p) => p.productRef)) + 100000;
    await sleep(1100);
    expectError(await subscribe(auth, [b, unknown]), 404, 404001);
    expectError(await subscribe(auth, [a, unknown], undefined, 'unsubscribed'), 404, 404001);
    expect(await subscribedRefs(auth)).toEqual([a]);
    expect((await catalogItem(sandbox, auth, b)).subscriptionState).toBe('unsubscribed');
    expect((await catalogItem(sandbox, auth, a)).subscriptionExpiresAt).toBe(expiryBefore);
  });
});

describe('product.changed for every kind of change (interface v1 §6.3; contract §4.1)', () => {
  let auth: Credentials;
  let single: ControlProduct;
  let multi: ControlProduct;
  const lastRevision = new Map<number, number>();

  beforeAll(async () => {
    auth = await newAccount(sandbox);
    single = pickProduct(products, used, 'available single-variant product with tracked stock', (p) => isSingleVariant(p) && isFullyAvailable(p) && p.variants[0]?.inventoryType === 'tracked');
    multi = pickProduct(
      products,
      used,
      'available multi-variant product with an unlimited variant',
      (p) => !isSingleVariant(p) && isFullyAvailable(p) && p.variants.some((v) => v.inventoryType === 'unlimited'),
    );
    expectOk(await subscribe(auth, [single.productRef, multi.productRef], receiver.url));
    lastRevision.set(single.productRef, single.revision);
    lastRevision.set(multi.productRef, multi.revision);
  });

  /** Makes one control change and checks that exactly one product.changed with exactly `hints` follows. */
  async function change(productRef: number, body: Record<string, unknown>, hints: string[]): Promise<Snapshot> {
    const before = productEvents(receiver.received, productRef).length;
    const result = await changeProduct(sandbox, productRef, body);
    expect([...result.changedProperties].sort()).toEqual([...hints].sort());
    await receiver.waitFor((hooks) => productEvents(hooks, productRef).length > before, 5000);
    await sleep(QUIET_MS);
    const events = productEvents(receiver.received, productRef);
    expect(events.length, `exactly one product.changed for ${JSON.stringify(body)}`).toBe(before + 1);
    const { body: event, snapshot } = expectProductChanged(must(events[before], 'event'), productRef);
    expect([...(event.changedProperties as string[])].sort()).toEqual([...hints].sort());
    expect(event.changedProperties).not.toContain('catalogRef');
    const eventId = event.eventId as string;
    expect(seenEventIds.has(eventId), 'eventId is unique').toBe(false);
    seenEventIds.add(eventId);
    // revision strictly increases, equals the control's answer and the snapshot's.
    expect(event.revision).toBe(result.revision);
    expect(event.revision as number).toBeGreaterThan(must(lastRevision.get(productRef), 'last revision'));
    lastRevision.set(productRef, event.revision as number);
    // The snapshot is the product as the detail endpoint shows it now.
    const detail = expectSnapshot(expectOk(await pacedCall(sandbox, auth, 'GET', `/goods/${productRef}`)));
    const variantsOf = (s: Snapshot): unknown =>
      s.variants.map((v) => ({
        variantRef: v.variantRef,
        title: v.title,
        price: v.price,
        availability: v.availability,
        inventoryType: v.inventoryType,
        remainingUnits: v.remainingUnits,
        purchaseSchemaRevision: v.purchaseSchemaRevision,
      }));
    expect({ catalogRef: detail.catalogRef, brand: detail.brand, availability: detail.availability, revision: detail.revision }).toEqual({
      catalogRef: snapshot.catalogRef,
      brand: snapshot.brand,
      availability: snapshot.availability,
      revision: snapshot.revision,
    });
    expect(variantsOf(detail)).toEqual(variantsOf(snapshot));
    return snapshot;
  }

  function variant(s: Snapshot, variantRef: number): Snapshot['variants'][number] {
    return must(
      s.variants.find((v) => v.variantRef === variantRef),
      `variant ${variantRef}`,
    );
  }

  it('price → ["price"], with the new price in the snapshot', async () => {
    const newPrice = (Number(must(single.variants[0], 'v0').price) + 1.11).toFixed(2);
    const s = await change(single.productRef, { variantRef: 0, price: newPrice }, ['price']);
    expect(variant(s, 0).price).toBe(Number(newPrice));
    expect(s.variants).toHaveLength(1);
    const m = must(multi.variants[1], 'multi v1');
    const ms = await change(multi.productRef, { variantRef: m.variantRef, price: '3.30' }, ['price']);
    expect(variant(ms, m.variantRef).price).toBe(3.3);
    expect(ms.variants.map((v) => v.variantRef)).toEqual(multi.variants.map((v) => v.variantRef));
  });

  it('remainingUnits of a tracked variant → ["remainingUnits"]', async () => {
    const units = (must(single.variants[0], 'v0').remainingUnits ?? 0) + 7;
    const s = await change(single.productRef, { variantRef: 0, remainingUnits: units }, ['remainingUnits']);
    expect(variant(s, 0).remainingUnits).toBe(units);
    expect(variant(s, 0).inventoryType).toBe('tracked');
  });

  it('inventoryType unlimited → undisclosed → ["inventoryType"] (remainingUnits stays null)', async () => {
    const v = must(
      multi.variants.find((x) => x.inventoryType === 'unlimited'),
      'unlimited variant',
    );
    const s = await change(multi.productRef, { variantRef: v.variantRef, inventoryType: 'undisclosed' }, ['inventoryType']);
    expect(variant(s, v.variantRef).inventoryType).toBe('undisclosed');
    expect(variant(s, v.variantRef).remainingUnits).toBeNull();
  });

  it('control remainingUnits null on a tracked variant makes it unlimited, a count makes it tracked again (never tracked with null)', async () => {
    const cleared = await change(single.productRef, { variantRef: 0, remainingUnits: null }, ['inventoryType', 'remainingUnits']);
    expect(variant(cleared, 0)).toMatchObject({ inventoryType: 'unlimited', remainingUnits: null });
    const counted = await change(single.productRef, { variantRef: 0, remainingUnits: 12 }, ['inventoryType', 'remainingUnits']);
    expect(variant(counted, 0)).toMatchObject({ inventoryType: 'tracked', remainingUnits: 12 });
    const refused = await fetch(`${sandbox.controlUrl}/control/products/${single.productRef}`, {
      method: 'POST',
      headers: controlHeaders(sandbox.controlToken, 'POST'),
      body: JSON.stringify({ variantRef: 0, inventoryType: 'tracked', remainingUnits: null }),
    });
    expect(refused.status).toBe(400);
  });

  it('product availability → ["availability"], both ways', async () => {
    const off = await change(single.productRef, { availability: 'unavailable' }, ['availability']);
    expect(off.availability).toBe('unavailable');
    const on = await change(single.productRef, { availability: 'available' }, ['availability']);
    expect(on.availability).toBe('available');
  });

  it('variant availability → ["availability"], the product stays available', async () => {
    const v = must(multi.variants[0], 'multi v0');
    const s = await change(multi.productRef, { variantRef: v.variantRef, availability: 'unavailable' }, ['availability']);
    expect(variant(s, v.variantRef).availability).toBe('unavailable');
    expect(s.availability).toBe('available');
    const back = await change(multi.productRef, { variantRef: v.variantRef, availability: 'available' }, ['availability']);
    expect(variant(back, v.variantRef).availability).toBe('available');
  });

  it('brand set → ["brand"]; brand null → ["brand"] and the snapshot brand is null', async () => {
    const brand = { brandRef: 990001, name: '测试品牌', imageUrl: 'https://img.example.com/brands/990001.png' };
    const set = await change(single.productRef, { brand }, ['brand']);
    expect(set.brand).toEqual(brand);
    const noImage = { brandRef: 990002, name: '无图品牌', imageUrl: null };
    const set2 = await change(single.productRef, { brand: noImage }, ['brand']);
    expect(set2.brand).toEqual(noImage);
    const cleared = await change(single.productRef, { brand: null }, ['brand']);
    expect(cleared.brand).toBeNull();
  });

  it('the control API may leave brandRef out: the brand of that name is reused, or a new one made', async () => {
    const brand = { brandRef: 990003, name: '复用品牌', imageUrl: null };
    await change(single.productRef, { brand }, ['brand']);
    const named = await change(multi.productRef, { brand: { name: '复用品牌' } }, ['brand']);
    expect(named.brand).toEqual(brand);
    const fresh = await change(multi.productRef, { brand: { name: '全新品牌', imageUrl: null } }, ['brand']);
    expect(fresh.brand?.name).toBe('全新品牌');
    expect(Number.isSafeInteger(fresh.brand?.brandRef)).toBe(true);
    expect([990001, 990002, 990003]).not.toContain(fresh.brand?.brandRef);
  });

  it('purchaseSchemaRevision bump → ["purchaseSchemaRevision"], and the template follows', async () => {
    const before = must(single.variants[0], 'v0').purchaseSchemaRevision;
    const s = await change(single.productRef, { variantRef: 0, purchaseSchemaRevision: 'bump' }, ['purchaseSchemaRevision']);
    const after = variant(s, 0).purchaseSchemaRevision;
    expect(after).toBeGreaterThan(before);
    const tpl = expectOk(await pacedCall(sandbox, auth, 'GET', '/goods/tpl', { query: { productRef: single.productRef } }));
    expect(tpl.purchaseSchemaRevision).toBe(after);
  });

  it('variant rename, add and remove → ["variants"] with the complete variant list', async () => {
    const renamed = await change(single.productRef, { variantRef: 0, title: '改名后的规格' }, ['variants']);
    expect(variant(renamed, 0).title).toBe('改名后的规格');
    const originalRefs = multi.variants.map((v) => v.variantRef);
    const added = await change(multi.productRef, { addVariant: { title: '新增规格', price: '8.80' } }, ['variants']);
    expect(added.variants).toHaveLength(originalRefs.length + 1);
    const fresh = must(
      added.variants.find((v) => !originalRefs.includes(v.variantRef)),
      'the added variant',
    );
    expect(fresh.title).toBe('新增规格');
    expect(fresh.price).toBe(8.8);
    expect(fresh.variantRef).not.toBe(0);
    const removed = await change(multi.productRef, { removeVariantRef: fresh.variantRef }, ['variants']);
    expect(removed.variants.map((v) => v.variantRef)).toEqual(originalRefs);
  });

  it('a category change sends no product.changed but moves revision; the next message carries the new catalogRef', async () => {
    const other = must(
      products.find((p) => p.catalogRef !== single.catalogRef),
      'another category',
    ).catalogRef;
    const before = productEvents(receiver.received, single.productRef).length;
    const sentBefore = (await deliveries(sandbox)).length;
    const result = await changeProduct(sandbox, single.productRef, { catalogRef: other });
    expect(result.changedProperties).not.toContain('catalogRef');
    expect(result.changedProperties).toEqual([]);
    expect(result.revision).toBeGreaterThan(must(lastRevision.get(single.productRef), 'last revision'));
    lastRevision.set(single.productRef, result.revision);
    await sleep(800);
    expect(productEvents(receiver.received, single.productRef)).toHaveLength(before);
    const newDeliveries = (await deliveries(sandbox)).slice(sentBefore).filter((d) => d.eventType === 'product.changed' && d.url === receiver.url);
    expect(newDeliveries).toEqual([]);
    const detail = expectOk(await pacedCall(sandbox, auth, 'GET', `/goods/${single.productRef}`));
    expect(detail.catalogRef).toBe(other);
    expect(detail.revision).toBe(result.revision);
    const s = await change(single.productRef, { variantRef: 0, price: '5.55' }, ['price']);
    expect(s.catalogRef).toBe(other);
  });

  it('several changes within one second get strictly increasing revisions', async () => {
    const revisions: number[] = [];
    for (const price of ['6.01', '6.02', '6.03']) {
      revisions.push((await changeProduct(sandbox, multi.productRef, { variantRef: must(multi.variants[0], 'v0').variantRef, price })).revision);
    }
    expect(revisions[1] as number).toBeGreaterThan(revisions[0] as number);
    expect(revisions[2] as number).toBeGreaterThan(revisions[1] as number);
    await receiver.waitFor((hooks) => productEvents(hooks, multi.productRef).some((h) => h.json?.revision === revisions[2]), 5000);
    await sleep(QUIET_MS);
    const got = productEvents(receiver.received, multi.productRef)
      .map((h) => h.json?.revision)
      .filter((r) => revisions.includes(r as number));
    expect(got.sort()).toEqual(revisions);
    lastRevision.set(multi.productRef, must(revisions[2], 'rev'));
  });
});

describe('who gets product.changed (interface v1 §3.2, 6.2)', () => {
  it('a product never subscribed, or unsubscribed, sends nothing, even with a default callback address', async () => {
    const auth = await newAccount(sandbox);
    const quiet = await startWebhookReceiver('/quiet');
    try {
      await control(sandbox, 'POST', `/control/accounts/${encodeURIComponent(auth.userId)}`, { defaultCallbackUrl: quiet.url });
      const never = pickProduct(products, used, 'single-variant product', (p) => isSingleVariant(p));
      const dropped = pickProduct(products, used, 'single-variant product', (p) => isSingleVariant(p));
      expectOk(await subscribe(auth, [dropped.productRef], quiet.url));
      expectOk(await subscribe(auth, [dropped.productRef], undefined, 'unsubscribed'));
      await changeProduct(sandbox, never.productRef, { variantRef: 0, price: '7.77' });
      await changeProduct(sandbox, dropped.productRef, { variantRef: 0, price: '7.78' });
      await sleep(800);
      expect(quiet.received).toEqual([]);
      expect((await deliveries(sandbox)).filter((d) => d.url === quiet.url)).toEqual([]);
    } finally {
      await quiet.close();
    }
  });

  it('a successful order subscribes its product (with expiry) and binds its product.changed to the order callback', async () => {
    const auth = await newAccount(sandbox);
    const orderHooks = await startWebhookReceiver('/order-hooks');
    try {
      const card = pickProduct(products, used, 'orderable card', isOrderableCard);
      const units = await templateMinUnits(sandbox, auth, card.productRef);
      const before = Math.floor(Date.now() / 1000);
      expectOk(
        await pacedCall(sandbox, auth, 'POST', '/orders/create', {
          body: { clientOrderRef: `sub-${Date.now()}`, productRef: card.productRef, units, orderCallbackUrl: orderHooks.url },
        }),
      );
      expect(await subscribedRefs(auth)).toEqual([card.productRef]);
      const item = await catalogItem(sandbox, auth, card.productRef);
      expect(item.subscriptionState).toBe('subscribed');
      expect(item.subscriptionExpiresAt as number).toBeGreaterThanOrEqual(before + 604800 - 5);
      expect(item.subscriptionExpiresAt as number).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 604800 + 5);
      const result = await changeProduct(sandbox, card.productRef, { variantRef: 0, price: (Number(must(card.variants[0], 'v0').price) + 0.5).toFixed(2) });
      // A tracked card's stock moves with the order itself, which may send its own remainingUnits message
      // first; the price change is the message with the control's revision.
      const ofChange = (hooks: ReceivedHook[]): ReceivedHook | undefined => productEvents(hooks, card.productRef).find((h) => h.json?.revision === result.revision);
      await orderHooks.waitFor((hooks) => ofChange(hooks) !== undefined, 5000);
      const { body } = expectProductChanged(must(ofChange(orderHooks.received), 'event'), card.productRef);
      expect(body.changedProperties).toEqual(['price']);
      // Bound to the order's address: the account has no default address, so it can only have come that way.
      expect(receiver.received.filter((h) => h.json?.productRef === card.productRef)).toEqual([]);
    } finally {
      await orderHooks.close();
    }
  });
});

describe('an expired subscription sends nothing (interface v1 §3.2, 6.2)', () => {
  let shortLived: RunningSandbox;

  beforeAll(async () => {
    // 60 sandbox seconds of subscription at 30× is two real seconds.
    shortLived = await startSandbox(['--products', '60', '--subscription-ttl', '60', '--time-scale', '30']);
  });

  afterAll(async () => {
    await shortLived?.stop();
  });

  it('sends while subscribed, then nothing once the subscription has expired', async () => {
    const hooks = await startWebhookReceiver('/short');
    try {
      const auth = { userId: shortLived.userId, apiKey: shortLived.apiKey };
      const p = must(
        (await controlProducts(shortLived)).find((x) => isSingleVariant(x)),
        'single-variant product',
      );
      const res = await callApi(shortLived, 'POST', '/goods/subscriptions', { auth, body: { productRefs: [p.productRef], subscriptionState: 'subscribed', callbackUrl: hooks.url } });
      const expiresAt = asRecord(asArray(expectOk(res).list, 'list')[0], 'item').subscriptionExpiresAt as number;
      await changeProduct(shortLived, p.productRef, { variantRef: 0, price: '1.23' });
      await hooks.waitFor((h) => productEvents(h, p.productRef).length === 1, 5000);
      // Wait past the expiry (sandbox time runs 30× faster).
      await sleep(3000);
      const item = await catalogItem(shortLived, auth, p.productRef);
      expect(item.subscriptionState).toBe('expired');
      expect(item.subscriptionExpiresAt).toBe(expiresAt);
      const subscribed = expectListPayload(expectOk(await callApi(shortLived, 'GET', '/goods/catalog', { auth, query: { subscriptionState: 'subscribed' } })));
      expect(subscribed.total).toBe(0);
      await changeProduct(shortLived, p.productRef, { variantRef: 0, price: '1.24' });
      await sleep(800);
      expect(productEvents(hooks.received, p.productRef)).toHaveLength(1);
    } finally {
      await hooks.close();
    }
  });
});
