// When a sync fetches the categories again (issue 15; docs/contract.md "What a sync asks for"). They
// change rarely, and a second sync of an unchanged catalog should send only its list pages, so they are
// asked for only when
// - none are stored (a first sync),
// - a listed product names a catalogRef not stored (the merchant added a category), or
// - the stored ones are older than a day (a renamed or re-sorted category shows within a day).
// The list phase asks before paging (the stored products' catalogRefs stand for the list) and again
// after it (the catalogRefs this run's pages named: a product may have moved into a new category).

export const CATEGORY_MAX_AGE_S = 24 * 3600;

export interface CategoryFacts {
  /** Categories stored. */
  readonly stored: number;
  /** Unix seconds of the oldest stored category's fetch; null when none are stored. */
  readonly oldestSyncedAt: number | null;
  /** Distinct catalogRefs of listed (not removed) products with no stored category. */
  readonly unknownListedRefs: number;
}

export function categoriesDue(facts: CategoryFacts, nowSeconds: number): boolean {
  if (facts.stored === 0 || facts.oldestSyncedAt === null) return true;
  if (facts.unknownListedRefs > 0) return true;
  return nowSeconds - facts.oldestSyncedAt > CATEGORY_MAX_AGE_S;
}
