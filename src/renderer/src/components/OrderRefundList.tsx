// Each refund of an order in the detail: amount and state in the merchant's terms (contract §7.3; an
// unknown state raw), the buyer's reason, the merchant's note, and for a request the merchant refused
// when it was sent, why, in the same words as every merchant error (its code beside them).
import { Space, Typography } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { problemOfLastErrorCode } from '../lib/explain-error';
import { formatFen } from '../lib/money';
import { classifyRefundState } from '../../../shared/merchant/known-values';
import type { RefundView } from '../../../shared/ipc/views/orders';
import { WithMerchantData } from './MerchantText';

export function OrderRefundList({ refunds }: { refunds: readonly RefundView[] }) {
  const { t, td } = useI18n();
  return (
    <Space orientation="vertical" size={4} data-testid="detail-refunds">
      {refunds.map((refund, index) => {
        const c = classifyRefundState(refund.state);
        const state = c.kind === 'known' ? t(`refundState.${c.value}`) : t('common.unknownValue', { raw: c.raw });
        const problem = problemOfLastErrorCode(refund.requestErrorCode);
        return (
          <div key={refund.refundRef ?? refund.clientRefundRef ?? index} data-testid="detail-refund-entry" data-state={refund.state}>
            <Typography.Text strong>{formatFen(refund.amountFen)}</Typography.Text> · <WithMerchantData text={state} data={[c.kind === 'known' ? null : c.raw]} />
            {refund.reason !== null ? (
              <div>
                <Typography.Text type="secondary">
                  <WithMerchantData text={t('refund.list.reason', { reason: refund.reason })} data={[refund.reason]} />
                </Typography.Text>
              </div>
            ) : null}
            {refund.merchantNote !== null ? (
              <div>
                <Typography.Text type="secondary">
                  <WithMerchantData text={t('refund.list.merchantNote', { note: refund.merchantNote })} data={[refund.merchantNote]} />
                </Typography.Text>
              </div>
            ) : null}
            {problem !== null && refund.requestErrorCode !== null ? (
              <div>
                <Typography.Text type="danger">{t('refund.list.refused', { problem: td(`problem.${problem}.title`, 'problem.unknown.title') })}</Typography.Text>{' '}
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t('problem.merchantCode', { code: refund.requestErrorCode })}
                </Typography.Text>
              </div>
            ) : null}
          </div>
        );
      })}
    </Space>
  );
}
