// The sandbox's seeded catalog: the same {products, seed, nowSeconds} always gives the same
// catalog, so tests, demos and benchmarks can name products by productRef.
//
// The first products are a fixed coverage set (COVERAGE_SET): one of every kind the interface
// distinguishes (card / top-up, single / multi-variant, each inventory type, sold out,
// unavailable, brands with and without image, each entryMode and supply behaviour), so that any
// catalog of COVERAGE_SET.length products or more contains them all and a smaller one a prefix.
// The rest are drawn at random from the vocabulary. Products are generated in order from one random
// stream, so a catalog is a prefix of every larger catalog with the same seed and clock.
//
// Sharing, to keep a 100,000-product catalog small: brands, purchaseFields arrays, unitRule objects
// and strings are shared between products and frozen, so treat them as immutable and replace them
// rather than edit them. Every variant owns its PurchaseTemplate (the sandbox bumps
// purchaseSchemaRevision per variant), and every product, variant and category is its own object.

import type {
  Brand,
  Category,
  EntryMode,
  InventoryType,
  Product,
  SeedCatalog,
  SeedCatalogOptions,
  SupplyBehaviour,
  UnitRule,
  Variant,
} from '../domain/catalog-types';
import type { Archetype } from './catalog-vocabulary';
import {
  BRANDS_WITHOUT_IMAGE,
  CARD_EDITIONS,
  CATALOG_VOCABULARY,
  IMAGE_HOST,
  REGIONS,
  TOPUP_EDITIONS,
  describeArchetype,
} from './catalog-vocabulary';
import { SeededRandom } from './seeded-random';

export const FIRST_PRODUCT_REF = 1001;
/** Seeded revisions lie at most this far before nowSeconds. */
export const MAX_REVISION_AGE_SECONDS = 30 * 86_400;

// ---- the vocabulary, indexed once --------------------------------------------------------------

interface ArchetypeEntry {
  readonly archetype: Archetype;
  readonly catalogRef: number;
  readonly brand: Brand;
  readonly imageUrl: string;
  readonly description: string;
  readonly index: number;
}

interface IndexedVocabulary {
  readonly categories: readonly Category[];
  readonly archetypes: readonly ArchetypeEntry[];
}

function indexVocabulary(): IndexedVocabulary {
  const categories: Category[] = [];
  const archetypes: ArchetypeEntry[] = [];
  const brands = new Map<string, Brand>();
  const brandFor = (name: string): Brand => {
    let brand = brands.get(name);
    if (!brand) {
      const brandRef = brands.size + 1;
      const imageUrl = BRANDS_WITHOUT_IMAGE.has(name) ? null : `${IMAGE_HOST}/brands/${brandRef}.png`;
      brand = Object.freeze({ brandRef, name, imageUrl });
      brands.set(name, brand);
    }
    return brand;
  };
  // Parents are numbered just before their children (视频会员 1, 爱奇艺 2, …), as a merchant's
  // back office that creates a category and then its subcategories would.
  CATALOG_VOCABULARY.forEach((top, topIndex) => {
    const parentRef = categories.length + 1;
    categories.push({ catalogRef: parentRef, name: top.name, parentRef: null, sort: (topIndex + 1) * 10 });
    top.leaves.forEach((leaf, leafIndex) => {
      const catalogRef = categories.length + 1;
      categories.push({ catalogRef, name: leaf.name, parentRef, sort: leafIndex + 1 });
      for (const archetype of leaf.archetypes) {
        const index = archetypes.length;
        archetypes.push({
          archetype,
          catalogRef,
          brand: brandFor(leaf.brand),
          imageUrl: `${IMAGE_HOST}/goods/${index + 1}.png`,
          description: describeArchetype(archetype),
          index,
        });
      }
    });
  });
  return { categories, archetypes };
}

const { categories: CATEGORY_ROWS, archetypes: ARCHETYPES } = indexVocabulary();
const BY_BASE = new Map(ARCHETYPES.map((entry) => [entry.archetype.base, entry]));

function archetypeNamed(base: string): ArchetypeEntry {
  const entry = BY_BASE.get(base);
  if (!entry) throw new Error(`coverage set names an unknown archetype: ${base}`);
  return entry;
}

