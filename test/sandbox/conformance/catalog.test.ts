// Catalog (contract §2–5; interface v1 §2.4, 3.1, 4.1): categories, catalog paging and filters, product detail
// as a superset of the change snapshot, purchase templates, and a seeded catalog that has every kind
// of product and is the same for the same seed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from '../../support/merchant-http';
import { startSandbox, type RunningSandbox } from '../../support/sandbox-process';
import { controlProducts, isSingleVariant, type ControlProduct } from '../../support/control-catalog';
import { expectBrand, expectSnapshot } from '../../support/snapshot-checks';
import {
  asArray,
  asRecord,
  expectError,
  expectListPayload,
  expectOk,
  isYuan,
  must,
  newAccount,
  pacedCall,
  type Credentials,
} from '../../support/wire-checks';

let sandbox: RunningSandbox;
let twin: RunningSandbox;
let otherSeed: RunningSandbox;
let products: ControlProduct[];

beforeAll(async () => {
  [sandbox, twin, otherSeed] = await Promise.all([
    startSandbox(['--products', '60', '--seed', '7']),
    startSandbox(['--products', '60', '--seed', '7']),
    startSandbox(['--products', '60', '--seed', '8']),
  ]);
  products = (await controlProducts(sandbox)).sort((a, b) => a.productRef - b.productRef);
});

afterAll(async () => {
  await Promise.all([sandbox?.stop(), twin?.stop(), otherSeed?.stop()]);
});

interface Category {
  catalogRef: number;
  name: string;
  parentRef: number | null;
  sort: number;
  productCount: number;
}

async function allCategories(auth: Credentials): Promise<Category[]> {
  const page = expectListPayload(expectOk(await pacedCall(sandbox, auth, 'GET', '/categories', { query: { pageSize: 100 } })));
  expect(page.list.length).toBe(page.total);
  return page.list.map((item, i) => {
    expect(Number.isInteger(item.catalogRef), `categories[${i}].catalogRef`).toBe(true);
    expect(typeof item.name, `categories[${i}].name`).toBe('string');
    expect(item.parentRef === null || Number.isInteger(item.parentRef), `categories[${i}].parentRef`).toBe(true);
    expect(Number.isInteger(item.sort), `categories[${i}].sort`).toBe(true);
    expect(Number.isInteger(item.productCount), `categories[${i}].productCount`).toBe(true);
    return item as unknown as Category;
  });
}

async function allCatalogItems(auth: Credentials, query: Record<string, string | number> = {}): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for (let page = 1; ; page++) {
    const part = expectListPayload(expectOk(await pacedCall(sandbox, auth, 'GET', '/goods/catalog', { query: { ...query, page, pageSize: 100 } })));
    items.push(...part.list);
    if (items.length >= part.total || part.list.length === 0) {
      expect(items.length).toBe(part.total);
      return items;
    }
  }
}

function expectCatalogItem(item: Record<string, unknown>, where: string): void {
  expect(Number.isInteger(item.productRef), `${where}.productRef`).toBe(true);
  expect(Number.isInteger(item.catalogRef), `${where}.catalogRef`).toBe(true);
  expect(typeof item.name, `${where}.name`).toBe('string');
  expect(['card', 'topup'], `${where}.productType`).toContain(item.productType);
  expect('brand' in item, `${where}.brand present`).toBe(true);
  expectBrand(item.brand, where);
  expect(['available', 'unavailable'], `${where}.availability`).toContain(item.availability);
  expect(isYuan(item.priceFrom), `${where}.priceFrom`).toBe(true);
  expect(Number.isInteger(item.variantCount) && (item.variantCount as number) >= 1, `${where}.variantCount`).toBe(true);
  expect(Number.isInteger(item.revision), `${where}.revision`).toBe(true);
  expect(['subscribed', 'expired', 'unsubscribed'], `${where}.subscriptionState`).toContain(item.subscriptionState);
  expect(item.subscriptionExpiresAt === null || Number.isInteger(item.subscriptionExpiresAt), `${where}.subscriptionExpiresAt`).toBe(true);
}

const HAN = /[\u4e00-\u9fff]/;

