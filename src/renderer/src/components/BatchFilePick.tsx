// The batch dialog's first step: a CSV or XLSX file dropped or chosen. The page only reads its bytes
// (refusing one over the bound before reading it); core parses it.
import { InboxOutlined } from '@ant-design/icons';
import { Alert, Typography, Upload } from 'antd';
import { useState } from 'react';
import { MAX_BATCH_ROWS } from '../../../shared/batch-file';
import { useI18n } from '../i18n/use-i18n';
import { MAX_BATCH_FILE_MB, readPickedFile, type PickedFile } from '../lib/batch-file';

export function BatchFilePick({ onPicked, busy }: { onPicked: (file: PickedFile) => void; busy: boolean }) {
  const { t } = useI18n();
  const [tooLarge, setTooLarge] = useState<string | null>(null);
  return (
    <div data-testid="batch-pick">
      <Upload.Dragger
        accept=".csv,.xlsx,.txt,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        multiple={false}
        showUploadList={false}
        disabled={busy}
        beforeUpload={(file) => {
          void readPickedFile(file).then((result) => {
            if (result.ok) {
              setTooLarge(null);
              onPicked(result.file);
            } else setTooLarge(result.sizeMb);
          });
          return false;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{busy ? t('batch.reading') : t('batch.pickTitle')}</p>
        <Typography.Paragraph type="secondary" style={{ padding: '0 16px' }}>
          {t('batch.pickHint', { maxRows: MAX_BATCH_ROWS, maxMb: MAX_BATCH_FILE_MB })}
        </Typography.Paragraph>
      </Upload.Dragger>
      {tooLarge !== null ? <Alert type="error" showIcon style={{ marginTop: 12 }} title={t('batch.tooLargeLocal', { sizeMb: tooLarge, maxMb: MAX_BATCH_FILE_MB })} data-testid="batch-too-large" /> : null}
    </div>
  );
}
