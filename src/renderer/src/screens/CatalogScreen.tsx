// The catalog: categories beside a search box with filters, the sync bar, and the virtualized list.
import { Card, Typography } from 'antd';
import { CatalogFilters } from '../components/CatalogFilters';
import { CategoryTree } from '../components/CategoryTree';
import { ProductList } from '../components/ProductList';
import { SyncBar } from '../components/SyncBar';
import { useI18n } from '../i18n/use-i18n';
import { useOffline } from '../state/connection-state-store';

export function CatalogScreen() {
  const { t } = useI18n();
  const offline = useOffline();
  return (
    <div className="catalog-screen" data-testid="catalog-screen">
      <Card size="small" className="catalog-categories">
        <CategoryTree />
      </Card>
      <Card size="small" className="catalog-main">
        <CatalogFilters />
        <SyncBar />
        {offline ? (
          <Typography.Text type="warning" data-testid="catalog-offline">
            {t('catalog.offlineNote')}
          </Typography.Text>
        ) : null}
        <ProductList />
      </Card>
    </div>
  );
}
