// A product: its variants (price, stock, availability), brand, price history of the chosen variant,
// the watch toggle, and a buy button per purchasable variant. Opening it loads the product's detail
// when only the catalog list's data (or an older revision) is stored (catalog.openProduct): the cached
// product shows at once, and the variant table waits for the detail (ProductDetailStatus says why).
import { EyeOutlined, ShoppingCartOutlined } from '@ant-design/icons';
import { Button, Descriptions, Drawer, Space, Switch, Table, Tag, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useCallback, useState } from 'react';
import { AvailabilityTag } from '../components/AvailabilityTag';
import { PriceHistoryChart } from '../components/PriceHistoryChart';
import { ProblemAlert } from '../components/ProblemAlert';
import { SupplyTag, supplyBlockedText } from '../components/SupplyTag';
import { useI18n } from '../i18n/use-i18n';
import { explainError } from '../lib/explain-error';
import { formatSeconds } from '../lib/format-time';
import { formatFen } from '../lib/money';
import { openableRow } from '../lib/openable-row';
import { testId } from '../lib/test-id';
import { useOpenProduct, usePriceHistory, useProduct, useSetWatched } from '../queries/catalog';
import { ProductDetailStatus } from '../components/ProductDetailStatus';
import { useUiStore } from '../state/ui-store';
import { BatchFromFileButton } from '../components/BatchFromFileButton';
import { OtherMerchantsButton } from '../components/OtherMerchantsButton';
import { classifyProductType } from '../../../shared/merchant/known-values';
import { canBuy, variantSupplyStatus } from '../../../shared/merchant/supply-status';
import type { ProductView } from '../../../shared/ipc/views/catalog';
import { Untranslated, WithMerchantData } from '../components/MerchantText';
import { useReturnFocus } from '../lib/use-return-focus';

type Variant = ProductView['variants'][number];

/** A variant's row: choosing it (click, Enter, Space) shows its price history; the chosen one is current. */
function variantRowProps(variant: Variant, current: boolean, choose: () => void, label: string) {
  return { ...testId('variant-row', { 'variant-ref': variant.variantRef }), ...openableRow(choose, { label, kind: 'row' }), 'aria-current': current ? ('true' as const) : undefined };
}

/** The product the drawer shows; closing it gives the focus back to the row it was opened from. */
function useOpenProductRef(): number | null {
  const productRef = useUiStore((state) => state.productRef);
  useReturnFocus(productRef !== null);
  return productRef;
}

