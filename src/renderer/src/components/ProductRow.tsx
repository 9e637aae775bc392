// One row of the catalog list. Fixed height (the list is virtualized); memoized so scrolling only
// renders rows that enter the window.
import { Skeleton, Tag, Typography } from 'antd';
import { memo } from 'react';
import { useI18n } from '../i18n/use-i18n';
import { formatFen } from '../lib/money';
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
  // Listed but its detail (variants, stock) not stored yet, as during a first sync: not "0 variants,
  // out of stock", which would be untrue.
  const detailPending = hit.variantCount === 0;
  return (
    <div
      className="product-row"
      role="button"
      tabIndex={0}
      data-testid="catalog-row"
      data-product-ref={hit.productRef}
      onClick={() => onOpen(hit.productRef)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') onOpen(hit.productRef);
      }}
    >
      <div className="product-row-main">
        <Typography.Text strong ellipsis className="product-row-name" data-testid="catalog-row-name">
          <Untranslated>{hit.name}</Untranslated>
        </Typography.Text>
        <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }}>
          {hit.brandName !== null ? <Untranslated>{hit.brandName}</Untranslated> : t('product.noBrand')} · {detailPending ? t('catalog.detailPendingNote') : t('catalog.variants', { count: hit.variantCount })}
        </Typography.Text>
      </div>
      <div className="product-row-tags">
        <Tag>{type.kind === 'known' ? t(`productType.${type.value}`) : <WithMerchantData text={t('common.unknownValue', { raw: type.raw })} data={[type.raw]} />}</Tag>
        {detailPending ? (
          <Tag data-testid="catalog-row-detail-pending">{t('catalog.detailPending')}</Tag>
        ) : (
          <SupplyTag status={productSupplyStatus(hit.availability, hit.inStock)} />
        )}
      </div>
      <div className="product-row-price" lang={locale} data-testid="catalog-row-price" data-price-fen={hit.priceFromFen ?? ''}>
        {hit.priceFromFen === null ? '—' : t('catalog.from', { price: formatFen(hit.priceFromFen) })}
      </div>
    </div>
  );
}

export const ProductRow = memo(ProductRowView);
