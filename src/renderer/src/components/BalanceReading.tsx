// A balance as the merchant last stated it, with how old that reading is whenever it is not just
// current: while it is read again, after a read failed, or once it is older than AGE_SHOWN_AFTER_S
// (issue 24 point 6: never a stale figure presented as current). The header and the order review use it.
import { SyncOutlined } from '@ant-design/icons';
import { Space, Tooltip, Typography } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { formatFen } from '../lib/money';
import { ageSeconds, ageWords } from '../lib/reading-age';
import { useNowSeconds } from '../lib/use-now-seconds';
import type { AccountView } from '../../../shared/ipc/views/connection';

/** A reading older than this says its age even when nothing is being read. */
const AGE_SHOWN_AFTER_S = 120;

export interface BalanceReadingProps {
  readonly account: Pick<AccountView, 'balanceFen' | 'currency' | 'readAt'>;
  /** A GET /account is under way: the figure is the last reading until it answers. */
  readonly refreshing: boolean;
  /** The last read failed: the figure is the last reading, and says so. */
  readonly failed: boolean;
  /** data-testid of the figure itself. */
  readonly testId: string;
  readonly strong?: boolean;
}

export function BalanceReading({ account, refreshing, failed, testId, strong = false }: BalanceReadingProps) {
  const { t } = useI18n();
  const now = useNowSeconds(true);
  const age = ageWords(t, account.readAt, now);
  const old = ageSeconds(account.readAt, now) > AGE_SHOWN_AFTER_S;
  const note = refreshing ? t('fresh.balance.refreshing', { age }) : failed ? t('fresh.balance.notRenewed', { age }) : old ? t('fresh.balance.readAt', { age }) : null;
  const figure = account.currency === 'CNY' ? formatFen(account.balanceFen) : `${formatFen(account.balanceFen)} ${account.currency}`;
  const state = refreshing ? 'refreshing' : failed ? 'notRenewed' : old ? 'old' : 'current';
  return (
    <Tooltip title={t('fresh.balance.readAt', { age })}>
      <Space size={4} data-testid={`${testId}-reading`} data-reading={state} data-read-at={account.readAt}>
        <Typography.Text strong={strong} type={refreshing || failed ? 'secondary' : undefined} data-testid={testId}>
          {figure}
        </Typography.Text>
        {note !== null ? (
          <Typography.Text type={failed ? 'warning' : 'secondary'} style={{ fontSize: 12 }} data-testid={`${testId}-age`}>
            {refreshing ? <SyncOutlined spin style={{ marginRight: 4 }} /> : null}
            {note}
          </Typography.Text>
        ) : null}
      </Space>
    </Tooltip>
  );
}
