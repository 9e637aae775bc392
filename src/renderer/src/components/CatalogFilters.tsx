// Search as you type (debounced: the box answers every keystroke, the query waits for a pause),
// availability, in stock, price range in yuan, sorting.
import { SearchOutlined } from '@ant-design/icons';
import { Button, Checkbox, Input, InputNumber, Select, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useI18n } from '../i18n/use-i18n';
import { AVAILABILITIES } from '../../../shared/merchant/known-values';
import { useUiStore, type SortKey } from '../state/ui-store';

const SEARCH_DEBOUNCE_MS = 150;
const SORTS: readonly SortKey[] = ['relevance', 'priceAsc', 'priceDesc', 'nameAsc', 'recentlyChanged'];

/** Yuan typed in a price box → fen, rounding away anything below a fen. */
function yuanToFen(value: number | null): number | null {
  return value === null || !Number.isFinite(value) || value < 0 ? null : Math.round(value * 100);
}

export function CatalogFilters() {
  const { t } = useI18n();
  const filters = useUiStore((state) => state.filters);
  const setFilters = useUiStore((state) => state.setFilters);
  const resetFilters = useUiStore((state) => state.resetFilters);
  const [text, setText] = useState(filters.text);

  useEffect(() => {
    if (text === useUiStore.getState().filters.text) return undefined;
    const timer = setTimeout(() => setFilters({ text }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, setFilters]);

  const filtered = filters.availability !== null || filters.inStock || filters.minPriceFen !== null || filters.maxPriceFen !== null || filters.catalogRef !== null;

  return (
    <div className="catalog-filters">
      <Input
        data-testid="catalog-search"
        allowClear
        size="large"
        prefix={<SearchOutlined />}
        placeholder={t('catalog.search')}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <Space wrap size="small" style={{ marginTop: 12 }}>
        <Select<string>
          data-testid="filter-availability"
          style={{ width: 150 }}
          value={filters.availability ?? ''}
          onChange={(value) => setFilters({ availability: value === '' ? null : value })}
          options={[{ value: '', label: t('catalog.availabilityAny') }, ...AVAILABILITIES.map((value) => ({ value, label: t(`availability.${value}`) }))]}
        />
        <Checkbox data-testid="filter-in-stock" checked={filters.inStock} onChange={(event) => setFilters({ inStock: event.target.checked })}>
          {t('catalog.inStockOnly')}
        </Checkbox>
        <InputNumber<number>
          data-testid="filter-price-min"
          min={0}
          step={1}
          precision={2}
          style={{ width: 110 }}
          placeholder={t('catalog.priceMin')}
          value={filters.minPriceFen === null ? null : filters.minPriceFen / 100}
          onChange={(value) => setFilters({ minPriceFen: yuanToFen(value) })}
        />
        <InputNumber<number>
          data-testid="filter-price-max"
          min={0}
          step={1}
          precision={2}
          style={{ width: 110 }}
          placeholder={t('catalog.priceMax')}
          value={filters.maxPriceFen === null ? null : filters.maxPriceFen / 100}
          onChange={(value) => setFilters({ maxPriceFen: yuanToFen(value) })}
        />
        <Select<SortKey>
          data-testid="catalog-sort"
          style={{ width: 170 }}
          value={filters.sort}
          onChange={(sort) => setFilters({ sort })}
          options={SORTS.map((value) => ({ value, label: t(`catalog.sort.${value}`) }))}
        />
        {filtered ? (
          <Button type="link" onClick={resetFilters}>
            {t('catalog.clearFilters')}
          </Button>
        ) : null}
      </Space>
    </div>
  );
}