describe('categories (contract §2)', () => {
  it('are at most two levels, named in Chinese, ordered by sort then catalogRef, with product counts', async () => {
    const auth = await newAccount(sandbox);
    const categories = await allCategories(auth);
    const byRef = new Map(categories.map((c) => [c.catalogRef, c]));
    expect(byRef.size).toBe(categories.length);
    const top = categories.filter((c) => c.parentRef === null);
    const children = categories.filter((c) => c.parentRef !== null);
    expect(top.length).toBeGreaterThan(0);
    expect(children.length).toBeGreaterThan(0);
    // Chinese names as a real merchant has them; a leaf may be a foreign brand name ("App Store").
    for (const c of top) expect(c.name, `top-level category ${c.catalogRef} has a Chinese name`).toMatch(HAN);
    expect(children.filter((c) => HAN.test(c.name)).length / children.length, 'share of Chinese leaf names').toBeGreaterThanOrEqual(0.75);
    for (const child of children) {
      const parent = byRef.get(child.parentRef ?? -1);
      expect(parent, `parent of ${child.catalogRef} exists`).toBeDefined();
      expect(parent?.parentRef, `parent of ${child.catalogRef} is top-level`).toBeNull();
    }
    // "Ordered by sort then catalogRef" (contract §2): sort is a position among siblings, so the check
    // is made among siblings; whether children follow their parent or the list is flat is not said.
    for (const parentRef of new Set(categories.map((c) => c.parentRef))) {
      const siblings = categories.filter((c) => c.parentRef === parentRef);
      const sorted = [...siblings].sort((a, b) => a.sort - b.sort || a.catalogRef - b.catalogRef);
      expect(siblings.map((c) => c.catalogRef), `order of the children of ${String(parentRef)}`).toEqual(sorted.map((c) => c.catalogRef));
    }
    // Products sit in leaves only, so a parent's count is the sum of its children's.
    for (const parent of top) {
      const kids = children.filter((c) => c.parentRef === parent.catalogRef);
      if (kids.length > 0) expect(parent.productCount, `count of ${parent.catalogRef}`).toBe(kids.reduce((sum, k) => sum + k.productCount, 0));
    }
    const leafRefs = new Set(categories.filter((c) => !children.some((k) => k.parentRef === c.catalogRef)).map((c) => c.catalogRef));
    for (const p of products) expect(leafRefs.has(p.catalogRef), `product ${p.productRef} sits in a leaf category`).toBe(true);
  });

  it('the category counts match the catalog filtered by that category', async () => {
    const auth = await newAccount(sandbox);
    const categories = await allCategories(auth);
    const catalog = await allCatalogItems(auth);
    const top = categories.filter((c) => c.parentRef === null);
    const parentOf = new Map(categories.map((c) => [c.catalogRef, c.parentRef]));
    expect(top.reduce((sum, c) => sum + c.productCount, 0)).toBe(catalog.length);
    // Only categories involved in discoverable products are listed (interface v1 §4), and each of those is.
    for (const c of categories) expect(c.productCount, `category ${c.catalogRef} has products`).toBeGreaterThan(0);
    const used = new Set(catalog.flatMap((item) => [item.catalogRef as number, parentOf.get(item.catalogRef as number) ?? -1]));
    used.delete(-1);
    expect(new Set(categories.map((c) => c.catalogRef))).toEqual(used);
    for (const c of categories) {
      const inIt = catalog.filter((item) => item.catalogRef === c.catalogRef || parentOf.get(item.catalogRef as number) === c.catalogRef);
      expect(inIt.length, `products in ${c.catalogRef}`).toBe(c.productCount);
    }
  });
});

