// An order's timeline from what is recorded: created, the current status, refunds, completion.
import { Timeline } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { formatSeconds } from '../lib/format-time';
import { formatFen } from '../lib/money';
import { orderStatusView } from '../lib/order-status';
import { classifyRefundState } from '../../../shared/merchant/known-values';
import type { OrderDetail } from '../../../shared/ipc/views';

export function OrderTimeline({ order }: { order: OrderDetail }) {
  const { t, td, locale } = useI18n();
  const status = orderStatusView(order.intentStatus, order.state);
  const statusLabel = status.raw !== null ? t('common.unknownValue', { raw: status.raw }) : td(status.key, 'status.unknownValue');
  const entries: { at: number; title: string; color: string }[] = [{ at: order.createdAt, title: t('detail.created'), color: 'gray' }];
  for (const refund of order.refunds) {
    if (refund.createdAt !== null) entries.push({ at: refund.createdAt, title: t('detail.refundRequested', { amount: formatFen(refund.amountFen) }), color: 'blue' });
    if (refund.resolvedAt !== null) {
      const c = classifyRefundState(refund.state);
      const label = c.kind === 'known' ? t(`refundState.${c.value}`) : t('common.unknownValue', { raw: c.raw });
      entries.push({ at: refund.resolvedAt, title: label, color: c.kind === 'known' && c.value === 'succeeded' ? 'green' : 'red' });
    }
  }
  if (order.completedAt !== null) entries.push({ at: order.completedAt, title: t('detail.completed'), color: 'green' });
  entries.push({ at: order.updatedAt, title: t('detail.updated', { status: statusLabel }), color: status.success ? 'green' : status.tone === 'error' ? 'red' : 'blue' });
  entries.sort((a, b) => a.at - b.at);
  return (
    <Timeline
      data-testid="order-timeline"
      items={entries.map((entry, index) => ({ key: index, color: entry.color, title: formatSeconds(entry.at, locale), content: entry.title }))}
    />
  );
}
