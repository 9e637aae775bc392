// In the orders list: an order with an after-sales case shows it, with the count of the merchant's
// unread messages across its cases.
import { CustomerServiceOutlined } from '@ant-design/icons';
import { Badge, Tag } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { useUnread } from '../queries/aftersales';

export function OrderCaseBadge({ clientOrderRef }: { clientOrderRef: string }) {
  const { t } = useI18n();
  const unread = useUnread();
  const cases = (unread.data?.byOrder ?? []).filter((entry) => entry.clientOrderRef === clientOrderRef);
  if (cases.length === 0) return null;
  const count = cases.reduce((sum, entry) => sum + entry.unread, 0);
  return (
    <span data-testid="order-case-badge" data-unread={count}>
      <Badge count={count} size="small">
        <Tag icon={<CustomerServiceOutlined />} style={{ marginInlineEnd: 0 }}>
          {t('nav.aftersales')}
        </Tag>
      </Badge>
    </span>
  );
}
