// Where an export went: the file's path and that its cards are now marked exported, or that the buyer
// cancelled the save dialog (nothing written).
import { Button, Result, Space, Typography } from 'antd';
import type { ExportResult } from '../../../shared/ipc/views/vault';
import { useI18n } from '../i18n/use-i18n';

export function ExportOutcome({ result, onClose }: { readonly result: ExportResult; readonly onClose: () => void }) {
  const { t } = useI18n();
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
