// An order kept while the merchant was away without its order form (contract §7.10), in the order's
// detail: waiting for the form (nothing sent, nothing charged), or the form came and asks the buyer
// for what could not be given offline (the confirm path opens it with the form).
import { Alert } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import type { OrderDetail } from '../../../shared/ipc/views/orders';

export function TemplateWaitPanel({ order }: { order: OrderDetail }) {
  const { t } = useI18n();
  if (order.intentStatus === 'needs_template') {
    return <Alert type="warning" showIcon data-testid="detail-needs-template" title={t('intent.needs_template')} description={t('orderTemplate.waiting')} />;
  }
  if (order.intentStatus === 'needs_confirmation' && order.lastErrorCode === 'TEMPLATE_INPUT') {
    return <Alert type="warning" showIcon data-testid="detail-template-arrived" title={t('intent.needs_confirmation')} description={t('orderTemplate.formArrived')} />;
  }
  return null;
}
