// One search over every merchant profile's catalog (contract §15.4 catalog.compare): each profile's
// own search (core/catalog/catalog-search.ts over its own cache and index, exactly as catalog.search)
// asked for its best hits, then merged so the merchants read side by side: the first hit of each
// merchant, then the second of each, …, the cheapest first among hits of the same rank. Each row
// names its merchant and the links its product's variants are in.
import type { CompareQuery, CompareResult, CompareRow } from '../../shared/ipc/views/compare';
import type { MerchantTag } from '../../shared/ipc/views/profiles';
import type { ProductSearchQuery, ProductSearchResult } from '../catalog/catalog-search';
import { toSearchResult } from './view-mapping';

export const DEFAULT_COMPARE_LIMIT = 20;

/** One profile's part: its tag, its search, and the links of its products. */
export interface CompareSource {
  readonly tag: MerchantTag;
  search(query: ProductSearchQuery): ProductSearchResult;
  linkIdsOf(productRefs: readonly number[]): ReadonlyMap<number, readonly number[]>;
}

export function searchAcross(sources: readonly CompareSource[], query: CompareQuery): CompareResult {
  const limit = query.limit ?? DEFAULT_COMPARE_LIMIT;
  const ranked: { rank: number; order: number; row: CompareRow }[] = [];
  const perMerchant: CompareResult['perMerchant'] = [];
  sources.forEach((source, order) => {
    const result = toSearchResult(source.search({ text: query.text, limit, ...(query.inStock === true ? { inStock: true } : {}) }));
    const links = source.linkIdsOf(result.items.map((item) => item.productRef));
    result.items.forEach((product, rank) => ranked.push({ rank, order, row: { merchant: source.tag, product, linkIds: [...(links.get(product.productRef) ?? [])] } }));
    perMerchant.push({ merchant: source.tag, total: result.total, totalIsLowerBound: result.totalIsLowerBound });
  });
  const price = (row: CompareRow): number => row.product.priceFromFen ?? Number.MAX_SAFE_INTEGER;
  ranked.sort((a, b) => a.rank - b.rank || price(a.row) - price(b.row) || a.order - b.order);
  return { rows: ranked.map((entry) => entry.row), perMerchant };
}
