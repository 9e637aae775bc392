// Categories, catalog items, product detail and the product snapshot (interface v1 §2.4, contract §2-4).
// Product detail is a superset of the snapshot so that one piece of code applies both (contract §4).
import { z } from 'zod';
import { listPayloadSchema } from './envelope';
import { enumText, integerRef, nonNegativeYuanAsFen, unixSeconds } from './wire-primitives';

export const categorySchema = z.looseObject({
  catalogRef: integerRef,
  name: z.string(),
  parentRef: integerRef.nullable(),
  sort: z.int(),
  productCount: z.int().nonnegative(),
});
export type Category = z.infer<typeof categorySchema>;
export const categoryListSchema = listPayloadSchema(categorySchema);
export type CategoryList = z.infer<typeof categoryListSchema>;

/** interface v1 §2.4 brand: every field required when the brand is present. */
export const brandSchema = z.looseObject({
  brandRef: integerRef,
  name: z.string(),
  imageUrl: z.string().nullable(),
});
export type Brand = z.infer<typeof brandSchema>;

const variantShape = {
  variantRef: integerRef,
  title: z.string(),
  price: nonNegativeYuanAsFen,
  /** see classifyAvailability */
  availability: enumText,
  /** see classifyInventoryType */
  inventoryType: enumText,
  remainingUnits: z.int().nonnegative().nullable(),
  purchaseSchemaRevision: z.int(),
};

/**
 * interface v1 §2.4: a number of units when tracked, null for the two other known types. An unknown type is
 * let through as received; it is shown as unknown, not interpreted.
 */
function checkRemainingUnits(v: { inventoryType: string; remainingUnits: number | null }, ctx: z.RefinementCtx): void {
  if (v.inventoryType === 'tracked' && v.remainingUnits === null) {
    ctx.addIssue({ code: 'custom', path: ['remainingUnits'], message: 'remainingUnits is required when inventoryType is tracked' });
  }
  if ((v.inventoryType === 'unlimited' || v.inventoryType === 'undisclosed') && v.remainingUnits !== null) {
    ctx.addIssue({ code: 'custom', path: ['remainingUnits'], message: `remainingUnits must be null when inventoryType is ${v.inventoryType}` });
  }
}

/** interface v1 §2.4 productSnapshot.variants[]: all fields required. `price` holds fen after parsing. */
export const variantSchema = z.looseObject(variantShape).superRefine(checkRemainingUnits);
export type Variant = z.infer<typeof variantSchema>;

const snapshotShape = {
  productRef: integerRef,
  catalogRef: integerRef,
  /** Optional in interface v1 §2.4: absent means "not said", null means "no brand" (it clears it, 6.3). */
  brand: brandSchema.nullable().optional(),
  /** see classifyAvailability */
  availability: enumText,
  revision: unixSeconds,
  /** The complete variant list, at least one; it replaces the stored one whole (6.3). */
  variants: z.array(variantSchema).min(1),
};

/** interface v1 §2.4 productSnapshot. */
export const productSnapshotSchema = z.looseObject(snapshotShape);
export type ProductSnapshot = z.infer<typeof productSnapshotSchema>;

/** contract §4: a detail variant is a snapshot variant plus its nominal value (fen or null). */
export const detailVariantSchema = z
  .looseObject({ ...variantShape, faceValue: nonNegativeYuanAsFen.nullable() })
  .superRefine(checkRemainingUnits);

/** `GET /goods/{productRef}` (contract §4). */
export const productDetailSchema = z.looseObject({
  ...snapshotShape,
  name: z.string(),
  /** see classifyProductType */
  productType: enumText,
  description: z.string(),
  imageUrl: z.string().nullable(),
  variants: z.array(detailVariantSchema).min(1),
});
export type ProductDetail = z.infer<typeof productDetailSchema>;

/** `GET /goods/catalog` items (contract §3). `priceFrom` holds fen after parsing. */
export const catalogItemSchema = z.looseObject({
  productRef: integerRef,
  catalogRef: integerRef,
  name: z.string(),
  productType: enumText,
  brand: brandSchema.nullable(),
  availability: enumText,
  priceFrom: nonNegativeYuanAsFen,
  variantCount: z.int().nonnegative(),
  revision: unixSeconds,
  /** see classifySubscriptionState */
  subscriptionState: enumText,
  subscriptionExpiresAt: unixSeconds.nullable(),
});
export type CatalogItem = z.infer<typeof catalogItemSchema>;
export const catalogPageSchema = listPayloadSchema(catalogItemSchema);
export type CatalogPage = z.infer<typeof catalogPageSchema>;

