// The batch dialog's confirmation: exactly what will be written and charged (one order per ready row,
// the units, the unit price every order is held to, the total), then "Pay" places the batch once: the
// step's draftRef makes a second click or a resent call answer the same batch. A batch a fallback rule
// sends to another merchant totals per merchant and pays only after the buyer's OK for that merchant.
import { Alert, Button, Descriptions } from 'antd';
import { useState } from 'react';
import type { BatchPreviewView } from '../../../shared/ipc/views/batch';
import { useI18n } from '../i18n/use-i18n';
import { formatFen } from '../lib/money';
import { BatchMerchantTotals } from './BatchMerchants';
import { MemoryOnlySecretsWarning } from './MemoryOnlySecretsWarning';
import { Untranslated, WithMerchantData } from './MerchantText';

interface Props {
  readonly preview: BatchPreviewView;
  readonly productName: string;
  readonly variantTitle: string;
  /** card or topup (raw): the card-code warning only for a batch of card orders. */
  readonly productType: string | null;
  readonly sending: boolean;
  onBack: () => void;
  onPay: () => void;
}

export function BatchConfirmStep({ preview, productName, variantTitle, productType, sending, onBack, onPay }: Props) {
  const { t } = useI18n();
  const { totals, fallback } = preview;
  const [agreed, setAgreed] = useState(false);
  const product = fallback?.productName ?? productName;
  const variant = fallback?.productName === undefined ? variantTitle : (fallback.variantTitle ?? '—');
  return (
    <div data-testid="batch-confirm">
      <Descriptions bordered size="small" column={1} title={t('batch.confirmTitle')}>
        <Descriptions.Item label={t('detail.product')}>
          <Untranslated>{product}</Untranslated> · <Untranslated>{variant}</Untranslated>
        </Descriptions.Item>
        <Descriptions.Item label={t('batch.confirmRows')}>
          <span data-testid="batch-confirm-rows">{totals.ok}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('batch.confirmUnits')}>{totals.units}</Descriptions.Item>
        <Descriptions.Item label={t('batch.confirmUnitPrice')}>{formatFen(preview.unitPriceFen)}</Descriptions.Item>
        <Descriptions.Item label={t('batch.confirmTotal')}>
          <strong data-testid="batch-confirm-total">{formatFen(totals.totalFen)}</strong>
        </Descriptions.Item>
        {totals.withErrors > 0 ? <Descriptions.Item label={t('batch.confirmSkipped')}>{totals.withErrors}</Descriptions.Item> : null}
      </Descriptions>
      <BatchMerchantTotals preview={preview} agreed={agreed} onAgree={setAgreed} />
      <Alert type="info" showIcon style={{ marginTop: 12 }} title={t('batch.priceCap')} />
      <MemoryOnlySecretsWarning productType={productType} batch />
      <div style={{ display: 'flex', justifyContent: 'space-between', marginTop: 16 }}>
        <Button onClick={onBack} disabled={sending} data-testid="batch-confirm-back">
          {t('batch.back')}
        </Button>
        <Button type="primary" loading={sending} disabled={fallback !== undefined && !agreed} onClick={onPay} data-testid="batch-pay">
          {fallback === undefined ? t('batch.place', { count: totals.ok }) : <WithMerchantData text={t('batchMerchant.place', { to: fallback.to.name, count: totals.ok })} data={[fallback.to.name]} />}
        </Button>
      </div>
    </div>
  );
}
