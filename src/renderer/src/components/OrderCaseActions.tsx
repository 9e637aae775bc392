// An order's after-sales part of its detail: "Open after-sales case" only when the merchant's
// allowedActions lists `aftersale` (interface v1 §4.2.4), and for every case the order has, "View case" with
// its unread count.
import { CustomerServiceOutlined, MessageOutlined } from '@ant-design/icons';
import { Untranslated } from './MerchantText';
import { Badge, Button, Space, Typography } from 'antd';
import type { OrderDetail } from '../../../shared/ipc/views/orders';
import { isActionAllowed } from '../../../shared/merchant/known-values';
import { useI18n } from '../i18n/use-i18n';
import { useUnread } from '../queries/aftersales';
import { useAftersaleStore } from '../state/aftersale-store';
import { useUiStore } from '../state/ui-store';

export function OrderCaseActions({ order }: { order: OrderDetail }) {
  const { t } = useI18n();
  const unread = useUnread();
  const openCase = useAftersaleStore((state) => state.openCase);
  const openCaseForm = useAftersaleStore((state) => state.openCaseForm);
  const openOrder = useUiStore((state) => state.openOrder);
  // One drawer at a time: the chat takes the order's place (it links back to the order).
  const viewCase = (platformCaseRef: string): void => {
    openOrder(null);
    openCase(platformCaseRef);
  };
  const cases = (unread.data?.byOrder ?? []).filter((entry) => entry.clientOrderRef === order.clientOrderRef);
  const allowed = isActionAllowed(order.allowedActions, 'aftersale');
  if (!allowed && cases.length === 0) return null;
  return (
    <div data-testid="order-aftersale">
      <Typography.Title level={5}>{t('aftersale.order.title')}</Typography.Title>
      <Space wrap>
        {cases.map((entry) => (
          <span key={entry.platformCaseRef} data-testid="order-case-unread" data-ref={entry.platformCaseRef} data-unread={entry.unread}>
            <Badge count={entry.unread} size="small">
              <Button icon={<MessageOutlined />} data-testid="order-view-case" data-ref={entry.platformCaseRef} onClick={() => viewCase(entry.platformCaseRef)}>
                {t('aftersale.order.view')} · <Untranslated>{entry.platformCaseRef}</Untranslated>
              </Button>
            </Badge>
          </span>
        ))}
        {allowed ? (
          <Button icon={<CustomerServiceOutlined />} data-testid="order-open-case" onClick={() => openCaseForm(order.clientOrderRef)}>
            {t('aftersale.order.open')}
          </Button>
        ) : null}
      </Space>
    </div>
  );
}
