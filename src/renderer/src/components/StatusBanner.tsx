// The connection-wide state (account suspended, key invalid, IP denied, rate limited, offline),
// explained on every screen with what to do about it.
import { Button, Space } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useI18n } from '../i18n/use-i18n';
import type { Explained } from '../lib/explain-error';
import { isAccessActive } from '../../../shared/merchant/known-values';
import type { AccountView } from '../../../shared/ipc/views/connection';
import { keys } from '../queries/keys';
import { useProblemStore } from '../state/problem-store';
import { useUiStore } from '../state/ui-store';
import { ProblemAlert } from './ProblemAlert';

const OFFLINE: Explained = { problem: 'offline', merchantCode: null, requestId: null, detail: '', fields: [] };
const SUSPENDED: Explained = { problem: 'suspended', merchantCode: null, requestId: null, detail: '', fields: [] };

export function StatusBanner({ account }: { account: AccountView | undefined }) {
  const { t } = useI18n();
  const client = useQueryClient();
  const problem = useProblemStore((state) => state.problem);
  const browserOffline = useProblemStore((state) => state.browserOffline);
  const dismissedAt = useProblemStore((state) => state.dismissedAt);
  const setPage = useUiStore((state) => state.setPage);
  const accountSuspended = account !== undefined && account.accessState === 'suspended' && !isAccessActive(account.accessState);
  const shown = browserOffline ? OFFLINE : (problem ?? (accountSuspended ? SUSPENDED : null));
  if (shown === null || (dismissedAt !== null && shown.problem === 'rateLimited')) return null;
  const needsSettings = shown.problem === 'keyInvalid' || shown.problem === 'notConnected';
  return (
    <div data-testid="status-banner" data-problem={shown.problem} style={{ marginBottom: 16 }}>
      <ProblemAlert
        explained={shown}
        testId="status-banner-alert"
        action={
          <Space orientation="vertical">
            {needsSettings ? (
              <Button size="small" type="primary" onClick={() => setPage('settings')}>
                {t('banner.goSettings')}
              </Button>
            ) : null}
            <Button size="small" onClick={() => void client.invalidateQueries({ queryKey: keys.account })}>
              {t('banner.retryNow')}
            </Button>
            {shown.problem === 'rateLimited' ? (
              <Button size="small" type="text" onClick={() => useProblemStore.getState().dismiss()}>
                {t('banner.dismiss')}
              </Button>
            ) : null}
          </Space>
        }
      />
    </div>
  );
}
