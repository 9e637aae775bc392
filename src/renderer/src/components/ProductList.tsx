// The catalog as a virtualized list: only the rows in view (plus a margin) exist in the DOM, and
// only their pages are fetched, so 100,000 products scroll like 100.
import { useVirtualizer } from '@tanstack/react-virtual';
import { Empty, Spin, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useI18n } from '../i18n/use-i18n';
import { explainError } from '../lib/explain-error';
import { PAGE_SIZE, useCatalogPages } from '../queries/catalog-pages';
import { useSyncStatus } from '../queries/catalog';
import { useUiStore, type CatalogFilters } from '../state/ui-store';
import type { SearchQuery } from '../../../shared/ipc/views/catalog';
import { priceRangeProblem } from '../../../shared/price-range';
import { ProblemAlert } from './ProblemAlert';
import { ProductRow, ROW_HEIGHT } from './ProductRow';

function toQuery(filters: CatalogFilters): SearchQuery {
  const query: SearchQuery = { sort: filters.sort };
  const text = filters.text.trim();
  if (text !== '') query.text = text.slice(0, 200);
  if (filters.catalogRef !== null) query.catalogRef = filters.catalogRef;
  if (filters.availability !== null) query.availability = filters.availability;
  if (filters.inStock) query.inStock = true;
  if (filters.minPriceFen !== null) query.minPriceFen = filters.minPriceFen;
  if (filters.maxPriceFen !== null) query.maxPriceFen = filters.maxPriceFen;
  return query;
}

export function ProductList() {
  const { t } = useI18n();
  const filters = useUiStore((state) => state.filters);
  const openProduct = useUiStore((state) => state.openProduct);
  const query = useMemo(() => toQuery(filters), [filters]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const [range, setRange] = useState({ start: 0, end: 40 });
  // An inverted price range is not asked (core would refuse it): the filter form names the mistake.
  const inverted = priceRangeProblem(query.minPriceFen, query.maxPriceFen) !== null;
  const pages = useCatalogPages(query, range.start, range.end, !inverted);
  const syncStatus = useSyncStatus(true);

  const virtualizer = useVirtualizer({
    count: pages.count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    onChange: (instance) => {
      const visible = instance.range;
      if (visible === null) return;
      const start = visible.startIndex;
      const end = visible.endIndex;
      // Re-render the data hook only when the visible rows cross into another page.
      setRange((previous) =>
        Math.floor(previous.start / PAGE_SIZE) === Math.floor(start / PAGE_SIZE) && Math.floor(previous.end / PAGE_SIZE) === Math.floor(end / PAGE_SIZE) ? previous : { start, end },
      );
    },
  });

  // A new search starts at its first row.
  useEffect(() => {
    if (scrollRef.current !== null) scrollRef.current.scrollTop = 0;
    setRange({ start: 0, end: 40 });
  }, [query]);

  const onOpen = useCallback((productRef: number) => openProduct(productRef), [openProduct]);
  const items = virtualizer.getVirtualItems();

  const header = (
    // data-query/data-fresh say which search the rows answer: tests and the UI bench wait on them.
    <Typography.Text type="secondary" data-testid="catalog-count" data-query={query.text ?? ''} data-fresh={pages.fresh ? 'true' : 'false'}>
      {inverted ? null : pages.totalIsLowerBound ? t('catalog.resultsAtLeast', { count: pages.total }) : t('catalog.results', { count: pages.total })}
    </Typography.Text>
  );

  let body;
  if (inverted) {
    body = (
      <div className="catalog-empty" data-testid="catalog-price-inverted">
        <Empty description={t('catalog.priceRangeInverted')} />
      </div>
    );
  } else if (pages.error !== null && pages.count === 0) {
    body = <ProblemAlert explained={explainError(pages.error)} />;
  } else if (pages.firstPageLoading) {
    body = (
      <div className="catalog-empty">
        <Spin />
      </div>
    );
  } else if (pages.count === 0) {
    const neverSynced = syncStatus.data !== undefined && syncStatus.data.lastSyncedAt === null;
    // A first sync under way is not "never synced": products appear as its pages arrive.
    const firstSyncRunning = neverSynced && syncStatus.data?.running === true;
    body = (
      <div className="catalog-empty" data-testid="catalog-empty">
        <Empty description={firstSyncRunning ? t('sync.firstInProgressEmpty') : neverSynced ? t('catalog.emptyNeverSynced') : t('catalog.empty')} />
      </div>
    );
  } else {
    body = null;
  }

  return (
    <div className="product-list">
      <div className="product-list-header">{header}</div>
      {body}
      <div ref={scrollRef} className="product-list-scroll" data-testid="catalog-list" style={{ display: body === null ? 'block' : 'none' }}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
          {items.map((item) => (
            <div key={item.key} data-index={item.index} style={{ position: 'absolute', top: 0, left: 0, width: '100%', height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}>
              <ProductRow hit={pages.rowAt(item.index)} onOpen={onOpen} />
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
