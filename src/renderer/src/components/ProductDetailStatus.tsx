// What the product drawer says about the product's detail (contract §11.2) above, or instead of, its
// variant table: loading it from the merchant, only the catalog list's data while the merchant cannot
// be reached (loaded again by itself once the connection state says it answers), a failed load with
// Try again, or a product the merchant no longer offers. A stored reading older than DETAIL_FRESH_FOR_S
// is read again on opening: meanwhile its figures show with their age (issue 24 point 6). Nothing when
// the detail is current.
import { Alert, Button, Spin, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useI18n } from '../i18n/use-i18n';
import { formatFen } from '../lib/money';
import { priceVaries } from '../lib/price-from';
import { useShownConnectionState } from '../state/connection-state-store';
import { DETAIL_FRESH_FOR_S, type DetailLoad, type ProductView } from '../../../shared/ipc/views/catalog';
import { ageSeconds, ageWords } from '../lib/reading-age';
import { useNowSeconds } from '../lib/use-now-seconds';
import { Untranslated } from './MerchantText';

export interface ProductDetailStatusProps {
  readonly product: ProductView;
  /** What catalog.openProduct did; null while it runs. */
  readonly detailLoad: DetailLoad | null;
  readonly requestId: string | null;
  readonly retrying: boolean;
  /** catalog.openProduct is under way (a first open or a new one): the merchant may be asked now. */
  readonly loading: boolean;
  readonly onRetry: () => void;
}

/** The list's facts for a product without a stored detail: its lowest price and variant count. */
function ListSummary({ product }: { product: ProductView }) {
  const { t, locale } = useI18n();
  const price = priceVaries(product) ? t('catalog.from', { price: formatFen(product.priceFromFen) }) : formatFen(product.priceFromFen);
  return (
    <Typography.Text type="secondary" lang={locale} data-testid="product-list-summary">
      {product.variantCount > 0
        ? t('browse.drawer.fromList', { price, variants: t('catalog.variants', { count: product.variantCount }) })
        : t('browse.drawer.fromListNoCount', { price })}
    </Typography.Text>
  );
}

/** The age of the stored reading, in words, when it is old enough to be read again (null otherwise). */
function useOldReading(product: ProductView): string | null {
  const { t } = useI18n();
  const hasReading = product.syncedAt !== null && product.detailState !== 'listOnly';
  const now = useNowSeconds(hasReading);
  if (!hasReading || product.syncedAt === null) return null;
  const old = product.detailState === 'stale' || ageSeconds(product.syncedAt, now) > DETAIL_FRESH_FOR_S;
  return old ? ageWords(t, product.syncedAt, now) : null;
}

export function ProductDetailStatus({ product, detailLoad, requestId, retrying, loading, onRetry }: ProductDetailStatusProps) {
  const { t } = useI18n();
  const oldReading = useOldReading(product);
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
  if (loading && !retrying && oldReading !== null) {
    return (
      <Alert
        type="info"
        data-testid="product-detail-loading"
        data-reading-age="shown"
        icon={<Spin size="small" />}
        showIcon
        title={t('fresh.product.refreshing', { age: oldReading })}
      />
    );
  }
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
        description={listOnly ? <ListSummary product={product} /> : oldReading !== null ? t('fresh.product.notRenewed', { age: oldReading }) : null}
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
