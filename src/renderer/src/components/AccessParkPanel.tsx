// An order the merchant would not even look at because it refused our access (401 / 403):
// which refusal, what the buyer can do about it, and that the order is kept and goes on by itself once
// access works (a key accepted in Settings, or the merchant lifting a suspension or an address block).
// Withdrawing stays possible meanwhile.
import { Alert, Space } from 'antd';
import { Untranslated } from './MerchantText';
import { useI18n } from '../i18n/use-i18n';
import type { OrderDetail } from '../../../shared/ipc/views/orders';
import { WithdrawControl } from './WithdrawControl';

export const ACCESS_PARKS = ['needs_key', 'account_suspended', 'access_denied'] as const;
type AccessPark = (typeof ACCESS_PARKS)[number];

export function isAccessPark(intentStatus: string): intentStatus is AccessPark {
  return (ACCESS_PARKS as readonly string[]).includes(intentStatus);
}

export function AccessParkPanel({ order, status }: { order: OrderDetail; status: AccessPark }) {
  const { t } = useI18n();
  return (
    <Alert
      type="error"
      showIcon
      data-testid="order-access-park"
      data-park={status}
      title={t(`intent.${status}`)}
      description={
        <Space orientation="vertical" style={{ width: '100%' }}>
          <span>{t(`accessPark.${status}`)}</span>
          {order.lastRequestId !== null ? <span>
              {t('common.requestId', { id: '' })}
              <Untranslated>{order.lastRequestId}</Untranslated>
            </span> : null}
          <WithdrawControl order={order} />
        </Space>
      }
    />
  );
}
