// The banner a crossing of the low-balance line raises (with the desktop notification): the balance
// now and the line the buyer set. It goes when dismissed, or by itself once the balance is back at
// or above the line.
import { Alert } from 'antd';
import { useEffect } from 'react';
import type { AccountView } from '../../../shared/ipc/views/connection';
import { useI18n } from '../i18n/use-i18n';
import { formatFen } from '../lib/money';
import { useSettings } from '../queries/settings';
import { useLowBalanceStore } from '../state/low-balance-store';

export function LowBalanceBanner({ account }: { account: AccountView | undefined }) {
  const { t } = useI18n();
  const crossedAt = useLowBalanceStore((state) => state.balanceFen);
  const dismiss = useLowBalanceStore((state) => state.dismiss);
  const line = useSettings().data?.lowBalanceFen ?? null;
  const balanceFen = account?.balanceFen ?? crossedAt;
  const recovered = line !== null && balanceFen !== null && (line === 0 || balanceFen >= line);
  useEffect(() => {
    if (crossedAt !== null && recovered) dismiss();
  }, [crossedAt, recovered, dismiss]);
  if (crossedAt === null || balanceFen === null || recovered) return null;
  return (
    <Alert
      type="warning"
      showIcon
      closable={{ onClose: dismiss }}
      data-testid="low-balance-banner"
      style={{ marginBottom: 16 }}
      title={t('lowBalanceBanner.title', { balance: formatFen(balanceFen) })}
      description={line === null ? null : t('lowBalanceBanner.body', { line: formatFen(line) })}
    />
  );
}
