// An order's refunds next to its state and amount (list and detail): "refund in progress" from the
// moment a request is sent, the money back (all or part of the order) once the merchant's order says
// so, and a refund state this build does not know shown raw in a warning colour, never as success.
import { Tag } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { formatFen } from '../lib/money';
import { refundNotes, type RefundNote } from '../lib/refund-view';
import type { OrderRow } from '../../../shared/ipc/views/orders';
import { WithMerchantData } from './MerchantText';

const COLORS: Readonly<Record<RefundNote['kind'], string>> = { pending: 'processing', refunded: 'default', partlyRefunded: 'default', unknown: 'warning' };

type Facts = Pick<OrderRow, 'totalFen' | 'refundedFen' | 'refundPendingFen' | 'refundUnknownStates'>;

export function OrderRefundTags({ order, sending = null, testId = 'order-refund' }: { order: Facts; sending?: { amountFen: number | null } | null; testId?: string }) {
  const { t } = useI18n();
  const words = (note: RefundNote): string => {
    switch (note.kind) {
      case 'pending':
        return t('refund.tag.pending', { amount: formatFen(note.amountFen) });
      case 'refunded':
        return t('refund.tag.refunded', { amount: formatFen(note.amountFen) });
      case 'partlyRefunded':
        return t('refund.tag.partlyRefunded', { amount: formatFen(note.amountFen), total: formatFen(note.totalFen) });
      case 'unknown':
        return t('refund.tag.unknown', { raw: note.raw });
    }
  };
  return (
    <>
      {refundNotes(order, sending).map((note, index) => (
        <Tag key={`${note.kind}-${index}`} color={COLORS[note.kind]} data-testid={testId} data-kind={note.kind} data-amount={'amountFen' in note ? note.amountFen : undefined}>
          <WithMerchantData text={words(note)} data={[note.kind === 'unknown' ? note.raw : null]} />
        </Tag>
      ))}
    </>
  );
}
