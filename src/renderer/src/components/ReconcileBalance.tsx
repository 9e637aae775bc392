// The balance check of a reconciliation: the balance at the range's start and end (or "not known",
// with the nearest balances seen either side: never a guess), what the app recorded moving, and the
// difference nothing explains.
import { Card, Descriptions, Typography } from 'antd';
import type { BalanceCheck, BoundaryBalance } from '../../../shared/ipc/views/reconcile';
import { useI18n } from '../i18n/use-i18n';
import { formatFen } from '../lib/money';

function Boundary({ side, testId }: { side: BoundaryBalance; testId: string }) {
  const { t, locale } = useI18n();
  if (side.known) {
    return (
      <span data-testid={testId} data-known="true" className="reconcile-money">
        {formatFen(side.balanceFen)}
      </span>
    );
  }
  const when = (fen: number, ms: number): string => `${formatFen(fen)} (${new Date(ms).toLocaleString(locale)})`;
  return (
    <span data-testid={testId} data-known="false">
      <Typography.Text type="warning">{t('reconcile.balance.notKnown')}</Typography.Text>
      <br />
      <Typography.Text type="secondary">
        {t('reconcile.balance.notKnownWhy', {
          before: side.before === null ? t('reconcile.balance.nothingSeen') : when(side.before.balanceFen, side.before.lastSeenAtMs),
          after: side.after === null ? t('reconcile.balance.nothingSeen') : when(side.after.balanceFen, side.after.firstSeenAtMs),
        })}
      </Typography.Text>
    </span>
  );
}

export function ReconcileBalance({ balance }: { balance: BalanceCheck }) {
  const { t } = useI18n();
  const unexplained = balance.unexplainedFen;
  return (
    <Card size="small" title={t('reconcile.balance.title')} data-testid="reconcile-balance">
      <Descriptions size="small" bordered column={{ xs: 1, lg: 2 }}>
        <Descriptions.Item label={t('reconcile.balance.start')}>
          <Boundary side={balance.start} testId="reconcile-balance-start" />
        </Descriptions.Item>
        <Descriptions.Item label={t('reconcile.balance.end')}>
          <Boundary side={balance.end} testId="reconcile-balance-end" />
        </Descriptions.Item>
        <Descriptions.Item label={t('reconcile.balance.charges')}>
          <span className="reconcile-money">{formatFen(balance.chargesFen)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('reconcile.balance.refunds')}>
          <span className="reconcile-money">{formatFen(balance.refundsFen)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('reconcile.balance.unexplained')}>
          {unexplained === null ? (
            <Typography.Text type="secondary" data-testid="reconcile-unexplained" data-known="false">
              {t('reconcile.balance.cannotTell')}
            </Typography.Text>
          ) : (
            <Typography.Text strong type={unexplained === 0 ? 'success' : 'danger'} data-testid="reconcile-unexplained" data-known="true">
              {formatFen(unexplained)}
            </Typography.Text>
          )}
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
