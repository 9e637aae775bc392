// A product.changed webhook is a hint (interface v1 §6.4 rule 9: nothing is signed, so a callback alone does
// not prove the sender). Its snapshot is never stored: the product's detail is fetched with our key
// and applied through the same applyProductSnapshot as the catalog sync, so an authenticated answer
// always wins over anything a webhook said. Before that:
// - a revision further in the future than REVISION_SKEW_S is refused without a request (revisions are
//   Unix seconds, contract §4.1; a forged 9999999999 must not cost quota or be believed);
// - a revision not newer than the stored (authenticated) one needs no request: what we hold is as new.
// Templates are then fetched (GET /goods/tpl) where the one rule of catalog-repository.ts says so: a
// stored template whose purchaseSchemaRevision differs from the variant's, and a missing one only for
// a watched product or a variant ordered in the last 30 days (a product nobody wants gets none); one
// that cannot be fetched now is left to the next sync.
import type { ProductChangedEvent } from '../../shared/merchant/webhook-events';
import type { MerchantClient } from '../merchant/merchant-client';
import { MerchantApiError } from '../merchant/merchant-errors';
import type { ProductChanges } from './catalog-changes';
import type { CatalogRepository, TemplateNeed } from './catalog-repository';
import { MERCHANT_ERROR } from '../../shared/merchant-error-codes';

export type ProductChangeClient = Pick<MerchantClient, 'getProduct' | 'getTemplate'>;

/** How far ahead of our clock a webhook's revision may be (clock skew between merchant and us). */
const REVISION_SKEW_S = 300;

export type ProductChangeResult =
  | {
      readonly kind: 'applied';
      readonly productRef: number;
      /** The revision of the detail applied (the merchant's, not the webhook's). */
      readonly revision: number;
      /** The merchant's hints, raw (unknown values included), for the notification text. */
      readonly changedProperties: readonly string[];
      /** What actually changed in the cache: product availability, brand, and per-variant price/stock/availability. */
      readonly changes: ProductChanges;
      /** Always true: the detail was read with our key (kept for the outcome text). */
      readonly fetchedDetail: boolean;
      readonly templatesRefetched: readonly TemplateNeed[];
      /** Templates that could not be fetched now (the variant disappeared meanwhile). */
      readonly templatesMissing: readonly TemplateNeed[];
    }
  /** The stored authenticated copy is at least as new as the hint (or the detail lagged behind it). */
  | { readonly kind: 'stale'; readonly productRef: number; readonly revision: number; readonly storedRevision: number }
  /** The hint's revision lies in the future beyond the skew: not believed, nothing asked. */
  | { readonly kind: 'refused'; readonly productRef: number; readonly revision: number; readonly reason: string };

export async function applyProductChangedEvent(
  deps: { readonly repository: CatalogRepository; readonly client: ProductChangeClient; readonly nowSeconds?: () => number },
  event: ProductChangedEvent,
  signal?: AbortSignal,
): Promise<ProductChangeResult> {
  const { repository, client } = deps;
  const now = deps.nowSeconds?.() ?? repository.nowSeconds();
  const productRef = event.productRef;
  if (event.revision > now + REVISION_SKEW_S) {
    return { kind: 'refused', productRef, revision: event.revision, reason: `revision ${event.revision} is in the future (now ${now})` };
  }
  const stored = repository.storedRevision(productRef);
  if (stored !== null && stored >= event.revision) return { kind: 'stale', productRef, revision: event.revision, storedRevision: stored };

  const { data } = await client.getProduct(productRef, signal);
  const outcome = repository.applyProductSnapshot({ from: 'detail', detail: data });
  if (outcome.kind === 'stale') return outcome;
  if (outcome.kind === 'unknownProduct') throw new Error(`product ${productRef} is still unknown after fetching its detail`);

  const templatesRefetched: TemplateNeed[] = [];
  const templatesMissing: TemplateNeed[] = [];
  for (const need of outcome.templatesToFetch) {
    try {
      const { data: template } = await client.getTemplate(need.productRef, need.variantRef, signal);
      repository.upsertTemplate(template);
      templatesRefetched.push(need);
    } catch (error) {
      if (!(error instanceof MerchantApiError && error.code === MERCHANT_ERROR.RESOURCE_NOT_VISIBLE)) throw error;
      templatesMissing.push(need);
    }
  }
  return {
    kind: 'applied',
    productRef: outcome.productRef,
    revision: outcome.revision,
    changedProperties: event.changedProperties,
    changes: outcome.changes,
    fetchedDetail: true,
    templatesRefetched,
    templatesMissing,
  };
}
