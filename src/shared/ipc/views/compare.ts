// Comparing merchants and falling back between them (issue 17, contract §15.4): search over every
// profile's catalog side by side, the buyer's links between one merchant's variant and its
// counterparts at the others, the fallback rule a link may carry, and the offers an order dialog
// shows when its merchant cannot supply or asks more than the buyer's limit.
import { z } from 'zod';
import { productHitSchema } from './catalog';
import { merchantTagSchema, profileIdSchema } from './profiles';
import { fen } from './view-fields';

/** One merchant's variant: the unit a link joins and a fallback orders. */
export const variantKeySchema = z.strictObject({ profileId: profileIdSchema, productRef: z.number().int().positive(), variantRef: z.number().int().nonnegative() });
export type VariantKey = z.infer<typeof variantKeySchema>;

export const compareQuerySchema = z.strictObject({
  text: z.string().min(1).max(200),
  /** Hits per merchant; default 20. */
  limit: z.number().int().min(1).max(50).optional(),
  inStock: z.boolean().optional(),
});
export type CompareQuery = z.infer<typeof compareQuerySchema>;

export const compareRowSchema = z.object({
  merchant: merchantTagSchema,
  product: productHitSchema,
  /** The links any of this product's variants belong to. */
  linkIds: z.array(z.number().int().positive()),
});
export type CompareRow = z.infer<typeof compareRowSchema>;

export const compareResultSchema = z.object({
  /** Every merchant's hits, cheapest first among equally relevant ones; the merchant on each row. */
  rows: z.array(compareRowSchema),
  perMerchant: z.array(z.object({ merchant: merchantTagSchema, total: z.number().int().nonnegative(), totalIsLowerBound: z.boolean() })),
});
export type CompareResult = z.infer<typeof compareResultSchema>;

/** A link's member as the cache knows it now (prices and stock from the merchant's last answer). */
export const linkMemberSchema = z.object({
  merchant: merchantTagSchema,
  productRef: z.number().int(),
  variantRef: z.number().int(),
  productName: z.string().nullable(),
  variantTitle: z.string().nullable(),
  /** null: the cache has no price for it (not synced, or gone). */
  unitPriceFen: fen.nullable(),
  /** The one supply status (shared/merchant/supply-status.ts): available, outOfStock, unavailable, unknown. */
  supply: z.enum(['available', 'outOfStock', 'unavailable', 'unknown']),
  remainingUnits: z.number().int().nullable(),
});
export type LinkMember = z.infer<typeof linkMemberSchema>;

/**
 * The buyer's standing answer for a link: when the merchant ordered from cannot supply or asks more
 * than `maxUnitPriceFen`, order from the first merchant of `preference` that can supply at or below
 * it, without asking again. Only with a rule does a fallback happen unasked (the batch, the CLI).
 */
export const fallbackRuleSchema = z.strictObject({
  maxUnitPriceFen: z.number().int().positive().max(100_000_000),
  preference: z.array(profileIdSchema).min(1).max(20),
});
export type FallbackRule = z.infer<typeof fallbackRuleSchema>;

export const linkViewSchema = z.object({ linkId: z.number().int().positive(), members: z.array(linkMemberSchema), rule: fallbackRuleSchema.nullable() });
export type LinkView = z.infer<typeof linkViewSchema>;

export const linkInputSchema = z.strictObject({ a: variantKeySchema, b: variantKeySchema });
export const unlinkInputSchema = z.strictObject({ key: variantKeySchema });
export const setRuleInputSchema = z.strictObject({ linkId: z.number().int().positive(), rule: fallbackRuleSchema.nullable() });
export const linkForInputSchema = z.strictObject({ key: variantKeySchema });

export const offersInputSchema = z.strictObject({ key: variantKeySchema, units: z.number().int().positive().max(100_000) });

/** Why the dialog offers other merchants: the one chosen cannot supply, or asks above the rule's limit. */
export const OFFER_REASONS = ['outOfStock', 'unavailable', 'aboveLimit', 'notEnoughStock'] as const;

export const offerSchema = linkMemberSchema.extend({
  /** Within the link's rule limit (null: the link has no rule). */
  withinLimit: z.boolean().nullable(),
  /** Can supply the units asked, as far as the cache knows. */
  canSupply: z.boolean(),
});
export type Offer = z.infer<typeof offerSchema>;

export const offersSchema = z.object({
  current: offerSchema,
  /** null when the current merchant can supply within the limit (nothing to offer). */
  reason: z.enum(OFFER_REASONS).nullable(),
  /** The other members of its link, in the rule's preference, then cheapest first. */
  alternatives: z.array(offerSchema),
  link: linkViewSchema.nullable(),
  /** The member the rule would order from unasked (batch, CLI), or null. */
  ruleChoice: variantKeySchema.nullable(),
});
export type Offers = z.infer<typeof offersSchema>;
