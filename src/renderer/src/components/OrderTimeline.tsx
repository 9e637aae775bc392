// An order's timeline from what is recorded: when we recorded the intent, then the merchant states
// the order was seen in, in the merchant's order (its revisions), and refunds. Nothing is made up: a
// state we never saw is not shown, and "completed" appears only if the order was completed.
import { Timeline } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { formatSeconds } from '../lib/format-time';
import { formatFen } from '../lib/money';
import { orderStatusView } from '../lib/order-status';
import { classifyRefundState } from '../../../shared/merchant/known-values';
import type { OrderDetail } from '../../../shared/ipc/views/orders';
import { WithMerchantData } from './MerchantText';

interface Entry {
  readonly at: number;
  readonly title: string;
  /** The merchant's own value when it is one this app does not know (shown as it is, marked). */
  readonly raw?: string | null;
  readonly color: string;
  /** Keeps the merchant's order among entries of the same second. */
  readonly rank: number;
}

const TONE_COLORS: Record<string, string> = { success: 'green', error: 'red', warning: 'orange', processing: 'blue', default: 'gray' };

export function OrderTimeline({ order }: { order: OrderDetail }) {
  const { t, td, locale } = useI18n();
  const entries: Entry[] = [{ at: order.createdAt, title: t('detail.created'), color: 'gray', rank: 0 }];
  // The merchant's revisions decide the order of its states, even if its clock disagrees.
  let previous = order.createdAt;
  order.stateHistory.forEach((step, index) => {
    const status = orderStatusView(order.intentStatus, step.state);
    const label = status.raw !== null ? t('common.unknownValue', { raw: status.raw }) : td(status.key, 'status.unknownValue');
    previous = Math.max(previous, step.at);
    entries.push({ at: previous, title: label, raw: status.raw, color: TONE_COLORS[status.tone] ?? 'gray', rank: 1 + index });
  });
  if (order.stateHistory.length === 0 && order.state === null) {
    // Not the merchant's yet: where our side stands (queued, parked, refused, withdrawn…).
    const status = orderStatusView(order.intentStatus, null);
    const label = status.raw !== null ? t('common.unknownValue', { raw: status.raw }) : td(status.key, 'status.unknownValue');
    if (order.intentStatus !== 'queued') entries.push({ at: order.updatedAt, title: label, raw: status.raw, color: TONE_COLORS[status.tone] ?? 'gray', rank: 1 });
  }
  for (const refund of order.refunds) {
    if (refund.createdAt !== null) entries.push({ at: refund.createdAt, title: t('detail.refundRequested', { amount: formatFen(refund.amountFen) }), color: 'blue', rank: 1000 });
    if (refund.resolvedAt !== null) {
      const c = classifyRefundState(refund.state);
      const label = c.kind === 'known' ? t(`refundState.${c.value}`) : t('common.unknownValue', { raw: c.raw });
      entries.push({ at: refund.resolvedAt, title: label, raw: c.kind === 'known' ? null : c.raw, color: c.kind === 'known' && c.value === 'succeeded' ? 'green' : 'red', rank: 1001 });
    }
  }
  entries.sort((a, b) => a.at - b.at || a.rank - b.rank);
  return (
    <Timeline
      data-testid="order-timeline"
      items={entries.map((entry, index) => ({
        key: index,
        color: entry.color,
        title: formatSeconds(entry.at, locale),
        content: (
          <span data-testid="timeline-entry">
            <WithMerchantData text={entry.title} data={[entry.raw]} />
          </span>
        ),
      }))}
    />
  );
}