// ---- shared, frozen unit rules ---------------------------------------------------------------

const rule = (min: number, max: number, step: number): UnitRule => Object.freeze({ min, max, step });
const CARD_UNIT_RULES: readonly UnitRule[] = [rule(1, 10, 1), rule(1, 20, 1), rule(1, 50, 1)];
const TOPUP_UNIT_RULES: readonly UnitRule[] = [rule(1, 5, 1), rule(1, 1, 1), rule(1, 10, 1), rule(1, 3, 1)];
const ONE_AT_A_TIME = rule(1, 1, 1);
const UP_TO_FIVE = rule(1, 5, 1);
const UP_TO_TEN = rule(1, 10, 1);
const PAIRS = rule(2, 20, 2);
const EVEN_BATCH = rule(2, 10, 2);

// ---- the coverage set ------------------------------------------------------------------------

interface CoverageVariant {
  /** Index into the archetype's ladder. */
  readonly step: number;
  readonly inventory: InventoryType;
  readonly soldOut?: boolean;
  readonly unavailable?: boolean;
  readonly supply?: SupplyBehaviour;
}

interface CoverageEntry {
  readonly kind: string;
  readonly base: string;
  /** One item makes a single-variant product (variantRef 0). */
  readonly variants: readonly CoverageVariant[];
  readonly entryMode?: 'single' | 'perUnit';
  readonly unitRule?: UnitRule;
  readonly brandless?: boolean;
  readonly unavailable?: boolean;
}

