// Catalog sync: the last successful sync's time (kept through failures), the running sync's step of how
// many with its counts, time left when known and an overall bar (indeterminate while some step's work
// is unknown), why the last run did not finish with the merchant code and request ID, and Sync now.
// A failure to reach the merchant that has since ended is said in neutral words (when the sync
// stopped), not in red as if current; a merchant's wait is counted down, never a time gone by.
import { SyncOutlined } from '@ant-design/icons';
import { Button, Progress, Space, Typography } from 'antd';
import { WithMerchantData } from './MerchantText';
import { useI18n } from '../i18n/use-i18n';
import { formatSeconds } from '../lib/format-time';
import { barPercent, countLine, etaLine, failureWords, isSyncFailureCurrent, lastSyncedLine, stepLine } from '../lib/sync-words';
import { useNow } from '../lib/use-now';
import { useSyncNow, useSyncStatus } from '../queries/catalog';
import { useConnectionStateStore } from '../state/connection-state-store';
import { useUiStore } from '../state/ui-store';
import type { SyncFailureView, SyncProgressView } from '../../../shared/ipc/views/catalog';

export function SyncBar() {
  const words = useI18n();
  const { t } = words;
  const status = useSyncStatus(true);
  const sync = useSyncNow();
  const pushed = useUiStore((state) => state.syncProgress);
  const running = sync.isPending || status.data?.running === true;
  const data = status.data;
  // The pushed event is the freshest; a page opened mid-sync starts from the status's copy.
  const progress = pushed !== null && pushed.phaseIndex !== null ? pushed : (data?.progress ?? null);
  return (
    <div className="sync-bar" data-testid="sync-bar">
      <Space wrap size="middle" style={{ width: '100%', justifyContent: 'space-between' }}>
        <Space size="small" wrap>
          <Typography.Text type="secondary" data-testid="last-synced">
            {data !== undefined ? lastSyncedLine({ lastSyncedAt: data.lastSyncedAt, running }, words) : ''}
          </Typography.Text>
          {data !== undefined ? <Typography.Text type="secondary">· {t('catalog.productCount', { count: data.products })}</Typography.Text> : null}
        </Space>
        <Button size="small" icon={<SyncOutlined spin={running} />} disabled={running} onClick={() => sync.mutate()} data-testid="sync-now">
          {t('catalog.sync')}
        </Button>
      </Space>
      {data?.failure !== null && data?.failure !== undefined && !running ? <SyncFailure failure={data.failure} hasCatalog={data.lastSyncedAt !== null} /> : null}
      {running && progress !== null ? <SyncProgressRow progress={progress} /> : null}
    </div>
  );
}

function SyncFailure({ failure, hasCatalog }: { failure: SyncFailureView; hasCatalog: boolean }) {
  const words = useI18n();
  const connection = useConnectionStateStore((store) => store.view);
  // A merchant's wait is counted down: re-read the time every second while one is shown.
  const now = useNow(failure.kind === 'notBefore' ? 1_000 : null);
  if (!isSyncFailureCurrent(failure, connection)) {
    return (
      <div data-testid="sync-failure" data-kind={failure.kind} data-current="false">
        <Typography.Text type="secondary">
          {words.t('sync.failedEarlier', { time: formatSeconds(failure.at, words.locale) })}
        </Typography.Text>
      </div>
    );
  }
  const { reason, detail } = failureWords(failure, words, now);
  return (
    <div data-testid="sync-failure" data-kind={failure.kind} data-current="true">
      <Typography.Text type={failure.kind === 'notBefore' ? 'warning' : 'danger'}>
        {words.t('sync.failed')} {reason}
      </Typography.Text>
      {hasCatalog ? <Typography.Text type="secondary"> {words.t('sync.failedKept')}</Typography.Text> : null}
      {detail !== '' ? (
        <div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="sync-failure-detail">
            <WithMerchantData text={detail} data={[failure.requestId]} />
          </Typography.Text>
        </div>
      ) : null}
    </div>
  );
}

function SyncProgressRow({ progress }: { progress: SyncProgressView }) {
  const words = useI18n();
  const step = stepLine(progress, words);
  const eta = etaLine(progress, words);
  const percent = barPercent(progress);
  const parts = [step, countLine(progress, words), eta].filter((part): part is string => part !== null);
  return (
    <div data-testid="sync-progress" data-phase={progress.phase}>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {parts.join(' · ')}
      </Typography.Text>
      {percent === undefined ? (
        // Some step's work is not known yet: a moving bar without a number, never a made-up percentage.
        <div className="sync-indeterminate" role="progressbar" aria-busy="true" data-testid="sync-bar-indeterminate" />
      ) : (
        <Progress percent={percent} status="active" size="small" />
      )}
    </div>
  );
}
