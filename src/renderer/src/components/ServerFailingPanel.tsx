// An order the merchant answered HTTP 500 too often (contract §7.12): how often, the merchant's request
// IDs to give its support, and the buyer's two answers: retry (looked up by its ref first, never charged
// twice) or withdraw. Nothing more is sent for it until one of them.
import { Alert, Button, Space, Typography } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { explainError } from '../lib/explain-error';
import { useRetryFailingOrder } from '../queries/orders';
import type { OrderDetail } from '../../../shared/ipc/views/orders';
import { Untranslated } from './MerchantText';
import { ProblemAlert } from './ProblemAlert';
import { WithdrawControl } from './WithdrawControl';

/** `listIds` false where the screen lists the order's request IDs already (the detail's facts). */
export function ServerFailingPanel({ order, listIds = true }: { order: OrderDetail; listIds?: boolean }) {
  const { t } = useI18n();
  const retry = useRetryFailingOrder(order.clientOrderRef);
  if (order.intentStatus !== 'merchant_failing' || order.state !== null) return null;
  return (
    <Alert
      type="error"
      showIcon
      data-testid="order-server-failing"
      title={t('intent.merchant_failing')}
      description={
        <Space orientation="vertical" style={{ width: '100%' }}>
          <span data-testid="server-failing-body">{t('serverFailing.body', { count: order.serverFailures })}</span>
          {listIds && order.requestIds.length > 0 ? (
            <div>
              <div>{t('serverFailing.requestIds')}</div>
              <Space orientation="vertical" size={0} data-testid="server-failing-request-ids">
                {order.requestIds.map((id) => (
                  <Typography.Text key={id} copyable code>
                    <Untranslated>{id}</Untranslated>
                  </Typography.Text>
                ))}
              </Space>
            </div>
          ) : null}
          <Space wrap>
            <Button type="primary" data-testid="action-retry-failing" loading={retry.isPending} onClick={() => retry.mutate()}>
              {t('serverFailing.retry')}
            </Button>
            <WithdrawControl order={order} />
          </Space>
          {retry.error !== null ? <ProblemAlert explained={explainError(retry.error)} testId="retry-failing-error" /> : null}
        </Space>
      }
    />
  );
}
