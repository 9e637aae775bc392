// One row of the catalog list. Fixed height (the list is virtualized); memoized so scrolling only
// renders rows that enter the window.
import { Skeleton, Tag, Tooltip, Typography } from 'antd';
import { memo } from 'react';
import { useI18n } from '../i18n/use-i18n';
import { formatFen } from '../lib/money';
import { openableRow } from '../lib/openable-row';
import { priceVaries } from '../lib/price-from';
import { classifyProductType } from '../../../shared/merchant/known-values';
import type { ProductHit } from '../../../shared/ipc/views/catalog';
import { productSupplyStatus } from '../../../shared/merchant/supply-status';
import { SupplyTag } from './SupplyTag';
import { Untranslated, WithMerchantData } from './MerchantText';

export const ROW_HEIGHT = 64;

function ProductRowView({ hit, onOpen }: { hit: ProductHit | undefined; onOpen: (productRef: number) => void }) {
  const { t, locale } = useI18n();
  if (hit === undefined) {
    return (
      <div className="product-row product-row-loading" data-testid="catalog-row-loading">
        <Skeleton.Input active size="small" style={{ width: 260 }} />
      </div>
    );
  }
  const type = classifyProductType(hit.productType);
  // Known only from the catalog list, as during a first sync (contract §11.1): its price and variant
  // count are the list's, its stock is not known. An available one says so instead of claiming a
  // supply status; one the list says is unavailable is unavailable whatever its stock.
  const listOnly = hit.detailState === 'listOnly';
  const variants = listOnly && hit.variantCount === 0 ? null : t('catalog.variants', { count: hit.variantCount });
  const price = hit.priceFromFen === null ? '—' : priceVaries(hit) ? t('catalog.from', { price: formatFen(hit.priceFromFen) }) : formatFen(hit.priceFromFen);
  const opens = openableRow(() => onOpen(hit.productRef), { label: t('a11y.openProduct', { name: hit.name, price }), kind: 'button', popup: 'dialog' });
  return (
    <div {...opens} className={`product-row ${opens.className}`} data-testid="catalog-row" data-product-ref={hit.productRef} data-detail-state={hit.detailState}>
      <div className="product-row-main">
        <Typography.Text strong ellipsis className="product-row-name" data-testid="catalog-row-name">
          <Untranslated>{hit.name}</Untranslated>
        </Typography.Text>
        <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }}>
          {hit.brandName !== null ? <Untranslated>{hit.brandName}</Untranslated> : t('product.noBrand')}
          {variants === null ? null : ` · ${variants}`}
          {listOnly ? <span data-testid="catalog-row-list-note"> · {t('browse.row.listNote')}</span> : null}
        </Typography.Text>
      </div>
      <div className="product-row-tags">
        <Tag>{type.kind === 'known' ? t(`productType.${type.value}`) : <WithMerchantData text={t('common.unknownValue', { raw: type.raw })} data={[type.raw]} />}</Tag>
        {listOnly && hit.availability === 'available' ? (
          <Tooltip title={t('browse.row.stockUnknownHint')}>
            <Tag color="processing" data-testid="catalog-row-stock-unknown">
              {t('browse.row.stockUnknown')}
            </Tag>
          </Tooltip>
        ) : (
          <SupplyTag status={productSupplyStatus(hit.availability, hit.inStock)} />
        )}
      </div>
      <div className="product-row-price" lang={locale} data-testid="catalog-row-price" data-price-fen={hit.priceFromFen ?? ''}>
        {price}
      </div>
    </div>
  );
}

export const ProductRow = memo(ProductRowView);