const COVERAGE: readonly CoverageEntry[] = [
  {
    kind: 'card, single variant, tracked stock, brand with image',
    base: '爱奇艺黄金会员',
    variants: [{ step: 0, inventory: 'tracked' }],
  },
  {
    kind: 'card, multi-variant; 季卡 tracked and sold out (0); 年卡 unlimited',
    base: '腾讯视频VIP',
    variants: [
      { step: 0, inventory: 'tracked' },
      { step: 1, inventory: 'tracked', soldOut: true },
      { step: 3, inventory: 'unlimited' },
    ],
  },
  {
    kind: 'topup, single variant, entryMode single (mobile), unlimited',
    base: '中国移动话费充值',
    variants: [{ step: 4, inventory: 'unlimited' }],
    entryMode: 'single',
    unitRule: UP_TO_FIVE,
  },
  {
    kind: 'topup, multi-variant, entryMode perUnit (mobile)',
    base: '中国联通话费充值',
    variants: [
      { step: 2, inventory: 'unlimited' },
      { step: 3, inventory: 'unlimited' },
      { step: 4, inventory: 'unlimited' },
    ],
    entryMode: 'perUnit',
    unitRule: UP_TO_TEN,
  },
  {
    kind: 'card, multi-variant, undisclosed stock, brand without image',
    base: '骏网一卡通',
    variants: [
      { step: 2, inventory: 'undisclosed' },
      { step: 3, inventory: 'undisclosed' },
      { step: 4, inventory: 'undisclosed' },
    ],
  },
  {
    kind: 'card, single variant, product unavailable',
    base: '网易一卡通',
    variants: [{ step: 3, inventory: 'tracked' }],
    unavailable: true,
  },
  {
    kind: 'topup, multi-variant, 300点券 unavailable in an available product, select field, perUnit',
    base: '王者荣耀点券直充',
    variants: [
      { step: 0, inventory: 'unlimited' },
      { step: 1, inventory: 'unlimited', unavailable: true },
      { step: 2, inventory: 'undisclosed' },
    ],
    entryMode: 'perUnit',
    unitRule: UP_TO_FIVE,
  },
  {
    kind: 'card, single variant, no brand, supply fails',
    base: '京东E卡',
    variants: [{ step: 1, inventory: 'tracked', supply: 'fail' }],
    brandless: true,
  },
  {
    kind: 'topup, single variant, tracked, QQ number field, supply fails',
    base: 'QQ音乐豪华绿钻直充',
    variants: [{ step: 1, inventory: 'tracked', supply: 'fail' }],
    entryMode: 'single',
  },
  {
    kind: 'topup, single variant, supply needs a verification code, unitRule 1..1',
    base: '腾讯视频VIP直充',
    variants: [{ step: 0, inventory: 'unlimited', supply: 'needsVerification' }],
    entryMode: 'single',
    unitRule: ONE_AT_A_TIME,
  },
  {
    kind: 'topup, single variant, undisclosed, unitRule min 2 step 2',
    base: '腾讯Q币直充',
    variants: [{ step: 1, inventory: 'undisclosed' }],
    entryMode: 'single',
    unitRule: PAIRS,
  },
  {
    kind: 'topup, multi-variant, tracked, integer and select fields, perUnit',
    base: '原神创世结晶直充',
    variants: [
      { step: 0, inventory: 'tracked' },
      { step: 1, inventory: 'tracked' },
      { step: 2, inventory: 'tracked' },
    ],
    entryMode: 'perUnit',
    unitRule: UP_TO_FIVE,
  },
  {
    kind: 'topup, single variant, account text and optional email field',
    base: '百度网盘超级会员SVIP直充',
    variants: [{ step: 0, inventory: 'unlimited' }],
    entryMode: 'single',
  },
  {
    kind: 'topup, single variant, email-type account field, perUnit',
    base: '梦幻西游点数直充',
    variants: [{ step: 2, inventory: 'unlimited' }],
    entryMode: 'perUnit',
    unitRule: UP_TO_FIVE,
  },
  {
    kind: 'card, single variant, tracked and sold out (0)',
    base: '星巴克星礼卡',
    variants: [{ step: 1, inventory: 'tracked', soldOut: true }],
  },
  {
    kind: 'topup, multi-variant, one variant needs verification, entryMode single',
    base: '中国移动流量包',
    variants: [
      { step: 0, inventory: 'unlimited' },
      { step: 2, inventory: 'unlimited', supply: 'needsVerification' },
      { step: 3, inventory: 'unlimited' },
    ],
    entryMode: 'single',
  },
  {
    kind: 'card, multi-variant, 年卡 supply fails',
    base: '饿了么超级吃货卡',
    variants: [
      { step: 0, inventory: 'tracked' },
      { step: 1, inventory: 'tracked' },
      { step: 2, inventory: 'tracked', supply: 'fail' },
    ],
  },
  {
    kind: 'card, multi-variant, unlimited',
    base: '微信读书付费会员卡',
    variants: [
      { step: 0, inventory: 'unlimited' },
      { step: 2, inventory: 'unlimited' },
    ],
  },
  {
    kind: 'card, single variant, undisclosed, coupon with face value',
    base: '滴滴快车券',
    variants: [{ step: 1, inventory: 'undisclosed' }],
  },
  {
    kind: 'topup, single variant, undisclosed, perUnit with batch of 2..10 step 2',
    base: '芒果TV会员直充',
    variants: [{ step: 0, inventory: 'undisclosed' }],
    entryMode: 'perUnit',
    unitRule: EVEN_BATCH,
  },
];

/** productRef → what that product of the coverage set demonstrates, for docs and tests. */
export const COVERAGE_SET: readonly { readonly productRef: number; readonly kind: string }[] = COVERAGE.map(
  (entry, i) => ({ productRef: FIRST_PRODUCT_REF + i, kind: entry.kind }),
);

// Fail at start-up, not at the first request, if the vocabulary and the coverage set drift apart.
for (const entry of COVERAGE) {
  const { archetype } = archetypeNamed(entry.base);
  for (const variant of entry.variants) {
    if (archetype.ladder[variant.step] === undefined) throw new Error(`coverage step out of range: ${entry.base}`);
  }
}

// ---- generation ------------------------------------------------------------------------------

const INVENTORY_TYPES: readonly InventoryType[] = ['tracked', 'unlimited', 'undisclosed'];

function suffixesFor(archetype: Archetype): readonly string[] {
  return archetype.suffix === 'region' ? REGIONS : archetype.type === 'card' ? CARD_EDITIONS : TOPUP_EDITIONS;
}

class Generator {
  /** Names are built from a few thousand combinations; sharing the strings keeps the heap small. */
  private readonly names = new Map<number, string>();
  private readonly maxRevisionAge: number;