describe('catalog (contract §3)', () => {
  it('lists every product with its fields, ordered by productRef, consistent with the merchant records', async () => {
    const auth = await newAccount(sandbox);
    const items = await allCatalogItems(auth);
    items.forEach((item, i) => expectCatalogItem(item, `catalog[${i}]`));
    const refs = items.map((i) => i.productRef as number);
    expect(refs).toEqual([...refs].sort((a, b) => a - b));
    // One merchant catalog, visible to every account: all of it is listed, unavailable products too.
    expect(refs).toEqual(products.map((p) => p.productRef));
    const byRef = new Map(products.map((p) => [p.productRef, p]));
    for (const item of items) {
      const p = must(byRef.get(item.productRef as number), `control product ${String(item.productRef)}`);
      expect(item.catalogRef).toBe(p.catalogRef);
      expect(item.name).toBe(p.name);
      expect(item.productType).toBe(p.productType);
      expect(item.availability).toBe(p.availability);
      expect(item.variantCount).toBe(p.variants.length);
      expect(item.priceFrom).toBe(Math.min(...p.variants.map((v) => Number(v.price))));
      expect(item.revision).toBe(p.revision);
      // A fresh account has subscribed nothing.
      expect(item.subscriptionState).toBe('unsubscribed');
    }
  });

  it('catalogRef filters: a leaf gives its products, a parent includes its children', async () => {
    const auth = await newAccount(sandbox);
    const categories = await allCategories(auth);
    const parent = must(
      categories.find((c) => c.parentRef === null && categories.some((k) => k.parentRef === c.catalogRef && k.productCount > 0)),
      'a parent category with products',
    );
    const kids = categories.filter((k) => k.parentRef === parent.catalogRef);
    const leaf = must(kids.find((k) => k.productCount > 0), 'a leaf with products');
    const inLeaf = await allCatalogItems(auth, { catalogRef: leaf.catalogRef });
    expect(inLeaf.length).toBe(leaf.productCount);
    for (const item of inLeaf) expect(item.catalogRef).toBe(leaf.catalogRef);
    expect(inLeaf.map((i) => i.productRef)).toEqual(products.filter((p) => p.catalogRef === leaf.catalogRef).map((p) => p.productRef));
    const inParent = await allCatalogItems(auth, { catalogRef: parent.catalogRef });
    const kidRefs = new Set(kids.map((k) => k.catalogRef));
    expect(inParent.length).toBe(parent.productCount);
    for (const item of inParent) expect(kidRefs.has(item.catalogRef as number), `item ${String(item.productRef)} is in a child`).toBe(true);
    expect(inParent.map((i) => i.productRef)).toEqual(products.filter((p) => kidRefs.has(p.catalogRef)).map((p) => p.productRef));
  });

  it('an unknown catalogRef is 404001; one of the wrong type 400002 (interface v1 §7.2 INVALID_PUBLIC_REFERENCE)', async () => {
    const auth = await newAccount(sandbox);
    expectError(await pacedCall(sandbox, auth, 'GET', '/goods/catalog', { query: { catalogRef: 987654321 } }), 404, 404001);
    for (const catalogRef of ['abc', '1.5', '-1', '0']) {
      expectError(await pacedCall(sandbox, auth, 'GET', '/goods/catalog', { query: { catalogRef } }), 400, 400002);
    }
  });

  it('subscriptionState=subscribed returns only subscribed products, with expiry; other values are 400001', async () => {
    const auth = await newAccount(sandbox);
    const none = expectListPayload(expectOk(await pacedCall(sandbox, auth, 'GET', '/goods/catalog', { query: { subscriptionState: 'subscribed' } })));
    expect(none.total).toBe(0);
    const chosen = [must(products[3], 'product 3').productRef, must(products[10], 'product 10').productRef].sort((a, b) => a - b);
    const before = Math.floor(Date.now() / 1000);
    const sub = expectOk(await pacedCall(sandbox, auth, 'POST', '/goods/subscriptions', { body: { productRefs: chosen, subscriptionState: 'subscribed' } }));
    expect(asArray(sub.list, 'subscription list').length).toBe(2);
    const subscribed = await allCatalogItems(auth, { subscriptionState: 'subscribed' });
    expect(subscribed.map((i) => i.productRef)).toEqual(chosen);
    for (const item of subscribed) {
      expect(item.subscriptionState).toBe('subscribed');
      // Seven days by default (contract §6), in sandbox seconds; time scale is 1 here.
      const expiresAt = item.subscriptionExpiresAt as number;
      expect(expiresAt).toBeGreaterThanOrEqual(before + 604800 - 5);
      expect(expiresAt).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 604800 + 5);
    }
    const everything = await allCatalogItems(auth);
    for (const item of everything) {
      if (!chosen.includes(item.productRef as number)) {
        expect(item.subscriptionState).toBe('unsubscribed');
        expect(item.subscriptionExpiresAt).toBeNull();
      }
    }
    expectError(await pacedCall(sandbox, auth, 'GET', '/goods/catalog', { query: { subscriptionState: 'unsubscribed' } }), 400, 400001);
    expectError(await pacedCall(sandbox, auth, 'GET', '/goods/catalog', { query: { subscriptionState: 'everything' } }), 400, 400001);
  });
});

