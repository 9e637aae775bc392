// The sandbox implements docs/contract.md; the app's schemas are written from the same page. This
// checks the two agree over a whole seeded catalog (every product, variant and template).
import { describe, expect, it } from 'vitest';
import { seedCatalog } from '../../../src/sandbox/catalog/seed-catalog';
import { catalogItem, categoryToWire, productDetail, productSnapshot, templateToWire } from '../../../src/sandbox/domain/catalog-wire';
import { catalogItemSchema, categorySchema, productDetailSchema, productSnapshotSchema, purchaseTemplateSchema } from '../../../src/shared/merchant';

describe('sandbox wire output parses with the app schemas', () => {
  it('categories, catalog items, details, snapshots and templates', () => {
    const catalog = seedCatalog({ products: 300, seed: 7, nowSeconds: 1767225600 });
    for (const category of catalog.categories) expect(categorySchema.safeParse(categoryToWire(category, 1)).success).toBe(true);
    for (const product of catalog.products) {
      const detail = productDetailSchema.safeParse(productDetail(product));
      expect(detail.success, `detail ${product.productRef}: ${detail.error?.message ?? ''}`).toBe(true);
      expect(productSnapshotSchema.safeParse(productSnapshot(product)).success).toBe(true);
      expect(catalogItemSchema.safeParse(catalogItem(product, { state: 'unsubscribed', expiresAt: null })).success).toBe(true);
      for (const variant of product.variants) {
        const template = purchaseTemplateSchema.safeParse(templateToWire(product, variant));
        expect(template.success, `template ${product.productRef}/${variant.variantRef}: ${template.error?.message ?? ''}`).toBe(true);
      }
    }
  });
});
