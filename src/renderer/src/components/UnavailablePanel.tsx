// An order the price guard parked because the merchant cannot supply it now (the product or variant
// became unavailable, it is gone, or the published stock is below the units): why, and the ways on —
// send it anyway once the buyer has looked (the guard checks again before sending) or withdraw.
import { Alert, Button, Space } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { explainError } from '../lib/explain-error';
import { useConfirmOrder } from '../queries/orders';
import type { OrderDetail } from '../../../shared/ipc/views/orders';
import { ProblemAlert } from './ProblemAlert';
import { WithdrawControl } from './WithdrawControl';

const REASONS = new Set(['productUnavailable', 'variantUnavailable', 'variantGone', 'outOfStock']);

export function UnavailablePanel({ order }: { order: OrderDetail }) {
  const { t, td } = useI18n();
  const confirm = useConfirmOrder();
  const reason = order.unavailableReason !== null && REASONS.has(order.unavailableReason) ? order.unavailableReason : 'other';
  const price = order.confirmedUnitPriceFen;
  const entries = order.rechargedEntries?.map((group) => Object.fromEntries(group.map((entry) => [entry.fieldRef, entry.value])));
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="order-unavailable"
      data-reason={reason}
      title={td(`unavailable.${reason}`, 'unavailable.other')}
      description={
        <Space orientation="vertical" style={{ width: '100%' }}>
          <span>{t('unavailable.body')}</span>
          {confirm.error !== null ? <ProblemAlert explained={explainError(confirm.error)} /> : null}
          <Space wrap>
            {price !== null ? (
              <Button
                data-testid="order-unavailable-retry"
                loading={confirm.isPending}
                onClick={() => confirm.mutate({ clientOrderRef: order.clientOrderRef, units: order.units, unitPriceFen: price, ...(entries === undefined ? {} : { purchaseEntries: entries }) })}
              >
                {t('unavailable.retry')}
              </Button>
            ) : null}
            <WithdrawControl order={order} />
          </Space>
        </Space>
      }
    />
  );
}