describe('product detail (contract §4)', () => {
  it('every product: a superset of the interface v1 §2.4 snapshot, matching the merchant records', async () => {
    // One account per 40 products keeps the catalog group (120/min) and the burst far from their limits.
    const accounts = [await newAccount(sandbox), await newAccount(sandbox)];
    for (const [i, p] of products.entries()) {
      const auth = must(accounts[i % accounts.length], 'account');
      const detail = expectOk(await pacedCall(sandbox, auth, 'GET', `/goods/${p.productRef}`, {}, 25));
      const snap = expectSnapshot(detail, `goods/${p.productRef}`);
      expect(snap.productRef).toBe(p.productRef);
      expect(snap.catalogRef).toBe(p.catalogRef);
      expect(snap.availability).toBe(p.availability);
      expect(snap.revision).toBe(p.revision);
      expect(detail.name).toBe(p.name);
      expect(detail.productType).toBe(p.productType);
      expect(typeof detail.description).toBe('string');
      expect(detail.imageUrl === null || (typeof detail.imageUrl === 'string' && detail.imageUrl.startsWith('https://'))).toBe(true);
      expect(snap.variants.map((v) => v.variantRef)).toEqual(p.variants.map((v) => v.variantRef));
      for (const [j, v] of snap.variants.entries()) {
        const c = must(p.variants[j], 'control variant');
        expect({ title: v.title, price: v.price, availability: v.availability, inventoryType: v.inventoryType, purchaseSchemaRevision: v.purchaseSchemaRevision }).toEqual({
          title: c.title,
          price: Number(c.price),
          availability: c.availability,
          inventoryType: c.inventoryType,
          purchaseSchemaRevision: c.purchaseSchemaRevision,
        });
        // Undisclosed stock stays hidden even though the merchant knows it.
        if (c.inventoryType === 'tracked') expect(v.remainingUnits).toBe(c.remainingUnits);
        const faceValue = asRecord(asArray(detail.variants, 'variants')[j], 'variant').faceValue;
        expect(faceValue === null || isYuan(faceValue), `faceValue of ${p.productRef}/${v.variantRef}`).toBe(true);
      }
      if (isSingleVariant(p)) expect(snap.variants).toHaveLength(1);
    }
  });

  it('a single-variant product has exactly one variant, variantRef 0', async () => {
    const auth = await newAccount(sandbox);
    const single = must(products.find(isSingleVariant), 'single-variant product');
    const detail = expectSnapshot(expectOk(await pacedCall(sandbox, auth, 'GET', `/goods/${single.productRef}`)));
    expect(detail.variants).toHaveLength(1);
    expect(must(detail.variants[0], 'variant').variantRef).toBe(0);
  });

  it('an unknown product is 404001', async () => {
    const auth = await newAccount(sandbox);
    const unknown = Math.max(...products.map((p) => p.productRef)) + 100000;
    expectError(await pacedCall(sandbox, auth, 'GET', `/goods/${unknown}`), 404, 404001);
  });

  it('a productRef of the wrong type in the path is 400002, a broken %-escape too (never a 500)', async () => {
    const auth = await newAccount(sandbox);
    for (const ref of ['abc', '12a', '1.5', '-3', '0', '%E4%B8%AD', '%E0%A4%A']) {
      expectError(await pacedCall(sandbox, auth, 'GET', `/goods/${ref}`), 400, 400002);
    }
    expectError(await pacedCall(sandbox, auth, 'GET', '/orders/%E0%A4%A'), 400, 400002);
  });
});

