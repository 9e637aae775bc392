// The cached form a product detail must take: every field the interface shows, money in fen.
import type { CachedProduct } from '../../../src/core/catalog/catalog-reader';
import type { ProductDetail } from '../../../src/shared/merchant/catalog';

export type ComparableProduct = Pick<
  CachedProduct,
  'productRef' | 'catalogRef' | 'name' | 'productType' | 'brand' | 'availability' | 'description' | 'imageUrl' | 'revision' | 'variants'
>;

export function expectedFromDetail(detail: ProductDetail): ComparableProduct {
  return {
    productRef: detail.productRef,
    catalogRef: detail.catalogRef,
    name: detail.name,
    productType: detail.productType,
    brand: detail.brand ? { brandRef: detail.brand.brandRef, name: detail.brand.name, imageUrl: detail.brand.imageUrl } : null,
    availability: detail.availability,
    description: detail.description,
    imageUrl: detail.imageUrl,
    revision: detail.revision,
    variants: detail.variants.map((v) => ({
      variantRef: v.variantRef,
      title: v.title,
      priceFen: v.price,
      faceValueFen: v.faceValue,
      availability: v.availability,
      inventoryType: v.inventoryType,
      remainingUnits: v.remainingUnits,
      purchaseSchemaRevision: v.purchaseSchemaRevision,
    })),
  };
}

export function comparable(cached: CachedProduct | null): ComparableProduct | null {
  if (cached === null) return null;
  const { productRef, catalogRef, name, productType, brand, availability, description, imageUrl, revision, variants } = cached;
  return { productRef, catalogRef, name, productType, brand, availability, description, imageUrl, revision, variants };
}

/** The first run of two CJK characters in a name, for "a 2-character substring finds it". */
export function twoChineseCharacters(name: string): string | null {
  const match = /[\u4e00-\u9fff]{2}/u.exec(name);
  return match ? match[0] : null;
}
