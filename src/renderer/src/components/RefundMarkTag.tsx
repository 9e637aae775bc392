// The mark on a card whose order the merchant refunded or cancelled (or partly refunded): red for a
// full refund or a cancellation, orange for a partial one. Nothing for a card without a mark.
import { Tag } from 'antd';
import type { CardRefundMark } from '../../../shared/ipc/views/vault';
import { useI18n } from '../i18n/use-i18n';

const COLORS: Readonly<Record<CardRefundMark, string>> = { refunded: 'red', cancelled: 'red', partlyRefunded: 'orange' };

export function RefundMarkTag({ mark }: { mark: CardRefundMark | null }) {
  const { t } = useI18n();
  if (mark === null) return null;
  return (
    <Tag color={COLORS[mark]} data-testid="vault-card-refund-mark" data-mark={mark}>
      {t(`vaultList.mark.${mark}`)}
    </Tag>
  );
}