  constructor(
    private readonly rng: SeededRandom,
    private readonly nowSeconds: number,
  ) {
    this.maxRevisionAge = Math.min(MAX_REVISION_AGE_SECONDS, Math.max(0, nowSeconds - 1));
  }

  coverageProduct(entry: CoverageEntry, productRef: number): Product {
    const arch = archetypeNamed(entry.base);
    const single = entry.variants.length === 1;
    const entryMode = this.entryModeFor(arch.archetype, entry.entryMode);
    const unitRule = entry.unitRule ?? this.unitRuleFor(arch.archetype);
    const factor = this.priceFactor(arch.archetype);
    const variants = entry.variants.map((spec, i) => {
      const remaining = spec.soldOut ? 0 : this.stock(spec.inventory);
      return this.variant(arch.archetype, spec.step, single ? 0 : i + 1, factor, {
        availability: spec.unavailable ? 'unavailable' : 'available',
        inventoryType: spec.inventory,
        remainingUnits: remaining,
        entryMode,
        unitRule,
        supply: spec.supply ?? 'succeed',
      });
    });
    const firstStep = entry.variants[0]?.step ?? 0;
    return this.product(arch, productRef, {
      name: this.name(arch, single ? firstStep : -1, -1),
      brand: entry.brandless ? null : arch.brand,
      imageUrl: arch.imageUrl,
      unavailable: entry.unavailable ?? false,
      variants,
    });
  }

  randomProduct(productRef: number): Product {
    const { rng } = this;
    const arch = rng.pick(ARCHETYPES);
    const { archetype } = arch;
    const ladderLength = archetype.ladder.length;
    const multi = ladderLength >= 2 && rng.chance(0.45);
    const count = multi ? rng.int(2, Math.min(ladderLength, 5)) : 1;
    const firstStep = rng.int(0, ladderLength - count);
    const entryMode = this.entryModeFor(archetype);
    const unitRule = this.unitRuleFor(archetype);
    const factor = this.priceFactor(archetype);
    const inventory = this.defaultInventory(archetype);
    // Sized up front: push() would leave ~17 spare slots in every one of 100,000 small arrays.
    const variants = new Array<Variant>(count);
    for (let i = 0; i < count; i++) {
      const inventoryType = rng.chance(0.85) ? inventory : rng.pick(INVENTORY_TYPES);
      const remainingUnits = inventoryType === 'tracked' && rng.chance(0.06) ? 0 : this.stock(inventoryType);
      variants[i] = this.variant(archetype, firstStep + i, multi ? i + 1 : 0, factor, {
        availability: multi && rng.chance(0.05) ? 'unavailable' : 'available',
        inventoryType,
        remainingUnits,
        entryMode,
        unitRule,
        supply: this.supplyFor(archetype),
      });
    }
    const suffixes = suffixesFor(archetype);
    const suffix = rng.chance(0.75) ? rng.int(0, suffixes.length - 1) : -1;
    return this.product(arch, productRef, {
      name: this.name(arch, multi ? -1 : firstStep, suffix),
      brand: rng.chance(0.06) ? null : arch.brand,
      imageUrl: rng.chance(0.15) ? null : arch.imageUrl,
      unavailable: rng.chance(0.03),
      variants,
    });
  }

  private product(
    arch: ArchetypeEntry,
    productRef: number,
    parts: { name: string; brand: Brand | null; imageUrl: string | null; unavailable: boolean; variants: Variant[] },
  ): Product {
    return {
      productRef,
      catalogRef: arch.catalogRef,
      name: parts.name,
      productType: arch.archetype.type,
      description: arch.description,
      imageUrl: parts.imageUrl,
      brand: parts.brand,
      availability: parts.unavailable ? 'unavailable' : 'available',
      revision: this.nowSeconds - this.rng.int(0, this.maxRevisionAge),
      variants: parts.variants,
    };
  }

