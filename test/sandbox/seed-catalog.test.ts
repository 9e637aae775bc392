import { describe, expect, it } from 'vitest';
import type { Product, SeedCatalog, Variant } from '../../src/sandbox/domain/catalog-types';
import { COVERAGE_SET, FIRST_PRODUCT_REF, MAX_REVISION_AGE_SECONDS, seedCatalog } from '../../src/sandbox/catalog/seed-catalog';
import { SeededRandom } from '../../src/sandbox/catalog/seeded-random';

const NOW = 1_760_000_000;
const CHINESE = /[\u4e00-\u9fff]/;
const PUBLIC_PNG = /^https:\/\/[a-z0-9.-]+\.[a-z]+\/\S+\.png$/;

const seeded = (products: number, seed = 7): SeedCatalog => seedCatalog({ products, seed, nowSeconds: NOW });

type Check = (product: Product, variant: Variant) => boolean;

/** Every kind of product an interface client must handle (the list); each must occur. */
const KINDS: Record<string, Check> = {
  'card single-variant': (p) => p.productType === 'card' && p.variants.length === 1,
  'card multi-variant': (p) => p.productType === 'card' && p.variants.length > 1,
  'topup single-variant': (p) => p.productType === 'topup' && p.variants.length === 1,
  'topup multi-variant': (p) => p.productType === 'topup' && p.variants.length > 1,
  'tracked in stock': (_, v) => v.inventoryType === 'tracked' && (v.remainingUnits ?? 0) > 0,
  'tracked sold out': (_, v) => v.inventoryType === 'tracked' && v.remainingUnits === 0,
  unlimited: (_, v) => v.inventoryType === 'unlimited',
  undisclosed: (_, v) => v.inventoryType === 'undisclosed',
  'product unavailable': (p) => p.availability === 'unavailable',
  'variant unavailable in an available product': (p, v) => p.availability === 'available' && v.availability === 'unavailable',
  'brand with image': (p) => p.brand !== null && p.brand.imageUrl !== null,
  'brand without image': (p) => p.brand !== null && p.brand.imageUrl === null,
  'no brand': (p) => p.brand === null,
  'topup entryMode single': (p, v) => p.productType === 'topup' && v.template.entryMode === 'single',
  'topup entryMode perUnit': (p, v) => p.productType === 'topup' && v.template.entryMode === 'perUnit',
  'card entryMode none': (p, v) => p.productType === 'card' && v.template.entryMode === 'none',
  'supply succeeds': (_, v) => v.supply === 'succeed',
  'topup needs verification': (p, v) => p.productType === 'topup' && v.supply === 'needsVerification',
  'topup supply fails': (p, v) => p.productType === 'topup' && v.supply === 'fail',
  'card supply fails': (p, v) => p.productType === 'card' && v.supply === 'fail',
  'unitRule with step > 1 or min > 1': (_, v) => v.template.unitRule.step > 1 || v.template.unitRule.min > 1,
  'mobile field': (_, v) => v.template.purchaseFields.some((f) => f.type === 'mobile'),
  'text field': (_, v) => v.template.purchaseFields.some((f) => f.type === 'text'),
  'email field': (_, v) => v.template.purchaseFields.some((f) => f.type === 'email'),
  'integer field': (_, v) => v.template.purchaseFields.some((f) => f.type === 'integer'),
  'select field': (_, v) => v.template.purchaseFields.some((f) => f.type === 'select' && (f.options?.length ?? 0) > 0),
  'optional field': (_, v) => v.template.purchaseFields.some((f) => !f.required),
};

function missingKinds(products: readonly Product[]): string[] {
  return Object.entries(KINDS)
    .filter(([, check]) => !products.some((p) => p.variants.some((v) => check(p, v))))
    .map(([kind]) => kind);
}

