// The catalog as the interface shows it: the product snapshot of interface v1 §2.4 and the contract's
// supersets of it (detail, catalog item, template).
import { fenToYuanNumber } from '../../shared/money';
import { visibleUnits } from './catalog-store';
import type { Category, Product, Variant } from './catalog-types';

function variantToWire(variant: Variant): Record<string, unknown> {
  return {
    variantRef: variant.variantRef,
    title: variant.title,
    price: fenToYuanNumber(variant.priceFen),
    availability: variant.availability,
    inventoryType: variant.inventoryType,
    remainingUnits: visibleUnits(variant),
    purchaseSchemaRevision: variant.template.purchaseSchemaRevision,
  };
}

export function productSnapshot(product: Product): Record<string, unknown> {
  return {
    productRef: product.productRef,
    catalogRef: product.catalogRef,
    brand: product.brand ? { ...product.brand } : null,
    availability: product.availability,
    revision: product.revision,
    variants: product.variants.map(variantToWire),
  };
}

export function productDetail(product: Product): Record<string, unknown> {
  return {
    ...productSnapshot(product),
    name: product.name,
    productType: product.productType,
    description: product.description,
    imageUrl: product.imageUrl,
    variants: product.variants.map((v) => ({ ...variantToWire(v), faceValue: v.faceValueFen === null ? null : fenToYuanNumber(v.faceValueFen) })),
  };
}

export function catalogItem(product: Product, subscription: { state: string; expiresAt: number | null }): Record<string, unknown> {
  return {
    productRef: product.productRef,
    catalogRef: product.catalogRef,
    name: product.name,
    productType: product.productType,
    brand: product.brand ? { ...product.brand } : null,
    availability: product.availability,
    priceFrom: fenToYuanNumber(Math.min(...product.variants.map((v) => v.priceFen))),
    variantCount: product.variants.length,
    revision: product.revision,
    subscriptionState: subscription.state,
    subscriptionExpiresAt: subscription.expiresAt,
  };
}

export function categoryToWire(category: Category, productCount: number): Record<string, unknown> {
  return { catalogRef: category.catalogRef, name: category.name, parentRef: category.parentRef, sort: category.sort, productCount };
}

export function templateToWire(product: Product, variant: Variant): Record<string, unknown> {
  const { template } = variant;
  return {
    productRef: product.productRef,
    variantRef: variant.variantRef,
    productType: product.productType,
    purchaseSchemaRevision: template.purchaseSchemaRevision,
    entryMode: template.entryMode,
    purchaseFields: template.purchaseFields.map((f) => ({ ...f, options: f.options ? f.options.map((o) => ({ ...o })) : null })),
    unitRule: { ...template.unitRule },
  };
}
