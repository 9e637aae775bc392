// Where an export went: the file's path (desktop) or that the browser downloaded it (web host), and
// that its cards are now marked exported; or that the buyer cancelled the save dialog (nothing written).
import { Button, Result, Space, Typography } from 'antd';
import type { ExportResult } from '../../../shared/ipc/views/vault';
import { useI18n } from '../i18n/use-i18n';

type Written = Extract<ExportResult, { status: 'written' }>;

export function ExportOutcome({ result, onClose }: { readonly result: ExportResult; readonly onClose: () => void }) {
  const { t } = useI18n();
  if (result.status !== 'written') {
    return (
      <Result
        status="info"
        title={t('export.cancelled')}
        data-testid="export-cancelled"
        extra={
          <Button onClick={onClose} data-testid="export-close">
            {t('export.close')}
          </Button>
        }
      />
    );
  }
  return <WrittenOutcome result={result} onClose={onClose} />;
}

/**
 * Written: on the desktop, where the file is (copyable); in the web host, the name of the file the
 * browser downloaded — nothing of it stays on the host.
 */
function WrittenOutcome({ result, onClose }: { readonly result: Written; readonly onClose: () => void }) {
  const { t } = useI18n();
  const downloaded = result.downloadUrl !== undefined;
  return (
    <Result
      status="success"
      title={downloaded ? t('export.downloaded', { count: result.count }) : t('export.done', { count: result.count })}
      subTitle={
        <Space orientation="vertical" size={4}>
          <span>
            {downloaded ? t('export.downloadedFile') : t('export.donePath')}{' '}
            <Typography.Text code copyable={!downloaded} data-testid={downloaded ? 'export-result-file' : 'export-result-path'}>
              {downloaded ? result.fileName : result.path}
            </Typography.Text>
          </span>
          <span>{t('export.doneMarked')}</span>
          {downloaded ? <span>{t('export.downloadHint')}</span> : null}
        </Space>
      }
      extra={
        <Button type="primary" onClick={onClose} data-testid="export-close">
          {t('export.close')}
        </Button>
      }
      data-testid="export-result"
      {...(downloaded ? { 'data-delivery': 'download' } : {})}
    />
  );
}
