// One order: its facts, status, last problem explained, the timeline, the actions its
// allowedActions permits, and its masked card codes with a way to the vault.
import { Button, Descriptions, Drawer, Space, Typography } from 'antd';
import { OrderActions } from '../components/OrderActions';
import { OrderCaseActions } from '../components/OrderCaseActions';
import { OrderStatusTag } from '../components/OrderStatusTag';
import { OrderTimeline } from '../components/OrderTimeline';
import { ProblemAlert } from '../components/ProblemAlert';
import { useI18n } from '../i18n/use-i18n';
import { explainError, problemOfLastErrorCode } from '../lib/explain-error';
import { formatFen } from '../lib/money';
import { useOrder } from '../queries/orders';
import { useUiStore } from '../state/ui-store';

export function OrderDetailDrawer() {
  const { t } = useI18n();
  const orderRef = useUiStore((state) => state.orderRef);
  const openOrder = useUiStore((state) => state.openOrder);
  const openVault = useUiStore((state) => state.openVault);
  const order = useOrder(orderRef);
  const data = order.data;
  const lastProblem = data === undefined ? null : problemOfLastErrorCode(data.lastErrorCode);
  return (
    <Drawer
      open={orderRef !== null}
      size={640}
      onClose={() => openOrder(null)}
      title={t('detail.title', { ref: data?.platformOrderRef ?? orderRef ?? '' })}
      data-testid="order-detail"
      destroyOnHidden
    >
      {order.error !== null ? <ProblemAlert explained={explainError(order.error)} /> : null}
      {data !== undefined ? (
        <Space orientation="vertical" size="large" style={{ width: '100%' }}>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('detail.status')}>
              <OrderStatusTag intentStatus={data.intentStatus} state={data.state} />
            </Descriptions.Item>
            <Descriptions.Item label={t('detail.product')}>{`${data.productName ?? `#${data.productRef}`}${data.variantTitle !== null ? ` · ${data.variantTitle}` : ''}`}</Descriptions.Item>
            <Descriptions.Item label={t('detail.units')}>{data.units}</Descriptions.Item>
            <Descriptions.Item label={t('detail.unitPrice')}>{formatFen(data.unitPriceFen)}</Descriptions.Item>
            <Descriptions.Item label={t('detail.total')}>{formatFen(data.totalFen)}</Descriptions.Item>
            {data.refundedFen !== null && data.refundedFen > 0 ? <Descriptions.Item label={t('detail.refunded')}>{formatFen(data.refundedFen)}</Descriptions.Item> : null}
            <Descriptions.Item label={t('detail.platformRef')}>{data.platformOrderRef ?? '—'}</Descriptions.Item>
            <Descriptions.Item label={t('detail.clientRef')}>
              <Typography.Text copyable data-testid="detail-client-ref">{data.clientOrderRef}</Typography.Text>
            </Descriptions.Item>
            {data.failureReason !== null ? <Descriptions.Item label={t('detail.failureReason')}>{data.failureReason}</Descriptions.Item> : null}
          </Descriptions>
          {lastProblem !== null && data.intentStatus !== 'accepted' ? (
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
          <OrderActions order={data} />
          <OrderCaseActions order={data} />
          {data.cards.length > 0 ? (
            <div>
              <Typography.Title level={5}>{t('detail.cards')}</Typography.Title>
              <Space orientation="vertical" style={{ width: '100%' }}>
                {data.cards.map((card) => (
                  <Typography.Text key={card.seq} code data-testid="detail-card-masked">
                    {card.cardNoMasked}
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
    </Drawer>
  );
}
