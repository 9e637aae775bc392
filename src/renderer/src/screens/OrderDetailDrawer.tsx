// One order, named by the merchant's order number: its facts (price and total from the merchant once
// it answered, from what the buyer confirmed until then), the accounts recharged, its status and last
// problem, what the price guard parked it for, its refunds (in progress from the click, then the money
// back), the actions from a fresh status (opening it asks the merchant), its masked card codes, and the
// timeline of the states it passed through.
import { Alert, Button, Descriptions, Drawer, Space, Spin, Typography } from 'antd';
import { useEffect } from 'react';
import { AccessParkPanel, isAccessPark } from '../components/AccessParkPanel';
import { EntryGroupText } from '../components/EntryValueText';
import { OrderActions } from '../components/OrderActions';
import { OrderCaseActions } from '../components/OrderCaseActions';
import { OrderRefundList } from '../components/OrderRefundList';
import { OrderRefundTags } from '../components/OrderRefundTags';
import { OrderStatusTag } from '../components/OrderStatusTag';
import { OrderTimeline } from '../components/OrderTimeline';
import { ParkedOffersOfOrder } from '../components/ParkedOffers';
import { PriceChangedPanel } from '../components/PriceChangedPanel';
import { TemplateWaitPanel } from '../components/TemplateWaitPanel';
import { ServerFailingPanel } from '../components/ServerFailingPanel';
import { ProblemAlert } from '../components/ProblemAlert';
import { UnavailablePanel } from '../components/UnavailablePanel';
import { WithdrawOutcome } from '../components/WithdrawControl';
import { useI18n } from '../i18n/use-i18n';
import { explainError, problemOfLastErrorCode } from '../lib/explain-error';
import { formatSeconds } from '../lib/format-time';
import { formatFen } from '../lib/money';
import { useOrder, useRefreshOrder, useRefundBeingSent } from '../queries/orders';
import { useUiStore } from '../state/ui-store';
import type { OrderDetail } from '../../../shared/ipc/views/orders';
import { MerchantSaid, Untranslated, WithMerchantData } from '../components/MerchantText';

/** The order's name for the buyer: the merchant's number, or the product until the merchant gave one. */
export function orderTitle(t: ReturnType<typeof useI18n>['t'], order: OrderDetail): string {
  if (order.platformOrderRef !== null) return t('detail.title', { ref: order.platformOrderRef });
  return t('detail.titlePending', { product: order.productName ?? `#${order.productRef}` });
}

function RechargedEntries({ order }: { order: OrderDetail }) {
  if (order.rechargedEntries === null || order.rechargedEntries.length === 0) return null;
  return (
    <ol className="confirm-entries" data-testid="detail-recharged">
      {order.rechargedEntries.map((group, index) => (
        <li key={index}>
          <EntryGroupText group={group} />
        </li>
      ))}
    </ol>
  );
}

export function OrderDetailDrawer() {
  const orderRef = useUiStore((state) => state.orderRef);
  const openOrder = useUiStore((state) => state.openOrder);
  const order = useOrder(orderRef);
  const { t } = useI18n();
  return (
    <Drawer
      open={orderRef !== null}
      size={640}
      onClose={() => openOrder(null)}
      title={order.data === undefined ? '' : <WithMerchantData text={orderTitle(t, order.data)} data={[order.data.platformOrderRef, order.data.productName]} />}
      data-testid="order-detail"
      destroyOnHidden
    >
      {orderRef !== null ? <OrderDetailBody key={orderRef} orderRef={orderRef} /> : null}
    </Drawer>
  );
}

