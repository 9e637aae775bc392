// The product drawer's "Batch from file" for a variant that can be bought (contract §13): opens the
// batch dialog for it.
import { FileExcelOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { useBatchUiStore } from '../state/batch-store';

export function BatchFromFileButton({ productRef, variantRef }: { productRef: number; variantRef: number }) {
  const { t } = useI18n();
  const open = useBatchUiStore((state) => state.open);
  return (
    <Tooltip title={t('batch.open')}>
      <Button
        size="small"
        icon={<FileExcelOutlined />}
        aria-label={t('batch.open')}
        data-testid="variant-batch"
        onClick={(event) => {
          event.stopPropagation();
          open({ productRef, variantRef });
        }}
      />
    </Tooltip>
  );
}
