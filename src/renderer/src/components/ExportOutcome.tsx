// Where an export went: the file's path (desktop) or that the browser downloaded it (web host), and
// that its cards are now marked exported; or that the buyer cancelled the save dialog (nothing written).
import { Button, Result, Space, Typography } from 'antd';
import type { ExportResult } from '../../../shared/ipc/views/vault';
import { useI18n } from '../i18n/use-i18n';

export function ExportOutcome({ result, onClose }: { readonly result: ExportResult; readonly onClose: () => void }) {
  const { t } = useI18n();
  if (result.status === 'written' && result.downloadUrl !== undefined) return <DownloadedOutcome result={result} onClose={onClose} />;
  return result.status === 'written' ? (
    <Result
      status="success"
      title={t('export.done', { count: result.count })}
      subTitle={
        <Space orientation="vertical" size={4}>
          <span>
            {t('export.donePath')}{' '}
            <Typography.Text code copyable data-testid="export-result-path">
              {result.path}
            </Typography.Text>
          </span>
          <span>{t('export.doneMarked')}</span>
        </Space>
      }
      extra={
        <Button type="primary" onClick={onClose} data-testid="export-close">
          {t('export.close')}
        </Button>
      }
      data-testid="export-result"
    />
  ) : (
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

/** The web host handed the file to the browser as a download; nothing of it stays on the host. */
function DownloadedOutcome({ result, onClose }: { readonly result: Extract<ExportResult, { status: 'written' }>; readonly onClose: () => void }) {
  const { t } = useI18n();
  return (
    <Result
      status="success"
      title={t('export.downloaded', { count: result.count })}
      subTitle={
        <Space orientation="vertical" size={4}>
          <span>
            {t('export.downloadedFile')}{' '}
            <Typography.Text code data-testid="export-result-file">
              {result.fileName}
            </Typography.Text>
          </span>
          <span>{t('export.doneMarked')}</span>
          <span>{t('export.downloadHint')}</span>
        </Space>
      }
      extra={
        <Button type="primary" onClick={onClose} data-testid="export-close">
          {t('export.close')}
        </Button>
      }
      data-testid="export-result"
      data-delivery="download"
    />
  );
}
