// One chat message: the merchant's on the left, the buyer's on the right, text as written (line
// breaks kept), image previews, and for the buyer's own messages where they are: sending, sent,
// not delivered yet (why, and when the app tries again), or refused by the merchant (why).
import { CheckOutlined, ClockCircleOutlined, ExclamationCircleOutlined, SyncOutlined } from '@ant-design/icons';
import { Tooltip, Typography } from 'antd';
import type { CaseMessageView } from '../../../shared/ipc/views/aftersales';
import { useI18n } from '../i18n/use-i18n';
import { deliveryReason, senderSide } from '../lib/case-status';
import { formatClock } from '../lib/format-time';
import { formatSeconds } from '../lib/format-time';
import { CaseImages } from './CaseImages';
import { Untranslated } from './MerchantText';

function Delivery({ message }: { message: CaseMessageView }) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const reason = deliveryReason(message, i18n);
  switch (message.delivery) {
    case 'pending':
      return (
        <span className="case-delivery" data-testid="case-delivery">
          <ClockCircleOutlined /> {t('aftersale.delivery.pending')}
        </span>
      );
    case 'sent':
      return (
        <span className="case-delivery" data-testid="case-delivery">
          <CheckOutlined /> {t('aftersale.delivery.sent')}
        </span>
      );
    case 'retrying':
      return (
        <Tooltip title={t('aftersale.delivery.hint')}>
          <span className="case-delivery case-delivery-retrying" data-testid="case-delivery">
            <SyncOutlined />{' '}
            {message.nextAttemptAt !== null
              ? t('aftersale.delivery.retrying', { reason, time: formatClock(message.nextAttemptAt, locale) })
              : t('aftersale.delivery.retryingSoon', { reason })}
          </span>
        </Tooltip>
      );
    case 'failed':
      return (
        <span className="case-delivery case-delivery-failed" data-testid="case-delivery">
          <ExclamationCircleOutlined /> {t('aftersale.delivery.failed', { reason })}
        </span>
      );
  }
}

export function CaseMessageItem({ message }: { message: CaseMessageView }) {
  const { t, locale } = useI18n();
  const side = senderSide(message.sender);
  const mine = side === 'buyer';
  const who = mine ? t('aftersale.sender.buyer') : side === 'merchant' ? t('aftersale.sender.merchant') : t('aftersale.sender.unknown', { raw: message.sender });
  return (
    <div className={`case-message ${mine ? 'case-message-mine' : 'case-message-theirs'}`} data-testid="case-message" data-sender={side} data-delivery={message.delivery} data-key={message.key}>
      <div className="case-message-meta">
        <Typography.Text type="secondary">
          {who} · {formatSeconds(message.createdAt, locale)}
        </Typography.Text>
      </div>
      <div className="case-bubble">
        {message.text !== '' ? (
          <div className="case-message-text" data-testid="case-message-text">
            <Untranslated kind={mine ? 'buyer' : 'merchant'}>{message.text}</Untranslated>
          </div>
        ) : null}
        <CaseImages urls={message.images} />
      </div>
      {mine ? <Delivery message={message} /> : null}
    </div>
  );
}