export function ProductDrawer() {
  const { t, locale } = useI18n();
  const productRef = useOpenProductRef();
  const openProduct = useUiStore((state) => state.openProduct);
  const openOrderForm = useUiStore((state) => state.openOrderForm);
  const cached = useProduct(productRef);
  const opened = useOpenProduct(productRef);
  // The open's failure first (it is the buyer's request); the cache read fails only for an unknown product.
  const problem = opened.error ?? cached.error;
  const refetchOpened = opened.refetch;
  const retryOpen = useCallback(() => void refetchOpened(), [refetchOpened]);
  const setWatched = useSetWatched();
  // The variant picked is remembered with its product: the drawer can be closed by navigating away
  // (ui-store.ts), and the next product must not start on the last one's variant.
  const [picked, setPicked] = useState<{ readonly productRef: number; readonly variantRef: number } | null>(null);
  const setChosenVariant = (ref: number | null): void => setPicked(ref === null || productRef === null ? null : { productRef, variantRef: ref });
  const chosenVariant = picked !== null && picked.productRef === productRef ? picked.variantRef : null;
  const data = opened.data?.product ?? cached.data;
  // The variants are shown once the detail is stored (a stale one meanwhile); never an empty table.
  const showVariants = data !== undefined && data.detailState !== 'listOnly' && !data.removed;
  const variantRef = chosenVariant ?? data?.variants[0]?.variantRef ?? null;
  const history = usePriceHistory(data === undefined ? null : data.productRef, variantRef);
  const chosen = data?.variants.find((variant) => variant.variantRef === variantRef);

  const columns: TableColumnsType<Variant> = [
    { title: t('product.variant'), dataIndex: 'title', key: 'title', render: (title: string) => <Typography.Text strong>{title}</Typography.Text> },
    { title: t('product.price'), key: 'price', align: 'right', render: (_, variant) => <span data-testid="variant-price">{formatFen(variant.priceFen)}</span> },
    { title: t('product.faceValue'), key: 'face', align: 'right', render: (_, variant) => formatFen(variant.faceValueFen) },
    {
      title: t('product.supply'),
      key: 'supply',
      render: (_, variant) => (data === undefined ? null : <SupplyTag status={variantSupplyStatus(data.availability, variant)} />),
    },
    {
      title: '',
      key: 'buy',
      align: 'right',
      render: (_, variant) => {
        // One status decides: the product and the variant `available` and stock left when counted;
        // anything unknown is never purchasable. A pushed catalog change re-renders this.
        const status = data === undefined ? null : variantSupplyStatus(data.availability, variant);
        const purchasable = status !== null && canBuy(status);
        const reason = status === null ? null : supplyBlockedText(t, status);
        const button = (
          <Button
            type="primary"
            size="small"
            icon={<ShoppingCartOutlined />}
            disabled={!purchasable}
            data-testid="variant-buy"
            onClick={(event) => {
              event.stopPropagation();
              if (data !== undefined) openOrderForm({ kind: 'new', productRef: data.productRef, variantRef: variant.variantRef });
            }}
          >
            {t('product.buy')}
          </Button>
        );
        return purchasable ? (
          <Space size={4}>
            {data === undefined ? null : <BatchFromFileButton productRef={data.productRef} variantRef={variant.variantRef} />}
            {button}
          </Space>
        ) : (
          <Space size={4}>
            <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="variant-buy-reason">
              {reason ?? t('product.notPurchasable')}
            </Typography.Text>
            {data === undefined ? button : <OtherMerchantsButton productRef={data.productRef} variantRef={variant.variantRef} blocked={button} />}
          </Space>
        );
      },
    },
  ];

  const type = data === undefined ? null : classifyProductType(data.productType);

  return (
    <Drawer
      open={productRef !== null}
      size={760}
      title={data !== undefined ? <Untranslated>{data.name}</Untranslated> : t('common.loading')}
      onClose={() => {
        openProduct(null);
        setChosenVariant(null);
      }}
      destroyOnHidden
      data-testid="product-drawer"
      extra={
        data !== undefined ? (
          <Tooltip title={t('product.watchHint')}>
            <Space>
              <EyeOutlined />
              <span>{t('product.watch')}</span>
              <Switch
                data-testid="watch-toggle"
                checked={data.watched}
                loading={setWatched.isPending}
                onChange={(watched) => setWatched.mutate({ productRef: data.productRef, watched })}
              />
            </Space>
          </Tooltip>
        ) : null
      }
    >
      {problem !== null ? <ProblemAlert explained={explainError(problem)} /> : null}
      {setWatched.error !== null ? <ProblemAlert explained={explainError(setWatched.error)} /> : null}
      {data !== undefined ? (
        <Space orientation="vertical" size="large" style={{ width: '100%' }}>
          <ProductDetailStatus
            product={data}
            detailLoad={opened.data?.detailLoad ?? null}
            requestId={opened.data?.requestId ?? null}
            retrying={opened.isFetching && opened.data?.detailLoad === 'failed'}
            loading={opened.isFetching}
            onRetry={retryOpen}
          />
          <Descriptions column={2} size="small">
            <Descriptions.Item label={t('product.brand')}>
              <span data-testid="product-brand">{data.brand !== null ? <Untranslated>{data.brand.name}</Untranslated> : t('product.noBrand')}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('product.type')}>
              <Tag>{type === null ? '' : type.kind === 'known' ? t(`productType.${type.value}`) : <WithMerchantData text={t('common.unknownValue', { raw: type.raw })} data={[type.raw]} />}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('product.availability')}>
              <AvailabilityTag availability={data.availability} />
            </Descriptions.Item>
            <Descriptions.Item label={t('product.updatedLabel')}>{formatSeconds(data.syncedAt, locale)}</Descriptions.Item>
            {data.description !== null ? (
              <Descriptions.Item label={t('product.description')} span={2}>
                <Untranslated>{data.description}</Untranslated>
              </Descriptions.Item>
            ) : null}
          </Descriptions>
          {showVariants ? (
            <>
              <div>
                <Typography.Title level={5}>{t('product.variants')}</Typography.Title>
                <Table<Variant>
                  size="small"
                  rowKey="variantRef"
                  columns={columns}
                  dataSource={data.variants}
                  pagination={false}
                  rowClassName={(variant) => (variant.variantRef === variantRef ? 'variant-row-chosen' : '')}
                  onRow={(variant) => variantRowProps(variant, variant.variantRef === variantRef, () => setChosenVariant(variant.variantRef), t('a11y.chooseVariant', { variant: variant.title }))}
                />
              </div>
              <div>
                <Typography.Title level={5}>{chosen !== undefined ? <WithMerchantData text={t('product.priceHistoryFor', { variant: chosen.title })} data={[chosen.title]} /> : t('product.priceHistory')}</Typography.Title>
                {history.error !== null ? <ProblemAlert explained={explainError(history.error)} /> : <PriceHistoryChart points={history.data ?? []} />}
              </div>
            </>
          ) : null}
        </Space>
      ) : null}
    </Drawer>
  );
}