describe('purchase template (contract §5)', () => {
  function expectTemplate(data: Record<string, unknown>, productRef: number, variantRef: number, p: ControlProduct): void {
    expect(data.productRef).toBe(productRef);
    expect(data.variantRef).toBe(variantRef);
    expect(data.productType).toBe(p.productType);
    const v = must(
      p.variants.find((x) => x.variantRef === variantRef),
      'variant',
    );
    expect(data.purchaseSchemaRevision).toBe(v.purchaseSchemaRevision);
    expect(data.entryMode).toBe(v.entryMode);
    expect(['none', 'single', 'perUnit']).toContain(data.entryMode);
    const fields = asArray(data.purchaseFields, 'purchaseFields').map((f, i) => asRecord(f, `purchaseFields[${i}]`));
    if (p.productType === 'card') {
      expect(data.entryMode).toBe('none');
    } else {
      expect(data.entryMode).not.toBe('none');
      expect(fields.length).toBeGreaterThan(0);
    }
    for (const f of fields) {
      expect(typeof f.fieldRef).toBe('string');
      expect(typeof f.label).toBe('string');
      expect(['text', 'mobile', 'email', 'integer', 'select']).toContain(f.type);
      expect(typeof f.required).toBe('boolean');
      expect(typeof f.sensitive).toBe('boolean');
      expect(f.pattern === null || typeof f.pattern === 'string').toBe(true);
      for (const bound of [f.minLength, f.maxLength]) expect(bound === null || Number.isInteger(bound)).toBe(true);
      if (f.type === 'select') expect(asArray(f.options, 'options').length).toBeGreaterThan(0);
      else expect(f.options === null || Array.isArray(f.options)).toBe(true);
      expect(f.placeholder === null || typeof f.placeholder === 'string').toBe(true);
    }
    const rule = asRecord(data.unitRule, 'unitRule');
    for (const k of ['min', 'max', 'step']) expect(Number.isInteger(rule[k]), `unitRule.${k}`).toBe(true);
    expect(rule.min as number).toBeGreaterThanOrEqual(1);
    expect(rule.max as number).toBeGreaterThanOrEqual(rule.min as number);
    expect(rule.step as number).toBeGreaterThanOrEqual(1);
  }

  it('single-variant: productRef alone (or variantRef 0) gives the template', async () => {
    const auth = await newAccount(sandbox);
    for (const kind of ['card', 'topup']) {
      const p = must(
        products.find((x) => isSingleVariant(x) && x.productType === kind),
        `single-variant ${kind}`,
      );
      expectTemplate(expectOk(await pacedCall(sandbox, auth, 'GET', '/goods/tpl', { query: { productRef: p.productRef } })), p.productRef, 0, p);
      expectTemplate(expectOk(await pacedCall(sandbox, auth, 'GET', '/goods/tpl', { query: { productRef: p.productRef, variantRef: 0 } })), p.productRef, 0, p);
    }
  });

  it('multi-variant: variantRef is required (400001 without it), each variant has its template', async () => {
    const auth = await newAccount(sandbox);
    for (const kind of ['card', 'topup']) {
      const p = must(
        products.find((x) => !isSingleVariant(x) && x.productType === kind),
        `multi-variant ${kind}`,
      );
      expectError(await pacedCall(sandbox, auth, 'GET', '/goods/tpl', { query: { productRef: p.productRef } }), 400, 400001);
      for (const v of p.variants) {
        expectTemplate(expectOk(await pacedCall(sandbox, auth, 'GET', '/goods/tpl', { query: { productRef: p.productRef, variantRef: v.variantRef } })), p.productRef, v.variantRef, p);
      }
      const unknownVariant = Math.max(...p.variants.map((v) => v.variantRef)) + 1000;
      expectError(await pacedCall(sandbox, auth, 'GET', '/goods/tpl', { query: { productRef: p.productRef, variantRef: unknownVariant } }), 404, 404001);
    }
  });

  it('a missing productRef is 400001, one of the wrong type 400002; an unknown product 404001', async () => {
    const auth = await newAccount(sandbox);
    expectError(await pacedCall(sandbox, auth, 'GET', '/goods/tpl'), 400, 400001);
    expectError(await pacedCall(sandbox, auth, 'GET', '/goods/tpl', { query: { productRef: 'abc' } }), 400, 400002);
    const single = must(products.find(isSingleVariant), 'single-variant product');
    expectError(await pacedCall(sandbox, auth, 'GET', '/goods/tpl', { query: { productRef: single.productRef, variantRef: 'x' } }), 400, 400002);
    const unknown = Math.max(...products.map((p) => p.productRef)) + 100000;
    expectError(await pacedCall(sandbox, auth, 'GET', '/goods/tpl', { query: { productRef: unknown } }), 404, 404001);
  });
});

