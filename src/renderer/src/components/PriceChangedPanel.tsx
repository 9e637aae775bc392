// An order the price guard parked before sending: the price the buyer confirmed beside the price the
// merchant asks now, and the two ways on — pay the new price (a new confirmation, same order
// reference) or withdraw. Nothing was sent or charged while it waits here.
import { Alert, Button, Descriptions, Space } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { explainError } from '../lib/explain-error';
import { formatFen } from '../lib/money';
import { useConfirmOrder } from '../queries/orders';
import type { OrderDetail } from '../../../shared/ipc/views/orders';
import { ProblemAlert } from './ProblemAlert';
import { WithdrawControl } from './WithdrawControl';

/** The stored entries as the place call had them, to re-confirm the same content at the new price. */
function entriesOf(order: OrderDetail): Record<string, string>[] | undefined {
  if (order.rechargedEntries === null) return undefined;
  return order.rechargedEntries.map((group) => Object.fromEntries(group.map((entry) => [entry.fieldRef, entry.value])));
}

export function PriceChangedPanel({ order }: { order: OrderDetail }) {
  const { t } = useI18n();
  const confirm = useConfirmOrder();
  const oldUnit = order.confirmedUnitPriceFen;
  const newUnit = order.guardUnitPriceFen;
  if (newUnit === null) return null;
  const newTotal = newUnit * order.units;
  const entries = entriesOf(order);
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="price-changed"
      title={t('priceGuard.title')}
      description={
        <Space orientation="vertical" style={{ width: '100%' }}>
          <span>{t('priceGuard.body')}</span>
          <Descriptions size="small" column={2} bordered>
            <Descriptions.Item label={t('priceGuard.confirmedUnit')}>
              <span data-testid="price-changed-old">{formatFen(oldUnit)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('priceGuard.nowUnit')}>
              <span data-testid="price-changed-new">{formatFen(newUnit)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('priceGuard.confirmedTotal')}>{formatFen(order.confirmedTotalFen)}</Descriptions.Item>
            <Descriptions.Item label={t('priceGuard.nowTotal')}>
              <span data-testid="price-changed-new-total">{formatFen(newTotal)}</span>
            </Descriptions.Item>
          </Descriptions>
          {confirm.error !== null ? <ProblemAlert explained={explainError(confirm.error)} /> : null}
          <Space wrap>
            <Button
              type="primary"
              data-testid="price-changed-accept"
              loading={confirm.isPending}
              disabled={confirm.isPending || confirm.isSuccess}
              onClick={() =>
                confirm.mutate({ clientOrderRef: order.clientOrderRef, units: order.units, unitPriceFen: newUnit, ...(entries === undefined ? {} : { purchaseEntries: entries }) })
              }
            >
              {t('priceGuard.accept', { amount: formatFen(newTotal) })}
            </Button>
            <WithdrawControl order={order} />
          </Space>
        </Space>
      }
    />
  );
}
