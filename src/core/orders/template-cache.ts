// The cached purchase templates (0001 `templates`) as the orders module needs them: read one to
// validate an order offline, and store a fresh one after PURCHASE_SCHEMA_CHANGED. The catalog sync
// writes the same rows; both keep the template exactly as the merchant sent it (unknown fields too).
import type { Database } from 'better-sqlite3';
import { purchaseTemplateSchema, type PurchaseTemplate } from '../../shared/merchant/template';

interface TemplateRow {
  template_json: string;
}

/** The cached template, or null when none is stored (or what is stored no longer parses). */
export function readCachedTemplate(db: Database, productRef: number, variantRef: number): PurchaseTemplate | null {
  const row = db
    .prepare<[number, number], TemplateRow>('SELECT template_json FROM templates WHERE product_ref = ? AND variant_ref = ?')
    .get(productRef, variantRef);
  if (row === undefined) return null;
  const parsed = purchaseTemplateSchema.safeParse(JSON.parse(row.template_json));
  return parsed.success ? parsed.data : null;
}

/**
 * Stores a template fetched from the merchant. Its product must be cached already (foreign key):
 * an order is only ever placed for a product the catalog knows.
 */
export function storeTemplate(db: Database, template: PurchaseTemplate, fetchedAt: number): void {
  db.prepare(
    `INSERT INTO templates (product_ref, variant_ref, product_type, purchase_schema_revision, entry_mode, template_json, fetched_at)
     VALUES (@productRef, @variantRef, @productType, @revision, @entryMode, @json, @fetchedAt)
     ON CONFLICT (product_ref, variant_ref) DO UPDATE SET
       product_type = excluded.product_type,
       purchase_schema_revision = excluded.purchase_schema_revision,
       entry_mode = excluded.entry_mode,
       template_json = excluded.template_json,
       fetched_at = excluded.fetched_at`,
  ).run({
    productRef: template.productRef,
    variantRef: template.variantRef,
    productType: template.productType,
    revision: template.purchaseSchemaRevision,
    entryMode: template.entryMode,
    json: JSON.stringify(template),
    fetchedAt,
  });
}
