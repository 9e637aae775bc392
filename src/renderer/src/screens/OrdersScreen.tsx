// Orders: the offline queue (intents still waiting to be sent or confirmed) on top, then every
// order with status filters (and, with several merchants, a merchant column and filter), its refunds
// beside its state (OrderRefundTags); a row opens its detail (core routes it to the merchant that owns it).
import { ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Select, Space, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { Fragment, useState } from 'react';
import { OrderCaseBadge } from '../components/OrderCaseBadge';
import { OrderRefundTags } from '../components/OrderRefundTags';
import { OrderStatusTag } from '../components/OrderStatusTag';
import { ProblemAlert } from '../components/ProblemAlert';
import { useI18n } from '../i18n/use-i18n';
import { explainError } from '../lib/explain-error';
import { formatSeconds } from '../lib/format-time';
import { formatFen } from '../lib/money';
import { missingNumber, missingNumberText } from '../lib/order-number';
import { INTENT_STATUSES, isQueued } from '../lib/order-status';
import { openableRow } from '../lib/openable-row';
import { testId } from '../lib/test-id';
import { useOrders, type OrderFilter } from '../queries/orders';
import { useUiStore } from '../state/ui-store';
import { ORDER_STATES } from '../../../shared/merchant/known-values';
import type { OrderRow } from '../../../shared/ipc/views/orders';
import { PickedOptionText } from '../components/EntryValueText';
import { Untranslated } from '../components/MerchantText';
import { MerchantFilterSelect, useMerchantColumn, useMerchantFilter } from '../components/MerchantColumn';

/** Variant · the options picked, by label · the typed account, masked (contract §7.11). */
function OrderRowSubtitle({ row }: { row: OrderRow }) {
  const parts = [
    ...(row.variantTitle !== null && row.variantTitle !== '' ? [<Untranslated key="variant">{row.variantTitle}</Untranslated>] : []),
    ...row.pickedOptions.map((picked) => <PickedOptionText key={`option-${picked.fieldRef}`} picked={picked} />),
    ...(row.rechargedAccountMasked !== null ? [<Untranslated key="account" kind="buyer">{row.rechargedAccountMasked}</Untranslated>] : []),
  ];
  return <>{parts.map((part, index) => (index === 0 ? part : <Fragment key={index}> · {part}</Fragment>))}</>;
}

function useColumns(merchants: boolean): TableColumnsType<OrderRow> {
  const { t, locale } = useI18n();
  const merchant = useMerchantColumn<OrderRow>(merchants);
  return [
    ...merchant,
    {
      title: t('orders.col.product'),
      key: 'product',
      render: (_, row) => (
        <Space orientation="vertical" size={0}>
          <Space size={6}>
            <Typography.Text strong>
              <Untranslated>{row.productName ?? `#${row.productRef}`}</Untranslated>
            </Typography.Text>
            <OrderCaseBadge clientOrderRef={row.clientOrderRef} />
          </Space>
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="order-row-subtitle">
            <OrderRowSubtitle row={row} />
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('detail.platformRef'),
      key: 'platformRef',
      width: 190,
      // The merchant's number is what the buyer and the merchant's support know the order by.
      render: (_, row) =>
        row.platformOrderRef !== null ? (
          <span data-testid="order-row-number" translate="no" data-untranslated="merchant">
            {row.platformOrderRef}
          </span>
        ) : (
          <Typography.Text type="secondary" data-testid="order-row-number" data-missing={missingNumber(row.intentStatus)}>
            {missingNumberText(t, row.intentStatus)}
          </Typography.Text>
        ),
    },
    { title: t('orders.col.units'), dataIndex: 'units', key: 'units', align: 'right', width: 70 },
    {
      title: t('orders.col.total'),
      key: 'total',
      align: 'right',
      width: 120,
      // Until the merchant answers: what the buyer confirmed (units × confirmed unit price).
      render: (_, row) => formatFen(row.totalFen ?? (row.confirmedUnitPriceFen === null ? null : row.confirmedUnitPriceFen * row.units)),
    },
    {
      title: t('orders.col.status'),
      key: 'status',
      width: 260,
      // The state and, beside it, what became of the money: a refund in progress, all or part of it back.
      render: (_, row) => (
        <Space size={[0, 4]} wrap>
          <OrderStatusTag intentStatus={row.intentStatus} state={row.state} />
          <OrderRefundTags order={row} testId="order-row-refund" />
        </Space>
      ),
    },
    { title: t('orders.col.created'), key: 'created', width: 180, className: 'time-cell', render: (_, row) => formatSeconds(row.createdAt, locale) },
  ];
}

export function OrdersScreen() {
  const { t, locale } = useI18n();
  const openOrder = useUiStore((state) => state.openOrder);
  const [filter, setFilter] = useState<OrderFilter>({});
  const merchants = useMerchantFilter();
  const orders = useOrders({ ...filter, ...merchants.input }, true);
  const all = useOrders({}, true);
  const columns = useColumns(merchants.shown);
  const queue = (all.data ?? []).filter((row) => isQueued(row.intentStatus));
  // A row opens its order with the mouse, Enter or Space; its name says which order (lib/openable-row.ts).
  const opens = (row: OrderRow) =>
    openableRow(() => openOrder(row.clientOrderRef), { label: t('a11y.openOrder', { product: row.productName ?? `#${row.productRef}`, time: formatSeconds(row.createdAt, locale) }), kind: 'row' });
  const onRow = (row: OrderRow) => ({ ...testId('order-row', { ref: row.clientOrderRef }), ...opens(row) });

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Card
        size="small"
        title={
          <Space>
            <span>{t('orders.queueTitle')}</span>
            <Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>
              {t('orders.queueHint')}
            </Typography.Text>
          </Space>
        }
        data-testid="offline-queue"
      >
        {queue.length === 0 ? (
          <Typography.Text type="secondary">{t('orders.queueEmpty')}</Typography.Text>
        ) : (
          <Table<OrderRow>
            size="small"
            rowKey="clientOrderRef"
            columns={columns}
            dataSource={queue}
            pagination={false}
            onRow={(row) => ({ ...testId('queue-row', { ref: row.clientOrderRef }), ...opens(row) })}
          />
        )}
      </Card>
      <Card
        title={t('orders.title')}
        extra={
          <Space wrap>
            <MerchantFilterSelect filter={merchants} testId="orders-filter-merchant" />
            <Select<string>
              data-testid="orders-filter-state"
              style={{ width: 180 }}
              value={filter.state ?? ''}
              onChange={(state) => setFilter((current) => ({ ...(current.intentStatus === undefined ? {} : { intentStatus: current.intentStatus }), ...(state === '' ? {} : { state }) }))}
              options={[{ value: '', label: t('join.labelValue', { label: t('orders.filterStatus'), value: t('orders.all') }) }, ...ORDER_STATES.map((value) => ({ value, label: t(`orderState.${value}`) }))]}
            />
            <Select<string>
              data-testid="orders-filter-intent"
              style={{ width: 200 }}
              value={filter.intentStatus ?? ''}
              onChange={(intentStatus) => setFilter((current) => ({ ...(current.state === undefined ? {} : { state: current.state }), ...(intentStatus === '' ? {} : { intentStatus }) }))}
              options={[{ value: '', label: t('join.labelValue', { label: t('orders.filterQueue'), value: t('orders.all') }) }, ...INTENT_STATUSES.map((value) => ({ value, label: t(`intent.${value}`) }))]}
            />
            <Button icon={<ReloadOutlined />} onClick={() => void orders.refetch()} data-testid="orders-refresh">
              {t('orders.refresh')}
            </Button>
          </Space>
        }
      >
        {orders.error !== null ? <ProblemAlert explained={explainError(orders.error)} /> : null}
        <Table<OrderRow>
          rowKey="clientOrderRef"
          loading={orders.isLoading}
          columns={columns}
          dataSource={orders.data ?? []}
          pagination={{ pageSize: 50, showSizeChanger: false, hideOnSinglePage: true }}
          locale={{ emptyText: <Empty description={t('orders.empty')} /> }}
          onRow={onRow}
          data-testid="orders-table"
        />
      </Card>
    </Space>
  );
}
