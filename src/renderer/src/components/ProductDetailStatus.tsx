// What the product drawer says about the product's detail (contract §11.2) above, or instead of, its
// variant table: loading it from the merchant, only the catalog list's data while the merchant cannot
// be reached (loaded again by itself once the connection state says it answers), a failed load with
// Try again, or a product the merchant no longer offers. Nothing when the detail is current.
import { Alert, Button, Spin, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useI18n } from '../i18n/use-i18n';
import { formatFen } from '../lib/money';
import { useShownConnectionState } from '../state/connection-state-store';
import type { DetailLoad, ProductView } from '../../../shared/ipc/views/catalog';
import { Untranslated } from './MerchantText';

export interface ProductDetailStatusProps {
  readonly product: ProductView;
  /** What catalog.openProduct did; null while it runs. */
  readonly detailLoad: DetailLoad | null;
  readonly requestId: string | null;
  readonly retrying: boolean;
  readonly onRetry: () => void;
}

/** The list's facts for a product without a stored detail: its lowest price and variant count. */
function ListSummary({ product }: { product: ProductView }) {
  const { t, locale } = useI18n();
  const price = t('catalog.from', { price: formatFen(product.priceFromFen) });
  return (
    <Typography.Text type="secondary" lang={locale} data-testid="product-list-summary">
      {product.variantCount > 0
        ? t('browse.drawer.fromList', { price, variants: t('catalog.variants', { count: product.variantCount }) })
        : t('browse.drawer.fromListNoCount', { price })}
    </Typography.Text>
  );
}

export function ProductDetailStatus({ product, detailLoad, requestId, retrying, onRetry }: ProductDetailStatusProps) {
  const { t } = useI18n();
  const connection = useShownConnectionState();
  const merchantAnswers = connection === 'online' || connection === 'degraded';
  // Reached again: load the detail the buyer is looking at, without a click. Only on the change to
  // "answers": a merchant that answers but failed this GET (degraded) is not asked again in a loop.
  const answeredBefore = useRef(merchantAnswers);
  useEffect(() => {
    const cameBack = merchantAnswers && !answeredBefore.current;
    answeredBefore.current = merchantAnswers;
    if (cameBack && detailLoad === 'merchantUnreachable') onRetry();
  }, [merchantAnswers, detailLoad, onRetry]);

  if (product.removed || detailLoad === 'removed') {
    return <Alert type="error" showIcon data-testid="product-removed" title={t('browse.drawer.removed')} />;
  }
  const listOnly = product.detailState === 'listOnly';
  if (detailLoad === null && product.detailState !== 'stored') {
    return (
      <Alert
        type="info"
        data-testid="product-detail-loading"
        icon={<Spin size="small" />}
        showIcon
        title={t('browse.drawer.loading')}
        description={listOnly ? <ListSummary product={product} /> : null}
      />
    );
  }
  if (detailLoad === 'merchantUnreachable') {
    return (
      <Alert
        type="warning"
        showIcon
        data-testid="product-detail-unreachable"
        title={listOnly ? t('browse.drawer.unreachable') : t('browse.drawer.unreachableStale')}
        description={listOnly ? <ListSummary product={product} /> : null}
      />
    );
  }
  if (detailLoad === 'failed') {
    return (
      <Alert
        type="warning"
        showIcon
        data-testid="product-detail-failed"
        title={t('browse.drawer.failed')}
        description={
          <>
            {listOnly ? <ListSummary product={product} /> : null}
            {requestId !== null ? (
              <div>
                {t('common.requestId', { id: '' })}
                <Untranslated>{requestId}</Untranslated>
              </div>
            ) : null}
          </>
        }
        action={
          <Button size="small" loading={retrying} onClick={onRetry} data-testid="product-detail-retry">
            {t('browse.drawer.retry')}
          </Button>
        }
      />
    );
  }
  return null;
}
