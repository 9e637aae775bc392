// The catalog list's data: pages of api.catalog.search fetched by offset as rows scroll into view,
// so a 100,000-product result costs only the pages the buyer looks at. Pages are cached per
// (query, offset); scrolling back is instant and a pushed catalog change refreshes them.
import { useQueries, useQuery, keepPreviousData } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from '../bridge';
import type { ProductHit, SearchQuery } from '../../../shared/ipc/views/catalog';
import { keys } from './keys';

export const PAGE_SIZE = 200;

export interface CatalogPages {
  /** Rows the list shows (for a lower-bound total, grows as full pages come back). */
  readonly count: number;
  readonly total: number;
  readonly totalIsLowerBound: boolean;
  readonly firstPageLoading: boolean;
  /** The rows shown answer the current query (false while the previous query's rows stand in). */
  readonly fresh: boolean;
  readonly error: unknown;
  rowAt: (index: number) => ProductHit | undefined;
}

function fetchPage(base: SearchQuery, offset: number) {
  return api.catalog.search({ ...base, offset, limit: PAGE_SIZE });
}

/** `base` without offset/limit; [firstIndex, lastIndex] is the visible range of rows. */
export function useCatalogPages(base: SearchQuery, firstIndex: number, lastIndex: number, enabled: boolean): CatalogPages {
  const first = useQuery({
    queryKey: keys.searchPage({ ...base, offset: 0, limit: PAGE_SIZE }),
    queryFn: () => fetchPage(base, 0),
    enabled,
    placeholderData: keepPreviousData,
  });
  const pageIndexes = useMemo(() => {
    const from = Math.max(0, Math.floor(firstIndex / PAGE_SIZE));
    const to = Math.max(from, Math.floor(Math.max(0, lastIndex) / PAGE_SIZE));
    const list: number[] = [];
    for (let page = from; page <= to; page += 1) if (page !== 0) list.push(page);
    return list;
  }, [firstIndex, lastIndex]);
  const pages = useQueries({
    queries: pageIndexes.map((page) => ({
      queryKey: keys.searchPage({ ...base, offset: page * PAGE_SIZE, limit: PAGE_SIZE }),
      queryFn: () => fetchPage(base, page * PAGE_SIZE),
      enabled: enabled && first.data !== undefined,
      staleTime: 60_000,
    })),
  });
  const firstData = first.data;
  const byPage = new Map<number, readonly ProductHit[]>();
  if (firstData !== undefined) byPage.set(0, firstData.items);
  let grownCount = 0;
  pageIndexes.forEach((page, index) => {
    const data = pages[index]?.data;
    if (data === undefined) return;
    byPage.set(page, data.items);
    if (data.totalIsLowerBound && data.items.length === PAGE_SIZE) grownCount = Math.max(grownCount, (page + 2) * PAGE_SIZE);
  });
  const total = firstData?.total ?? 0;
  const lowerBound = firstData?.totalIsLowerBound ?? false;
  // A lower-bound total ("10,000+") may hide more rows: one more page of room while pages are full.
  const count = lowerBound ? Math.max(total, grownCount, firstData !== undefined && firstData.items.length === PAGE_SIZE ? Math.min(total, PAGE_SIZE * 2) : 0) : total;
  return {
    count,
    total,
    totalIsLowerBound: lowerBound,
    firstPageLoading: first.isLoading,
    fresh: first.data !== undefined && !first.isPlaceholderData,
    error: first.error,
    rowAt: (index) => byPage.get(Math.floor(index / PAGE_SIZE))?.[index % PAGE_SIZE],
  };
}
