// The one source of purchase templates for everything that orders (the order dialog, orders.place,
// the batch path, the CLI's `order create`, the outbox after 409101 and for needs_template intents).
// A cached template is trusted while it says the same purchaseSchemaRevision as the stored variant
// (its detail or its latest product.changed snapshot), or when it was fetched after that variant row
// was written (the merchant's later word; the row catches up at the next detail). Otherwise it is
// fetched as the buyer's request (the interactive client), stored, and answered. A variant the
// catalog does not hold gets its product's detail first; one the detail does not list is
// VariantNotFoundError. Concurrent asks for one template share one request (contract §7.10).
import type { Database } from 'better-sqlite3';
import { purchaseTemplateSchema, type PurchaseTemplate } from '../../shared/merchant/template';
import type { CatalogRepository } from '../catalog/catalog-repository';
import type { SecretAwareLogger } from '../logging/logger';
import type { MerchantClient } from '../merchant/merchant-client';
import { createKeyedSingleFlight } from '../platform/single-flight';
import { VariantNotFoundError } from './order-errors';

export interface TemplateSourceOptions {
  readonly db: Database;
  /** The buyer's (interactive) client: a template is fetched because someone is ordering now. */
  readonly client: Pick<MerchantClient, 'getProduct' | 'getTemplate'>;
  readonly catalog: Pick<CatalogRepository, 'applyProductSnapshot' | 'upsertTemplate'>;
  readonly logger: SecretAwareLogger;
}

export interface TemplateSource {
  /** The cached template when it is trusted (see above); null when it must be fetched first. No request. */
  trusted(productRef: number, variantRef: number): PurchaseTemplate | null;
  /** The trusted template, fetched (with the detail first when the variant is unknown) when there is none. */
  templateFor(productRef: number, variantRef: number, signal?: AbortSignal): Promise<PurchaseTemplate>;
  /** Fetched again whatever is cached (409101 PURCHASE_SCHEMA_CHANGED said the cached one is stale). */
  refetch(productRef: number, variantRef: number, signal?: AbortSignal): Promise<PurchaseTemplate>;
}

interface TrustRow {
  variant_revision: number;
  synced_at: number;
  template_json: string | null;
  template_revision: number | null;
  fetched_at: number | null;
}

/** Why a cached template is or is not used: kept apart so the rule can be read (and tested) alone. */
export function isTemplateTrusted(row: { variantRevision: number; variantSyncedAt: number; templateRevision: number; templateFetchedAt: number }): boolean {
  if (row.templateRevision === row.variantRevision) return true;
  // Fetched strictly after the variant row was written: the template is the newer word. A tie is
  // not trusted (a snapshot of the same second may carry the newer revision).
  return row.templateFetchedAt > row.variantSyncedAt;
}

export function createTemplateSource(options: TemplateSourceOptions): TemplateSource {
  const { db, client, catalog, logger } = options;
  const flights = createKeyedSingleFlight<string, PurchaseTemplate>();
  const trustRow = db.prepare<[number, number], TrustRow>(
    `SELECT v.purchase_schema_revision AS variant_revision, v.synced_at, t.template_json, t.purchase_schema_revision AS template_revision, t.fetched_at
     FROM variants v LEFT JOIN templates t ON t.product_ref = v.product_ref AND t.variant_ref = v.variant_ref
     WHERE v.product_ref = ? AND v.variant_ref = ?`,
  );
  const variantsOf = db.prepare<[number], { variant_ref: number; title: string }>('SELECT variant_ref, title FROM variants WHERE product_ref = ? ORDER BY position, variant_ref');

  const trusted = (productRef: number, variantRef: number): PurchaseTemplate | null => {
    const row = trustRow.get(productRef, variantRef);
    if (row === undefined || row.template_json === null || row.template_revision === null || row.fetched_at === null) return null;
    if (!isTemplateTrusted({ variantRevision: row.variant_revision, variantSyncedAt: row.synced_at, templateRevision: row.template_revision, templateFetchedAt: row.fetched_at })) return null;
    const parsed = purchaseTemplateSchema.safeParse(JSON.parse(row.template_json));
    return parsed.success ? parsed.data : null;
  };

  /** The variant must be known before its template is asked for: the detail says which variants exist. */
  const ensureVariant = async (productRef: number, variantRef: number, signal?: AbortSignal): Promise<void> => {
    if (trustRow.get(productRef, variantRef) !== undefined) return;
    const { data: detail } = await client.getProduct(productRef, signal);
    catalog.applyProductSnapshot({ from: 'detail', detail });
    if (trustRow.get(productRef, variantRef) !== undefined) return;
    throw new VariantNotFoundError(productRef, variantRef, variantsOf.all(productRef).map((v) => ({ variantRef: v.variant_ref, title: v.title })));
  };

  const fetchAndStore = async (productRef: number, variantRef: number, why: string, signal?: AbortSignal): Promise<PurchaseTemplate> => {
    await ensureVariant(productRef, variantRef, signal);
    const { data: template, requestId } = await client.getTemplate(productRef, variantRef, signal);
    if (template.productRef !== productRef || template.variantRef !== variantRef) {
      throw new Error(`the merchant answered the template of product ${template.productRef} variant ${template.variantRef} for ${productRef}/${variantRef}`);
    }
    catalog.upsertTemplate(template);
    logger.info('purchase template fetched', { productRef, variantRef, purchaseSchemaRevision: template.purchaseSchemaRevision, why, requestId });
    return template;
  };

  return {
    trusted,
    templateFor(productRef, variantRef, signal) {
      const cached = trusted(productRef, variantRef);
      if (cached !== null) return Promise.resolve(cached);
      return flights.run(`${productRef}:${variantRef}`, () => fetchAndStore(productRef, variantRef, 'not cached or stale', signal));
    },
    refetch(productRef, variantRef, signal) {
      // Its own key: a refetch must not be answered by an older fetch of the stale one still in flight.
      return flights.run(`refetch:${productRef}:${variantRef}`, () => fetchAndStore(productRef, variantRef, 'the merchant said the template changed', signal));
    },
  };
}
