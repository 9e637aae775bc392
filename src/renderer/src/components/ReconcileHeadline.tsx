// The headline of a reconciliation (issue 24): green only when every order was compared without a
// difference and the balance was checked to the fen (core's verdict); otherwise it says what differs
// and which part could not be checked, and why. Never green above a balance that is not known.
import { Alert } from 'antd';
import type { ReconcileReport } from '../../../shared/ipc/views/reconcile';
import { useI18n } from '../i18n/use-i18n';
import { formatFen } from '../lib/money';

export function ReconcileHeadline({ report }: { report: ReconcileReport }) {
  const { t } = useI18n();
  const { verdict, balance } = report;
  const count = report.differences.length;
  const orders = count === 0 ? t('reconcile.verdict.ordersAgree', { count: report.totals.merchantOrders }) : t('reconcile.found', { count });
  const balanceWords =
    verdict.balance === 'matches'
      ? t('reconcile.verdict.balanceMatches')
      : verdict.balance === 'differs'
        ? t('reconcile.verdict.balanceDiffers', { amount: formatFen(balance.unexplainedFen ?? 0) })
        : t(verdict.balanceMissing === 'end' ? 'reconcile.verdict.balanceNoEnd' : 'reconcile.verdict.balanceNoStart');
  const testId = verdict.status === 'clean' ? 'reconcile-clean' : count > 0 ? 'reconcile-found' : 'reconcile-not-checked';
  const title = verdict.status === 'clean' ? t('reconcile.clean') : verdict.status === 'notChecked' ? t('reconcile.verdict.notChecked') : t('reconcile.verdict.differs');
  return (
    <div data-testid="reconcile-headline" data-status={verdict.status} data-balance={verdict.balance} data-finished-at={report.finishedAtMs}>
      <Alert
        type={verdict.status === 'clean' ? 'success' : verdict.balance === 'differs' ? 'error' : 'warning'}
        showIcon
        title={title}
        description={
          <>
            <div data-testid="reconcile-headline-orders">{orders}</div>
            <div data-testid="reconcile-headline-balance">{balanceWords}</div>
          </>
        }
        data-testid={testId}
      />
    </div>
  );
}
