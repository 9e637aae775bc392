// The balance check of a reconciliation: the opening and closing balances from the app's readings, each
// with the time it was read (or "not known", with the nearest balances seen either side: never a
// guess), what the books say moved between the readings, and the difference nothing explains.
import { Card, Descriptions, Typography } from 'antd';
import type { BalanceCheck, BoundaryBalance } from '../../../shared/ipc/views/reconcile';
import { useI18n } from '../i18n/use-i18n';
import { formatMs } from '../lib/format-time';
import { formatFen } from '../lib/money';

function Boundary({ side, testId }: { side: BoundaryBalance; testId: string }) {
  const { t, locale } = useI18n();
  const time = (ms: number): string => formatMs(ms, locale);
  if (side.known) {
    // The reading the balance rests on, and when: the buyer sees whether it is the boundary itself.
    const when = side.fresh
      ? t('reconcile.balance.readFresh', { time: time(side.atMs) })
      : side.atMs === side.boundaryMs
        ? t('reconcile.balance.seenAcross', { from: time(side.seenFromMs), until: time(side.seenUntilMs) })
        : t('reconcile.balance.readAt', { time: time(side.atMs) });
    return (
      <span data-testid={testId} data-known="true" data-fen={side.balanceFen} data-at-ms={side.atMs}>
        <span className="reconcile-money">{formatFen(side.balanceFen)}</span>
        <br />
        <Typography.Text type="secondary" data-testid={`${testId}-time`}>
          {when}
        </Typography.Text>
      </span>
    );
  }
  const seen = (fen: number, ms: number): string => t('join.note', { text: formatFen(fen), note: time(ms) });
  return (
    <span data-testid={testId} data-known="false">
      <Typography.Text type="warning">{t('reconcile.balance.notKnown')}</Typography.Text>
      <br />
      <Typography.Text type="secondary">
        {t('reconcile.balance.notKnownWhy', {
          before: side.before === null ? t('reconcile.balance.nothingSeen') : seen(side.before.balanceFen, side.before.lastSeenAtMs),
          after: side.after === null ? t('reconcile.balance.nothingSeen') : seen(side.after.balanceFen, side.after.firstSeenAtMs),
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
          <span className="reconcile-money" data-testid="reconcile-balance-charges" data-fen={balance.chargesFen}>
            {formatFen(balance.chargesFen)}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={t('reconcile.balance.refunds')}>
          <span className="reconcile-money" data-testid="reconcile-balance-refunds" data-fen={balance.refundsFen}>
            {formatFen(balance.refundsFen)}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={t('reconcile.balance.unexplained')}>
          {unexplained === null ? (
            <Typography.Text type="secondary" data-testid="reconcile-unexplained" data-known="false">
              {t('reconcile.balance.cannotTell')}
            </Typography.Text>
          ) : (
            <Typography.Text strong type={unexplained === 0 ? 'success' : 'danger'} data-testid="reconcile-unexplained" data-known="true" data-fen={unexplained}>
              {formatFen(unexplained)}
            </Typography.Text>
          )}
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
