// Withdrawing an order the merchant has not (knowingly) received: one button, a confirmation, and
// then which case applied — withdrawn at once, to be checked with the merchant first, or already the
// merchant's (then it is an order like any other and may be cancelled if the merchant allows).
import { Alert, Button, Popconfirm } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { explainError } from '../lib/explain-error';
import { useWithdrawOrder } from '../queries/orders';
import type { OrderDetail } from '../../../shared/ipc/views';
import { ProblemAlert } from './ProblemAlert';

/** Our statuses in which the merchant may not hold the order: withdraw is offered. */
const WITHDRAWABLE = new Set(['queued', 'unknown', 'needs_confirmation', 'price_changed', 'unavailable']);

export function canWithdraw(order: OrderDetail): boolean {
  return order.state === null && WITHDRAWABLE.has(order.intentStatus);
}

export function WithdrawControl({ order, onWithdrawn }: { order: OrderDetail; onWithdrawn?: () => void }) {
  const { t } = useI18n();
  const withdraw = useWithdrawOrder();
  const result = withdraw.data;
  const uncertain = order.intentStatus === 'unknown';
  return (
    <>
      {canWithdraw(order) ? (
        <Popconfirm
          title={t('withdraw.confirmTitle')}
          description={uncertain ? t('withdraw.confirmUncertain') : t('withdraw.confirmSure')}
          okText={t('withdraw.ok')}
          cancelText={t('withdraw.keep')}
          onConfirm={() =>
            withdraw.mutate(order.clientOrderRef, {
              onSuccess: (answer) => {
                if (answer.outcome === 'withdrawn') onWithdrawn?.();
              },
            })
          }
          okButtonProps={{ danger: true, 'data-testid': 'action-withdraw-confirm' }}
        >
          <Button danger data-testid="action-withdraw" loading={withdraw.isPending}>
            {t('action.withdraw')}
          </Button>
        </Popconfirm>
      ) : null}
      {result !== undefined && result.order.clientOrderRef === order.clientOrderRef ? (
        <Alert
          style={{ marginTop: 12 }}
          showIcon
          type={result.outcome === 'withdrawn' ? 'success' : result.outcome === 'checking' ? 'info' : 'warning'}
          data-testid="withdraw-outcome"
          data-outcome={result.outcome}
          title={t(`withdraw.outcome.${result.outcome}`)}
        />
      ) : null}
      {withdraw.error !== null ? (
        <div style={{ marginTop: 12 }}>
          <ProblemAlert explained={explainError(withdraw.error)} testId="withdraw-error" />
        </div>
      ) : null}
    </>
  );
}
