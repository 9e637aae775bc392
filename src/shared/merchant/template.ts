// `GET /goods/tpl`: the purchase template (contract §5).
import { z } from 'zod';
import { enumText, integerRef } from './wire-primitives';

export const selectOptionSchema = z.looseObject({
  value: z.string(),
  label: z.string(),
});

export const purchaseFieldSchema = z
  .looseObject({
    fieldRef: z.string().min(1),
    label: z.string(),
    /** see classifyPurchaseFieldType */
    type: enumText,
    required: z.boolean(),
    pattern: z.string().nullable(),
    minLength: z.int().nonnegative().nullable(),
    maxLength: z.int().nonnegative().nullable(),
    options: z.array(selectOptionSchema).nullable(),
    placeholder: z.string().nullable(),
    /** The value is a secret or an account identifier: never logged (interface v1 §5). */
    sensitive: z.boolean(),
  })
  .superRefine((field, ctx) => {
    if (field.minLength !== null && field.maxLength !== null && field.minLength > field.maxLength) {
      ctx.addIssue({ code: 'custom', path: ['maxLength'], message: 'maxLength is below minLength' });
    }
  });
export type PurchaseField = z.infer<typeof purchaseFieldSchema>;

/** `units` is valid when min <= units <= max and (units - min) % step == 0. */
export const unitRuleSchema = z
  .looseObject({
    min: z.int().positive(),
    max: z.int().positive(),
    step: z.int().positive(),
  })
  .superRefine((rule, ctx) => {
    if (rule.min > rule.max) ctx.addIssue({ code: 'custom', path: ['max'], message: 'unitRule.max is below unitRule.min' });
  });
export type UnitRule = z.infer<typeof unitRuleSchema>;

export const purchaseTemplateSchema = z
  .looseObject({
    productRef: integerRef,
    variantRef: integerRef,
    /** see classifyProductType */
    productType: enumText,
    /** Sent back unchanged when ordering a top-up (409101 otherwise). */
    purchaseSchemaRevision: z.int(),
    /** see classifyEntryMode */
    entryMode: enumText,
    purchaseFields: z.array(purchaseFieldSchema),
    unitRule: unitRuleSchema,
  })
  .superRefine((template, ctx) => {
    // Entry groups are keyed by fieldRef, so two fields with one key would be ambiguous.
    const seen = new Set<string>();
    template.purchaseFields.forEach((field, index) => {
      if (seen.has(field.fieldRef)) ctx.addIssue({ code: 'custom', path: ['purchaseFields', index, 'fieldRef'], message: `duplicate fieldRef ${field.fieldRef}` });
      seen.add(field.fieldRef);
    });
  });
export type PurchaseTemplate = z.infer<typeof purchaseTemplateSchema>;
