// Applies a parsed product.changed event as spec 6.3 says, through the same applyProductSnapshot as
// the sync: the whole snapshot is used (the hints do not say which variant changed), the variant
// list is replaced whole, `brand: null` clears the brand, a stale snapshot changes nothing, and the
// template is fetched again (GET /goods/tpl) for every variant whose purchaseSchemaRevision differs
// from the stored template. A template that cannot be fetched now is left to the next sync, which
// asks for every variant whose template is missing or outdated.
import type { ProductChangedEvent } from '../../../shared/merchant/webhook-events';
import type { MerchantClient } from '../merchant/merchant-client';
import { MerchantApiError } from '../merchant/merchant-errors';
import type { ProductChanges } from './catalog-changes';
import type { CatalogRepository, TemplateNeed } from './catalog-repository';

export type ProductChangeClient = Pick<MerchantClient, 'getProduct' | 'getTemplate'>;

export type ProductChangeResult =
  | {
      readonly kind: 'applied';
      readonly productRef: number;
      readonly revision: number;
      /** The merchant's hints, raw (unknown values included), for the notification text. */
      readonly changedProperties: readonly string[];
      /** What actually changed in the cache: product availability, brand, and per-variant price/stock/availability. */
      readonly changes: ProductChanges;
      /** The product was not cached: its detail was fetched (the snapshot lacks name and type). */
      readonly fetchedDetail: boolean;
      readonly templatesRefetched: readonly TemplateNeed[];
      /** Templates that could not be fetched now (the variant disappeared meanwhile). */
      readonly templatesMissing: readonly TemplateNeed[];
    }
  | { readonly kind: 'stale'; readonly productRef: number; readonly revision: number; readonly storedRevision: number };

const NOT_VISIBLE = 404001;

export async function applyProductChangedEvent(
  deps: { readonly repository: CatalogRepository; readonly client: ProductChangeClient },
  event: ProductChangedEvent,
  signal?: AbortSignal,
): Promise<ProductChangeResult> {
  const { repository, client } = deps;
  let outcome = repository.applyProductSnapshot({ from: 'event', snapshot: event.productSnapshot });
  let fetchedDetail = false;
  if (outcome.kind === 'unknownProduct') {
    // The detail is a superset of the snapshot and at least as new.
    const { data } = await client.getProduct(event.productRef, signal);
    outcome = repository.applyProductSnapshot({ from: 'detail', detail: data });
    fetchedDetail = true;
  }
  if (outcome.kind === 'stale') return outcome;
  if (outcome.kind === 'unknownProduct') throw new Error(`product ${event.productRef} is still unknown after fetching its detail`);

  const templatesRefetched: TemplateNeed[] = [];
  const templatesMissing: TemplateNeed[] = [];
  for (const need of outcome.templatesToFetch) {
    try {
      const { data } = await client.getTemplate(need.productRef, need.variantRef, signal);
      repository.upsertTemplate(data);
      templatesRefetched.push(need);
    } catch (error) {
      if (!(error instanceof MerchantApiError && error.code === NOT_VISIBLE)) throw error;
      templatesMissing.push(need);
    }
  }
  return {
    kind: 'applied',
    productRef: outcome.productRef,
    revision: outcome.revision,
    changedProperties: event.changedProperties,
    changes: outcome.changes,
    fetchedDetail,
    templatesRefetched,
    templatesMissing,
  };
}
