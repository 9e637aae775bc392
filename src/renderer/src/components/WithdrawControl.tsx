// Withdrawing an order the merchant has not (knowingly) received: one button and a confirmation that
// says what will happen; then WithdrawOutcome says which case applied — withdrawn at once, to be
// checked with the merchant first, or already the merchant's (then it is an order like any other and
// may be cancelled if the merchant allows). The outcome outlives the button (the panel that offered
// it is gone once the order is withdrawn).
import { Alert, Button, Popconfirm } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { explainError } from '../lib/explain-error';
import { useWithdrawOrder, useWithdrawOutcome } from '../queries/orders';
import type { OrderDetail } from '../../../shared/ipc/views/orders';
import { ProblemAlert } from './ProblemAlert';

/** Our statuses in which the merchant may not hold the order: withdraw is offered. */
const WITHDRAWABLE = new Set(['queued', 'unknown', 'needs_confirmation', 'price_changed', 'unavailable', 'needs_key', 'account_suspended', 'access_denied', 'needs_template', 'merchant_failing']);

export function canWithdraw(order: OrderDetail): boolean {
  return order.state === null && WITHDRAWABLE.has(order.intentStatus);
}

export function WithdrawControl({ order }: { order: OrderDetail }) {
  const { t } = useI18n();
  const withdraw = useWithdrawOrder(order.clientOrderRef);
  if (!canWithdraw(order) && withdraw.error === null) return null;
  return (
    <>
      {canWithdraw(order) ? (
        <Popconfirm
          title={t('withdraw.confirmTitle')}
          description={order.intentStatus === 'unknown' || order.intentStatus === 'merchant_failing' ? t('withdraw.confirmUncertain') : t('withdraw.confirmSure')}
          okText={t('withdraw.ok')}
          cancelText={t('withdraw.keep')}
          onConfirm={() => withdraw.mutate()}
          okButtonProps={{ danger: true, 'data-testid': 'action-withdraw-confirm' }}
        >
          <Button danger data-testid="action-withdraw" loading={withdraw.isPending}>
            {t('action.withdraw')}
          </Button>
        </Popconfirm>
      ) : null}
      {withdraw.error !== null ? (
        <div style={{ marginTop: 12 }}>
          <ProblemAlert explained={explainError(withdraw.error)} testId="withdraw-error" />
        </div>
      ) : null}
    </>
  );
}

/** Which case the latest withdraw of this order met, in words; nothing before one was asked. */
export function WithdrawOutcome({ clientOrderRef }: { clientOrderRef: string }) {
  const { t } = useI18n();
  const outcome = useWithdrawOutcome(clientOrderRef);
  if (outcome === null) return null;
  return (
    <Alert
      showIcon
      type={outcome === 'withdrawn' ? 'success' : outcome === 'checking' ? 'info' : 'warning'}
      data-testid="withdraw-outcome"
      data-outcome={outcome}
      title={t(`withdraw.outcome.${outcome}`)}
    />
  );
}