  private variant(
    archetype: Archetype,
    step: number,
    variantRef: number,
    factor: number,
    parts: Pick<Variant, 'availability' | 'inventoryType' | 'remainingUnits' | 'supply'> & {
      entryMode: EntryMode;
      unitRule: UnitRule;
    },
  ): Variant {
    const ladderStep = archetype.ladder[step];
    if (!ladderStep) throw new RangeError(`no ladder step ${step} in ${archetype.base}`);
    const { roundFen } = archetype.pricing;
    const priceFen = Math.max(roundFen, Math.round((ladderStep.baseFen * factor) / roundFen) * roundFen);
    return {
      variantRef,
      title: ladderStep.title,
      priceFen,
      faceValueFen: ladderStep.faceFen,
      availability: parts.availability,
      inventoryType: parts.inventoryType,
      remainingUnits: parts.remainingUnits,
      // Owned by this variant: the sandbox bumps a single variant's purchaseSchemaRevision.
      template: {
        purchaseSchemaRevision: this.rng.int(1, 5),
        entryMode: parts.entryMode,
        purchaseFields: archetype.fields,
        unitRule: parts.unitRule,
      },
      supply: parts.supply,
    };
  }

  /** -1 for no variant title (multi-variant) or no suffix. */
  private name(arch: ArchetypeEntry, step: number, suffix: number): string {
    const key = (arch.index * 16 + step + 1) * 32 + suffix + 1;
    let name = this.names.get(key);
    if (name === undefined) {
      const { archetype } = arch;
      const title = step >= 0 ? ` ${archetype.ladder[step]?.title ?? ''}` : '';
      const suffixes = suffixesFor(archetype);
      const tail = suffix >= 0 ? `（${suffixes[suffix] ?? ''}）` : '';
      name = `${archetype.base}${title}${tail}`;
      this.names.set(key, name);
    }
    return name;
  }

  private entryModeFor(archetype: Archetype, wanted?: 'single' | 'perUnit'): EntryMode {
    if (archetype.type === 'card') return 'none';
    return wanted ?? (this.rng.chance(0.65) ? 'single' : 'perUnit');
  }

  private unitRuleFor(archetype: Archetype): UnitRule {
    if (archetype.type === 'card') return this.rng.pick(CARD_UNIT_RULES);
    return this.rng.chance(0.03) ? EVEN_BATCH : this.rng.pick(TOPUP_UNIT_RULES);
  }

  private priceFactor(archetype: Archetype): number {
    return this.rng.between(archetype.pricing.low, archetype.pricing.high);
  }

  /** Cards are real codes in a warehouse, so mostly counted; top-ups are mostly unlimited. */
  private defaultInventory(archetype: Archetype): InventoryType {
    const roll = this.rng.next();
    if (archetype.type === 'card') return roll < 0.6 ? 'tracked' : roll < 0.85 ? 'undisclosed' : 'unlimited';
    return roll < 0.6 ? 'unlimited' : roll < 0.85 ? 'undisclosed' : 'tracked';
  }

  /** Tracked: sellable stock; undisclosed: the hidden real stock; unlimited: null. */
  private stock(inventory: InventoryType): number | null {
    if (inventory === 'unlimited') return null;
    return inventory === 'tracked' ? this.rng.int(1, 5000) : this.rng.int(20, 5000);
  }

  private supplyFor(archetype: Archetype): SupplyBehaviour {
    const roll = this.rng.next();
    if (archetype.type === 'card') return roll < 0.03 ? 'fail' : 'succeed';
    return roll < 0.04 ? 'fail' : roll < 0.14 ? 'needsVerification' : 'succeed';
  }
}

export function seedCatalog(options: SeedCatalogOptions): SeedCatalog {
  const { products: count, seed, nowSeconds } = options;
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`products must be an integer >= 0, got ${count}`);
  if (!Number.isSafeInteger(nowSeconds) || nowSeconds <= 0) {
    throw new RangeError(`nowSeconds must be a positive integer, got ${nowSeconds}`);
  }
  const generator = new Generator(new SeededRandom(seed), nowSeconds);
  const products: Product[] = [];
  for (let i = 0; i < count; i++) {
    const entry = COVERAGE[i];
    const productRef = FIRST_PRODUCT_REF + i;
    products.push(entry ? generator.coverageProduct(entry, productRef) : generator.randomProduct(productRef));
  }
  // Fresh category objects per catalog: the sandbox may rename or re-sort them.
  return { categories: CATEGORY_ROWS.map((row) => ({ ...row })), products };
}