/** Returns the first broken rule, or null; a loop rather than expect() per item keeps 100k fast. */
function invariantViolation(catalog: SeedCatalog): string | null {
  const categories = new Map(catalog.categories.map((c) => [c.catalogRef, c]));
  const parents = new Set(catalog.categories.map((c) => c.parentRef).filter((ref) => ref !== null));
  for (const [index, p] of catalog.products.entries()) {
    const at = `product ${p.productRef}`;
    if (p.productRef !== FIRST_PRODUCT_REF + index) return `${at}: refs not consecutive`;
    const category = categories.get(p.catalogRef);
    if (!category || category.parentRef === null || parents.has(p.catalogRef)) return `${at}: not in a leaf`;
    if (!CHINESE.test(p.name) || !CHINESE.test(p.description)) return `${at}: name or description not Chinese`;
    if (p.revision > NOW || p.revision < NOW - MAX_REVISION_AGE_SECONDS) return `${at}: revision out of range`;
    if (p.imageUrl !== null && !PUBLIC_PNG.test(p.imageUrl)) return `${at}: bad imageUrl`;
    if (p.brand && (!CHINESE.test(p.brand.name) && !/^[A-Za-z]/.test(p.brand.name))) return `${at}: bad brand name`;
    if (p.brand?.imageUrl && !PUBLIC_PNG.test(p.brand.imageUrl)) return `${at}: bad brand imageUrl`;
    if (p.variants.length === 0) return `${at}: no variants`;
    if (p.variants.length === 1) {
      if (p.variants[0]?.variantRef !== 0) return `${at}: single variant without variantRef 0`;
    } else {
      const refs = new Set(p.variants.map((v) => v.variantRef));
      if (refs.size !== p.variants.length || refs.has(0)) return `${at}: multi-variant refs not unique and non-zero`;
    }
    for (const v of p.variants) {
      const vat = `${at} variant ${v.variantRef}`;
      if (v.title.length === 0) return `${vat}: empty title`;
      if (!Number.isInteger(v.priceFen) || v.priceFen <= 0) return `${vat}: bad price`;
      if (v.faceValueFen !== null && (!Number.isInteger(v.faceValueFen) || v.faceValueFen <= 0)) return `${vat}: bad face`;
      if (v.inventoryType === 'unlimited' && v.remainingUnits !== null) return `${vat}: unlimited with stock`;
      if (v.inventoryType !== 'unlimited' && !(Number.isInteger(v.remainingUnits) && (v.remainingUnits ?? -1) >= 0)) {
        return `${vat}: counted stock not an integer >= 0`;
      }
      const { entryMode, purchaseFields, unitRule, purchaseSchemaRevision } = v.template;
      if (p.productType === 'topup' && (entryMode === 'none' || purchaseFields.length === 0)) return `${vat}: topup template`;
      if (p.productType === 'card' && (entryMode !== 'none' || purchaseFields.length > 0)) return `${vat}: card template`;
      if (v.supply === 'needsVerification' && p.productType !== 'topup') return `${vat}: card needs verification`;
      if (!Number.isInteger(purchaseSchemaRevision) || purchaseSchemaRevision <= 0) return `${vat}: schema revision`;
      if (!(unitRule.min >= 1 && unitRule.step >= 1 && unitRule.max >= unitRule.min)) return `${vat}: unit rule`;
      if ((unitRule.max - unitRule.min) % unitRule.step !== 0) return `${vat}: unit rule max unreachable`;
    }
  }
  return null;
}

