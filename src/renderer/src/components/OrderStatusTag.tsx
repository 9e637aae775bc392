// An order's status badge: our intent until the merchant holds it, then the merchant's state;
// unknown values read "Unknown (raw)" in a warning colour, never as success.
import { Tag } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { orderStatusView } from '../lib/order-status';
import { WithMerchantData } from './MerchantText';

const COLORS = { success: 'success', processing: 'processing', warning: 'warning', error: 'error', default: 'default' } as const;

export function OrderStatusTag({ intentStatus, state }: { intentStatus: string; state: string | null }) {
  const { t, td } = useI18n();
  const view = orderStatusView(intentStatus, state);
  const label = view.raw !== null ? t('common.unknownValue', { raw: view.raw }) : td(view.key, 'status.unknownValue');
  return (
    <Tag color={COLORS[view.tone]} data-testid="order-status" data-status={state ?? intentStatus}>
      <WithMerchantData text={label} data={[view.raw]} />
    </Tag>
  );
}
