// Catalog sync: live progress from main's pushed events, last-synced time, the stored count, and
// a button to sync now.
import { SyncOutlined } from '@ant-design/icons';
import { Button, Progress, Space, Typography } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { formatSeconds } from '../lib/format-time';
import { useSyncNow, useSyncStatus } from '../queries/catalog';
import { useUiStore } from '../state/ui-store';

export function SyncBar() {
  const { t, td, locale } = useI18n();
  const status = useSyncStatus(true);
  const sync = useSyncNow();
  const progress = useUiStore((state) => state.syncProgress);
  const running = sync.isPending || status.data?.running === true;
  const data = status.data;
  const showProgress = running && progress !== null;
  const percent = progress !== null && progress.total !== null && progress.total > 0 ? Math.min(100, Math.floor((progress.done / progress.total) * 100)) : undefined;
  return (
    <div className="sync-bar" data-testid="sync-bar">
      <Space wrap size="middle" style={{ width: '100%', justifyContent: 'space-between' }}>
        <Space size="small" wrap>
          <Typography.Text type="secondary" data-testid="last-synced">
            {data?.lastSyncedAt !== null && data?.lastSyncedAt !== undefined ? t('catalog.lastSynced', { time: formatSeconds(data.lastSyncedAt, locale) }) : t('catalog.neverSynced')}
          </Typography.Text>
          {data !== undefined ? <Typography.Text type="secondary">· {t('catalog.productCount', { count: data.products })}</Typography.Text> : null}
          {data?.lastError !== null && data?.lastError !== undefined && !running ? (
            <Typography.Text type="danger">{t('catalog.syncError', { error: data.lastError })}</Typography.Text>
          ) : null}
        </Space>
        <Button size="small" icon={<SyncOutlined spin={running} />} disabled={running} onClick={() => sync.mutate()} data-testid="sync-now">
          {t('catalog.sync')}
        </Button>
      </Space>
      {showProgress ? (
        <div data-testid="sync-progress">
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('catalog.syncing', { phase: td(`syncPhase.${progress.phase}`, 'syncPhase.unknown') })}{' '}
            {progress.total !== null
              ? t('catalog.syncProgress', { done: progress.done.toLocaleString(locale), total: progress.total.toLocaleString(locale) })
              : t('catalog.syncProgressNoTotal', { done: progress.done.toLocaleString(locale) })}
            {progress.etaMs !== null ? ` · ${t('catalog.syncEta', { seconds: Math.ceil(progress.etaMs / 1000) })}` : ''}
          </Typography.Text>
          <Progress percent={percent ?? 100} status="active" showInfo={percent !== undefined} size="small" />
        </div>
      ) : null}
    </div>
  );
}