describe('seededRandom', () => {
  it('repeats for a seed and stays in range', () => {
    const a = new SeededRandom(99);
    const b = new SeededRandom(99);
    const drawn = Array.from({ length: 1000 }, () => a.int(3, 7));
    expect(drawn).toEqual(Array.from({ length: 1000 }, () => b.int(3, 7)));
    expect(new Set(drawn)).toEqual(new Set([3, 4, 5, 6, 7]));
    expect(new SeededRandom(1).next()).not.toBe(new SeededRandom(2).next());
    expect(() => a.pick([])).toThrow(RangeError);
    expect(a.shuffle([1, 2, 3, 4, 5]).sort()).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('seedCatalog', () => {
  it('is deterministic by products, seed and clock', () => {
    expect(seeded(2000, 11)).toEqual(seeded(2000, 11));
    expect(seeded(2000, 12)).not.toEqual(seeded(2000, 11));
    expect(seedCatalog({ products: 50, seed: 11, nowSeconds: NOW + 1 })).not.toEqual(seeded(50, 11));
  });

  it('makes every catalog a prefix of a larger one with the same seed', () => {
    expect(seeded(200, 5).products.slice(0, 50)).toEqual(seeded(50, 5).products);
  });

  it.each([50, 200])('covers every kind with %i products, for several seeds', (products) => {
    for (const seed of [0, 1, 42, 123_456_789]) {
      expect(missingKinds(seeded(products, seed).products)).toEqual([]);
    }
  });

  it('puts the whole coverage set first, independent of the seed', () => {
    expect(COVERAGE_SET.length).toBeLessThan(50);
    expect(missingKinds(seeded(COVERAGE_SET.length, 3).products)).toEqual([]);
    const kinds = (seed: number): string[] =>
      seeded(COVERAGE_SET.length, seed).products.map((p) => `${p.name}/${p.productType}/${p.variants.length}`);
    expect(kinds(1)).toEqual(kinds(2));
    expect(COVERAGE_SET.map((c) => c.productRef)).toEqual(COVERAGE_SET.map((_, i) => FIRST_PRODUCT_REF + i));
  });

  it('takes a prefix for small catalogs', () => {
    for (const products of [0, 1, 7, 49]) {
      const catalog = seeded(products);
      expect(catalog.products).toHaveLength(products);
      expect(invariantViolation(catalog)).toBeNull();
    }
    expect(seeded(0).categories.length).toBeGreaterThan(20);
  });

  it('holds the invariants for many seeds', () => {
    for (const seed of [0, 1, 2, 3, -5, 2 ** 40 + 3]) expect(invariantViolation(seeded(3000, seed))).toBeNull();
  });

  it('builds two levels of Chinese categories with products only in leaves', () => {
    const { categories, products } = seeded(3000);
    expect(categories.map((c) => c.catalogRef)).toEqual(categories.map((_, i) => i + 1));
    const tops = categories.filter((c) => c.parentRef === null);
    expect(tops.map((c) => c.name)).toEqual(
      expect.arrayContaining(['视频会员', '音乐会员', '话费充值', '流量充值', '游戏点卡', '游戏直充', '礼品卡', '外卖出行', '网盘会员', '读书会员']),
    );
    for (const top of tops) {
      const leaves = categories.filter((c) => c.parentRef === top.catalogRef);
      expect(leaves.length).toBeGreaterThanOrEqual(2);
      expect(leaves.length).toBeLessThanOrEqual(4);
      for (const leaf of leaves) expect(categories.some((c) => c.parentRef === leaf.catalogRef)).toBe(false);
    }
    for (const c of categories) expect(c.name).toMatch(/\S/);
    // With 3000 products every leaf has some, so the vocabulary has no dead category.
    const used = new Set(products.map((p) => p.catalogRef));
    expect(categories.filter((c) => c.parentRef !== null && !used.has(c.catalogRef))).toEqual([]);
  });

  it('prices like a real merchant', () => {
    const variants = seeded(5000).products.flatMap((p) => p.variants.map((v) => ({ p, v })));
    const phone100 = variants.filter(({ p, v }) => p.name.includes('话费充值') && v.title === '100元');
    expect(phone100.length).toBeGreaterThan(0);
    for (const { v } of phone100) {
      expect(v.priceFen).toBeGreaterThanOrEqual(9800);
      expect(v.priceFen).toBeLessThanOrEqual(9990);
      expect(v.faceValueFen).toBe(10000);
    }
    const monthly = variants.filter(({ v }) => v.title === '月卡');
    for (const { v } of monthly) {
      expect(v.priceFen).toBeGreaterThanOrEqual(1400);
      expect(v.priceFen).toBeLessThanOrEqual(3000);
      expect(v.faceValueFen).toBeNull();
    }
  });

  it('varies names in large catalogs', () => {
    const names = new Set(seeded(5000).products.map((p) => p.name));
    expect(names.size).toBeGreaterThan(1000);
  });

  it('gives every variant its own template but shares the frozen field lists', () => {
    const variants = seeded(2000).products.flatMap((p) => p.variants);
    expect(new Set(variants.map((v) => v.template)).size).toBe(variants.length);
    const withFields = variants.find((v) => v.template.purchaseFields.length > 0);
    expect(withFields && Object.isFrozen(withFields.template.purchaseFields)).toBe(true);
    expect(withFields && Object.isFrozen(withFields.template.unitRule)).toBe(true);
    expect(Object.isFrozen(variants[0]?.template)).toBe(false);
  });

  it('rejects nonsense options', () => {
    expect(() => seedCatalog({ products: -1, seed: 1, nowSeconds: NOW })).toThrow(RangeError);
    expect(() => seedCatalog({ products: 1.5, seed: 1, nowSeconds: NOW })).toThrow(RangeError);
    expect(() => seedCatalog({ products: 1, seed: 1, nowSeconds: 0 })).toThrow(RangeError);
  });

  it('generates 100,000 products with unique refs and the invariants', () => {
    const catalog = seeded(100_000, 2024);
    expect(catalog.products).toHaveLength(100_000);
    expect(new Set(catalog.products.map((p) => p.productRef)).size).toBe(100_000);
    expect(catalog.products.at(-1)?.productRef).toBe(FIRST_PRODUCT_REF + 99_999);
    expect(invariantViolation(catalog)).toBeNull();
    expect(missingKinds(catalog.products)).toEqual([]);
  });
});