describe('the seeded catalog (sandbox.md --products, --seed)', () => {
  it('at --products 60 contains every kind of product', async () => {
    const auth = await newAccount(sandbox);
    const items = await allCatalogItems(auth);
    const brandOf = new Map(items.map((i) => [i.productRef as number, i.brand]));
    const variants = products.flatMap((p) => p.variants.map((v) => ({ p, v })));
    const kinds: [string, boolean][] = [
      ['card, single variant', products.some((p) => p.productType === 'card' && isSingleVariant(p))],
      ['card, multi variant', products.some((p) => p.productType === 'card' && !isSingleVariant(p))],
      ['topup, single variant', products.some((p) => p.productType === 'topup' && isSingleVariant(p))],
      ['topup, multi variant', products.some((p) => p.productType === 'topup' && !isSingleVariant(p))],
      ['tracked stock', variants.some(({ v }) => v.inventoryType === 'tracked' && Number.isInteger(v.remainingUnits))],
      ['unlimited stock', variants.some(({ v }) => v.inventoryType === 'unlimited')],
      ['undisclosed stock', variants.some(({ v }) => v.inventoryType === 'undisclosed')],
      ['unavailable product', products.some((p) => p.availability === 'unavailable')],
      ['unavailable variant of an available product', variants.some(({ p, v }) => p.availability === 'available' && v.availability === 'unavailable')],
      ['top-up entered once (entryMode single)', variants.some(({ v }) => v.entryMode === 'single')],
      ['top-up entered per unit (entryMode perUnit)', variants.some(({ v }) => v.entryMode === 'perUnit')],
      ['brand with image', [...brandOf.values()].some((b) => b !== null && typeof b === 'object' && typeof (b as Record<string, unknown>).imageUrl === 'string')],
      ['brand without image (imageUrl null)', [...brandOf.values()].some((b) => b !== null && typeof b === 'object' && (b as Record<string, unknown>).imageUrl === null)],
      ['no brand', [...brandOf.values()].some((b) => b === null)],
      ['Chinese product names', products.every((p) => HAN.test(p.name))],
    ];
    const missing = kinds.filter(([, present]) => !present).map(([name]) => name);
    expect(missing).toEqual([]);
    expect(products).toHaveLength(60);
  });

  it('the same seed gives the same catalog in two sandboxes; another seed gives another', async () => {
    // Revisions are start-up times, not catalog content, so they are left out of the comparison.
    const content = (list: ControlProduct[]): unknown =>
      list.map((p) => ({ ...p, revision: undefined, variants: p.variants.map((v) => ({ ...v })) }));
    const [same, other] = await Promise.all([controlProducts(twin), controlProducts(otherSeed)]);
    const byRef = (list: ControlProduct[]): ControlProduct[] => [...list].sort((a, b) => a.productRef - b.productRef);
    expect(content(byRef(same))).toEqual(content(products));
    expect(content(byRef(other))).not.toEqual(content(products));
    const categories = async (s: RunningSandbox): Promise<unknown> => {
      const res = await callApi(s, 'GET', '/categories', { query: { pageSize: 100 } });
      return expectListPayload(expectOk(res)).list;
    };
    expect(await categories(twin)).toEqual(await categories(sandbox));
    // Details (brands, descriptions, templates) are part of the catalog too.
    const sample = must(products[5], 'product 5').productRef;
    const detail = async (s: RunningSandbox): Promise<unknown> => ({ ...expectOk(await callApi(s, 'GET', `/goods/${sample}`)), revision: undefined });
    expect(await detail(twin)).toEqual(await detail(sandbox));
  });
});
