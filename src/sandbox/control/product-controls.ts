// Control of the catalog: every change goes through CatalogStore.change, so the product.changed hints
// it produces are the ones a real change would produce.
import { fenToYuanNumber } from '../../shared/money';
import type { Availability, Brand, InventoryType, Product, Variant } from '../domain/catalog-types';
import type { Merchant } from '../domain/merchant';
import { ControlError, readYuan, type ControlBody } from './control-error';

const AVAILABILITIES: readonly string[] = ['available', 'unavailable'];
const INVENTORY_TYPES: readonly string[] = ['tracked', 'unlimited', 'undisclosed'];

export function listProducts(merchant: Merchant, query: URLSearchParams): unknown[] {
  const limit = Number(query.get('limit') ?? 200);
  const offset = Number(query.get('offset') ?? 0);
  return merchant.ctx.catalog.products.slice(offset, offset + limit).map((p) => ({
    productRef: p.productRef,
    productType: p.productType,
    name: p.name,
    catalogRef: p.catalogRef,
    availability: p.availability,
    revision: p.revision,
    brand: p.brand,
    variants: p.variants.map((v) => ({
      variantRef: v.variantRef,
      title: v.title,
      price: fenToYuanNumber(v.priceFen),
      availability: v.availability,
      inventoryType: v.inventoryType,
      remainingUnits: v.remainingUnits,
      supply: v.supply,
      entryMode: v.template.entryMode,
      purchaseSchemaRevision: v.template.purchaseSchemaRevision,
      unitRule: v.template.unitRule,
    })),
  }));
}

/**
 * A brand as the control API takes it: `{brandRef?, name, imageUrl?}` or null. Without a brandRef the
 * merchant's brand of that name is reused, or a new brand is made, as a back office would do.
 */
function readBrand(value: unknown, products: readonly Product[]): Brand | null {
  if (value === null) return null;
  if (typeof value === 'object' && !Array.isArray(value)) {
    const { brandRef, name, imageUrl } = value as Record<string, unknown>;
    const refOk = brandRef === undefined || (Number.isSafeInteger(brandRef) && (brandRef as number) > 0);
    if (refOk && typeof name === 'string' && name !== '' && (imageUrl === null || imageUrl === undefined || typeof imageUrl === 'string')) {
      return { brandRef: typeof brandRef === 'number' ? brandRef : brandRefFor(name, products), name, imageUrl: imageUrl ?? null };
    }
  }
  throw new ControlError(400, 'brand must be {brandRef?, name, imageUrl?} or null');
}

function brandRefFor(name: string, products: readonly Product[]): number {
  let highest = 0;
  for (const product of products) {
    if (product.brand === null) continue;
    if (product.brand.name === name) return product.brand.brandRef;
    highest = Math.max(highest, product.brand.brandRef);
  }
  return highest + 1;
}

function pickVariant(product: Product, body: ControlBody): Variant {
  const ref = body['variantRef'] ?? product.variants[0]?.variantRef;
  const variant = product.variants.find((v) => v.variantRef === ref);
  if (!variant) throw new ControlError(404, `product ${product.productRef} has no variant ${JSON.stringify(ref)}`);
  return variant;
}

/**
 * Stock alone must never leave a variant that the snapshot would misstate (interface v1 §2.4: `tracked` has a
 * number, `unlimited` null): a count given to an unlimited variant makes it tracked, null given to a
 * tracked one makes it unlimited; an undisclosed variant keeps its type (the count stays hidden).
 */
function inventoryTypeAfter(current: InventoryType, asked: InventoryType | undefined, units: number | null | undefined): InventoryType {
  if (asked !== undefined) return asked;
  if (units === null && current === 'tracked') return 'unlimited';
  if (typeof units === 'number' && current === 'unlimited') return 'tracked';
  return current;
}

/** Validates the whole request first, then applies it as one change (one revision, one message). */
export function changeProduct(merchant: Merchant, productRef: number, body: ControlBody): Record<string, unknown> {
  const { catalog } = merchant.ctx;
  const product = catalog.product(productRef);
  if (!product) throw new ControlError(404, `no product ${productRef}`);
  const variant = pickVariant(product, body);
  const single = product.variants.length === 1 && variant.variantRef === 0;
  const price = body['price'] === undefined ? undefined : readYuan(body['price'], 'price');
  const units = body['remainingUnits'];
  if (units !== undefined && units !== null && !(Number.isSafeInteger(units) && (units as number) >= 0)) throw new ControlError(400, 'remainingUnits must be an integer >= 0 or null');
  const inventoryType = body['inventoryType'];
  if (inventoryType !== undefined && !INVENTORY_TYPES.includes(inventoryType as string)) throw new ControlError(400, 'bad inventoryType');
  if (inventoryType === 'tracked' && units === null) throw new ControlError(400, 'a tracked variant needs remainingUnits as a number');
  const availability = body['availability'];
  if (availability !== undefined && !AVAILABILITIES.includes(availability as string)) throw new ControlError(400, 'bad availability');
  const brand = body['brand'] === undefined ? undefined : readBrand(body['brand'], catalog.products);
  const catalogRef = body['catalogRef'];
  if (catalogRef !== undefined && !(typeof catalogRef === 'number' && catalog.category(catalogRef))) throw new ControlError(400, 'no such catalogRef');
  const bump = body['purchaseSchemaRevision'];
  if (bump !== undefined && bump !== 'bump') throw new ControlError(400, 'purchaseSchemaRevision takes "bump"');
  const title = body['title'];
  if (title !== undefined && (typeof title !== 'string' || title === '')) throw new ControlError(400, 'title must be a non-empty string');
  const added = body['addVariant'] as Record<string, unknown> | undefined;
  if (added !== undefined && (single || typeof added !== 'object' || typeof added['title'] !== 'string')) {
    throw new ControlError(400, 'addVariant needs {title, price} and a multi-variant product');
  }
  const addedPrice = added === undefined ? 0 : readYuan(added['price'], 'addVariant.price');
  const removed = body['removeVariantRef'];
  if (removed !== undefined && (single || product.variants.length < 3 || !product.variants.some((v) => v.variantRef === removed))) {
    throw new ControlError(400, 'removeVariantRef must name a variant of a product that keeps at least two');
  }

  const changed = catalog.change(product, (p) => {
    if (price !== undefined) variant.priceFen = price;
    const type = inventoryTypeAfter(variant.inventoryType, inventoryType as InventoryType | undefined, units as number | null | undefined);
    variant.inventoryType = type;
    if (units !== undefined && type !== 'unlimited') variant.remainingUnits = units as number | null;
    if (type === 'unlimited') variant.remainingUnits = null;
    else if (variant.remainingUnits === null && units !== null) variant.remainingUnits = 100;
    if (availability !== undefined) {
      if (body['variantRef'] === undefined) p.availability = availability as Availability;
      else variant.availability = availability as Availability;
    }
    if (brand !== undefined) p.brand = brand;
    if (typeof catalogRef === 'number') p.catalogRef = catalogRef;
    if (bump === 'bump') variant.template = { ...variant.template, purchaseSchemaRevision: variant.template.purchaseSchemaRevision + 1 };
    if (typeof title === 'string') variant.title = title;
    if (added !== undefined) {
      const nextRef = Math.max(...p.variants.map((v) => v.variantRef)) + 1;
      p.variants.push({ ...variant, variantRef: nextRef, title: added['title'] as string, priceFen: addedPrice, template: { ...variant.template } });
    }
    if (removed !== undefined) p.variants = p.variants.filter((v) => v.variantRef !== removed);
  });
  return { revision: product.revision, changedProperties: changed };
}
