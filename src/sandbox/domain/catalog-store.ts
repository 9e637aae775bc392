// The merchant's live catalog: lookups for the endpoints, and every change (control API, stock moved
// by orders) computed into exactly the `changedProperties` hints of interface v1 §6.3.
import type { SandboxClock } from '../clock';
import type { Availability, Category, InventoryType, Product, SeedCatalog, Variant } from './catalog-types';

export type ChangedProperty = 'availability' | 'brand' | 'variants' | 'price' | 'inventoryType' | 'remainingUnits' | 'purchaseSchemaRevision';

export type ProductChangeListener = (product: Product, changedProperties: ChangedProperty[]) => void;

/** What the stock looks like from outside: a number only for tracked variants. */
export function visibleUnits(variant: Variant): number | null {
  return variant.inventoryType === 'tracked' ? variant.remainingUnits : null;
}

interface VariantView {
  title: string;
  priceFen: number;
  availability: Availability;
  inventoryType: InventoryType;
  units: number | null;
  schemaRevision: number;
}

interface ProductView {
  availability: Availability;
  brand: string;
  catalogRef: number;
  variants: Map<number, VariantView>;
}

function viewOf(product: Product): ProductView {
  return {
    availability: product.availability,
    brand: JSON.stringify(product.brand),
    catalogRef: product.catalogRef,
    variants: new Map(
      product.variants.map((v) => [
        v.variantRef,
        { title: v.title, priceFen: v.priceFen, availability: v.availability, inventoryType: v.inventoryType, units: visibleUnits(v), schemaRevision: v.template.purchaseSchemaRevision },
      ]),
    ),
  };
}

/** The hints of interface v1 §6.3 for the difference between two views of one product. */
function diff(before: ProductView, after: ProductView, singleVariant: boolean): ChangedProperty[] {
  const changed = new Set<ChangedProperty>();
  if (before.availability !== after.availability) changed.add('availability');
  if (before.brand !== after.brand) changed.add('brand');
  if (before.variants.size !== after.variants.size) changed.add('variants');
  for (const [ref, old] of before.variants) {
    const now = after.variants.get(ref);
    if (!now) {
      changed.add('variants');
      continue;
    }
    if (old.title !== now.title) changed.add('variants');
    if (old.availability !== now.availability) changed.add('availability');
    if (old.priceFen !== now.priceFen) changed.add('price');
    if (old.inventoryType !== now.inventoryType) changed.add('inventoryType');
    const tracked = old.inventoryType === 'tracked' || now.inventoryType === 'tracked';
    if (old.units !== now.units && (singleVariant || tracked)) changed.add('remainingUnits');
    if (old.schemaRevision !== now.schemaRevision) changed.add('purchaseSchemaRevision');
  }
  for (const ref of after.variants.keys()) if (!before.variants.has(ref)) changed.add('variants');
  const order: ChangedProperty[] = ['availability', 'brand', 'variants', 'price', 'inventoryType', 'remainingUnits', 'purchaseSchemaRevision'];
  return order.filter((p) => changed.has(p));
}

export class CatalogStore {
  readonly categories: Category[];
  /** Products ordered by productRef, as the catalog endpoint lists them. */
  readonly products: Product[];
  private readonly byRef = new Map<number, Product>();
  private readonly categoryByRef = new Map<number, Category>();
  private readonly listeners: ProductChangeListener[] = [];

  constructor(
    seed: SeedCatalog,
    private readonly clock: SandboxClock,
  ) {
    this.categories = [...seed.categories].sort((a, b) => a.catalogRef - b.catalogRef);
    this.products = [...seed.products].sort((a, b) => a.productRef - b.productRef);
    for (const product of this.products) this.byRef.set(product.productRef, product);
    for (const category of this.categories) this.categoryByRef.set(category.catalogRef, category);
  }

  onChange(listener: ProductChangeListener): void {
    this.listeners.push(listener);
  }

  product(productRef: number): Product | undefined {
    return this.byRef.get(productRef);
  }

  category(catalogRef: number): Category | undefined {
    return this.categoryByRef.get(catalogRef);
  }

  /** The category and its children (two levels at most). */
  categoryFamily(catalogRef: number): Set<number> {
    const family = new Set([catalogRef]);
    for (const category of this.categories) if (category.parentRef === catalogRef) family.add(category.catalogRef);
    return family;
  }

  productCount(catalogRef: number): number {
    const family = this.categoryFamily(catalogRef);
    let count = 0;
    for (const product of this.products) if (family.has(product.catalogRef)) count++;
    return count;
  }

  /**
   * The categories involved in discoverable products (interface v1 §4: GET /categories), each with its count:
   * a category without products, directly or through its children, is not shown. One pass over the
   * products, so a 100,000-product catalog stays cheap to list.
   */
  categoriesInUse(): { category: Category; productCount: number }[] {
    const counts = new Map<number, number>();
    for (const product of this.products) counts.set(product.catalogRef, (counts.get(product.catalogRef) ?? 0) + 1);
    const total = (category: Category): number => {
      let count = counts.get(category.catalogRef) ?? 0;
      for (const child of this.categories) if (child.parentRef === category.catalogRef) count += counts.get(child.catalogRef) ?? 0;
      return count;
    };
    return this.categories.map((category) => ({ category, productCount: total(category) })).filter((entry) => entry.productCount > 0);
  }

  /**
   * Applies a mutation and publishes `product.changed` hints for what it changed. The revision moves
   * on every change, a category move included, and always strictly increases (contract §4.1).
   */
  change(product: Product, mutate: (product: Product) => void): ChangedProperty[] {
    const before = viewOf(product);
    mutate(product);
    const after = viewOf(product);
    const changed = diff(before, after, product.variants.length === 1 && product.variants[0]?.variantRef === 0);
    if (changed.length === 0 && before.catalogRef === after.catalogRef) return [];
    product.revision = Math.max(this.clock.nowSeconds(), product.revision + 1);
    // A category move alone sends nothing (interface v1 §6.3).
    if (changed.length > 0) for (const listener of this.listeners) listener(product, changed);
    return changed;
  }

  /** Moves stock after an order (negative) or its cancellation (positive); unlimited stock never moves. */
  moveStock(product: Product, variantRef: number, delta: number): void {
    const variant = product.variants.find((v) => v.variantRef === variantRef);
    if (!variant || variant.remainingUnits === null) return;
    this.change(product, () => {
      variant.remainingUnits = Math.max(0, (variant.remainingUnits ?? 0) + delta);
    });
  }
}
