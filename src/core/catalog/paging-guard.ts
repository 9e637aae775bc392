// Checks a paged listing (interface v1 §2.3 list payload) as it is read, so that a careless or hostile merchant
// cannot make the catalog sync loop forever or leave an inconsistent cache: the total must
// not change while we page, no item may appear on two pages, every page before the last must be full,
// and the page size is the one the merchant answers with (a merchant that ignores `pageSize` is paged
// by its own size, never by ours). Any anomaly is a CatalogPagingError: the sync stops with a clear
// message, marks nothing removed, and lists from page 1 again next time.

export class CatalogPagingError extends Error {
  override readonly name = 'CatalogPagingError';
}

export interface ListPage<T> {
  readonly list: readonly T[];
  readonly total: number;
  readonly pageSize: number;
}

/** Most pages a listing may take: the spec's maximum total at the smallest page a merchant may choose. */
const MAX_PAGES = 100_000;

export interface PagingGuard<T> {
  /** Reads the first page fetched: the page size and count every later page is held to. */
  begin(page: number, data: ListPage<T>): { pageSize: number; pageCount: number };
  /** Checks one later page (and the first one's items); throws CatalogPagingError on an anomaly. */
  check(page: number, data: ListPage<T>): void;
  /** After the last page: every item listed once and as many as `total` said (when paged from page 1). */
  finish(fromFirstPage: boolean): void;
}

export function createPagingGuard<T>(what: string, requestedSize: number, keyOf: (item: T) => number): PagingGuard<T> {
  let total = -1;
  let pageSize = requestedSize;
  let pageCount = 0;
  const seenOn = new Map<number, number>();

  const fail = (message: string): never => {
    throw new CatalogPagingError(`the merchant's ${what} listing is inconsistent: ${message}; nothing was marked removed, the next sync lists it again from page 1`);
  };

  const guard: PagingGuard<T> = {
    begin(page, data) {
      total = data.total;
      // The merchant's own page size when it ignored ours (interface v1 §2.3 says what it used).
      pageSize = data.pageSize;
      if (pageSize > 100 || data.list.length > pageSize) fail(`page ${page} holds ${data.list.length} items for a page size of ${data.pageSize}`);
      pageCount = Math.max(page, Math.ceil(total / pageSize));
      if (pageCount > MAX_PAGES) fail(`a total of ${total} in pages of ${pageSize} is more than ${MAX_PAGES} pages`);
      guard.check(page, data);
      return { pageSize, pageCount };
    },
    check(page, data) {
      if (data.total !== total) fail(`the total changed from ${total} to ${data.total} while it was paged (at page ${page})`);
      if (data.pageSize !== pageSize) fail(`page ${page} says page size ${data.pageSize}, page 1 said ${pageSize}`);
      if (data.list.length > pageSize) fail(`page ${page} holds ${data.list.length} items for a page size of ${pageSize}`);
      if (page < pageCount && data.list.length < pageSize) fail(`page ${page} of ${pageCount} holds ${data.list.length} items, not ${pageSize}`);
      for (const item of data.list) {
        const key = keyOf(item);
        const earlier = seenOn.get(key);
        if (earlier !== undefined) fail(`item ${key} is listed on page ${earlier} and again on page ${page}`);
        seenOn.set(key, page);
      }
    },
    finish(fromFirstPage) {
      if (fromFirstPage && seenOn.size !== total) fail(`${seenOn.size} distinct items were listed where the total said ${total}`);
    },
  };
  return guard;
}