function OrderDetailBody({ orderRef }: { orderRef: string }) {
  const { t, locale } = useI18n();
  const openVault = useUiStore((state) => state.openVault);
  const order = useOrder(orderRef);
  const refresh = useRefreshOrder();
  const sending = useRefundBeingSent(orderRef);
  const data = order.data;
  const held = data !== undefined && data.state !== null;

  // Opening an order the merchant holds asks it for the status now: actions come from that answer.
  const refreshOrder = refresh.mutate;
  useEffect(() => {
    if (held) refreshOrder(orderRef);
  }, [orderRef, held, refreshOrder]);

  const lastProblem = data === undefined ? null : problemOfLastErrorCode(data.lastErrorCode);
  const fresh = !held || refresh.isSuccess || refresh.isError;
  const unitPrice = data?.unitPriceFen ?? data?.confirmedUnitPriceFen ?? null;
  const total = data?.totalFen ?? data?.confirmedTotalFen ?? null;
  const fromIntent = data !== undefined && data.totalFen === null;
  const chargedMore =
    data !== undefined && data.unitPriceFen !== null && data.confirmedUnitPriceFen !== null && data.unitPriceFen > data.confirmedUnitPriceFen;
  return (
    <>
      {order.error !== null ? <ProblemAlert explained={explainError(order.error)} /> : null}
      {data !== undefined ? (
        <Space orientation="vertical" size="large" style={{ width: '100%' }}>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('detail.status')}>
              <Space>
                <OrderStatusTag intentStatus={data.intentStatus} state={data.state} />
                <OrderRefundTags order={data} sending={sending} testId="detail-refund" />
                {refresh.isPending ? (
                  <Typography.Text type="secondary" data-testid="detail-refreshing">
                    <Spin size="small" /> {t('detail.refreshing')}
                  </Typography.Text>
                ) : null}
                {refresh.isError ? (
                  <Typography.Text type="warning" data-testid="detail-refresh-failed">
                    {t('detail.refreshFailed', { time: formatSeconds(data.updatedAt, locale) })}
                  </Typography.Text>
                ) : null}
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label={t('detail.platformRef')}>
              <span data-testid="detail-platform-ref">{data.platformOrderRef !== null ? <Untranslated>{data.platformOrderRef}</Untranslated> : t('detail.notNumbered')}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('detail.product')}>
              <Untranslated>{`${data.productName ?? `#${data.productRef}`}${data.variantTitle !== null ? ` · ${data.variantTitle}` : ''}`}</Untranslated>
            </Descriptions.Item>
            <Descriptions.Item label={t('detail.units')}>
              <span data-testid="detail-units">{data.units}</span>
            </Descriptions.Item>
            <Descriptions.Item label={fromIntent ? t('detail.unitPriceConfirmed') : t('detail.unitPrice')}>
              <span data-testid="detail-unit-price">{formatFen(unitPrice)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={fromIntent ? t('detail.totalConfirmed') : t('detail.totalCharged')}>
              <span data-testid="detail-total">{formatFen(total)}</span>
            </Descriptions.Item>
            {data.refundedFen !== null && data.refundedFen > 0 ? (
              <Descriptions.Item label={t('detail.refunded')}>
                <span data-testid="detail-refunded">{formatFen(data.refundedFen)}</span>
              </Descriptions.Item>
            ) : null}
            {data.refunds.length > 0 ? (
              <Descriptions.Item label={t('refund.list.title')}>
                <OrderRefundList refunds={data.refunds} />
              </Descriptions.Item>
            ) : null}
            {data.rechargedEntries !== null && data.rechargedEntries.length > 0 ? (
              <Descriptions.Item label={t('detail.recharged')}>
                <RechargedEntries order={data} />
              </Descriptions.Item>
            ) : null}
            {data.failureReason !== null ? <Descriptions.Item label={t('detail.failureReason')}>
                <MerchantSaid text={data.failureReason} />
              </Descriptions.Item> : null}
            <Descriptions.Item label={t('detail.clientRef')}>
              <Typography.Text copyable type="secondary" data-testid="detail-client-ref">
                <Untranslated kind="reference">{data.clientOrderRef}</Untranslated>
              </Typography.Text>
            </Descriptions.Item>
            {data.requestIds.length > 0 ? (
              <Descriptions.Item label={t('detail.requestIds')}>
                <Space orientation="vertical" size={0} data-testid="detail-request-ids">
                  {data.requestIds.map((id) => (
                    <Typography.Text key={id} copyable type="secondary" code>
                      <Untranslated>{id}</Untranslated>
                    </Typography.Text>
                  ))}
                </Space>
              </Descriptions.Item>
            ) : null}
          </Descriptions>
          {chargedMore ? (
            <Alert
              type="error"
              showIcon
              data-testid="detail-charged-more"
              title={t('detail.chargedMore', { charged: formatFen(data.unitPriceFen), confirmed: formatFen(data.confirmedUnitPriceFen) })}
            />
          ) : null}
          <WithdrawOutcome clientOrderRef={data.clientOrderRef} />
          <ParkedOffersOfOrder order={data} />
          {data.intentStatus === 'price_changed' && data.state === null ? <PriceChangedPanel order={data} /> : null}
          {data.intentStatus === 'unavailable' && data.state === null ? <UnavailablePanel order={data} /> : null}
          {isAccessPark(data.intentStatus) && data.state === null ? <AccessParkPanel order={data} status={data.intentStatus} /> : null}
          {data.state === null ? <TemplateWaitPanel order={data} /> : null}
          <ServerFailingPanel order={data} listIds={false} />
          {lastProblem !== null && data.intentStatus !== 'accepted' && data.intentStatus !== 'withdrawn' && data.intentStatus !== 'merchant_failing' && !isAccessPark(data.intentStatus) ? (
            <ProblemAlert
              explained={{
                problem: lastProblem,
                merchantCode: data.lastErrorCode !== null && /^\d+$/.test(data.lastErrorCode) ? Number(data.lastErrorCode) : null,
                requestId: data.lastRequestId,
                detail: data.lastErrorMessage ?? '',
                fields: [],
              }}
            />
          ) : null}
          <OrderActions order={data} fresh={fresh} />
          <OrderCaseActions order={data} />
          {data.cards.length > 0 ? (
            <div>
              <Typography.Title level={5}>{t('detail.cards')}</Typography.Title>
              <Space orientation="vertical" style={{ width: '100%' }}>
                {data.cards.map((card) => (
                  <Typography.Text key={card.seq} code data-testid="detail-card-masked">
                    <Untranslated>{card.cardNoMasked}</Untranslated>
                  </Typography.Text>
                ))}
                <Button type="primary" data-testid="detail-open-vault" onClick={() => openVault(data.clientOrderRef)}>
                  {t('detail.openVault')}
                </Button>
              </Space>
            </div>
          ) : null}
          <div>
            <Typography.Title level={5}>{t('detail.timeline')}</Typography.Title>
            <OrderTimeline order={data} />
          </div>
        </Space>
      ) : null}
    </>
  );
}
