// The order dialog's step when the merchant cannot be reached and this variant's order form was never
// loaded (contract §7.10): it says so plainly and offers to queue the order as "waiting for the order
// form" with what can be confirmed without the form — the quantity, at the unit price shown (a cap:
// the price guard parks a higher one). For a top-up the details are asked when the merchant is back.
// Nothing is sent before the form has been loaded and the order checked against it.
import { Alert, Button, Descriptions, Form, InputNumber, Space, Typography } from 'antd';
import { useState } from 'react';
import { useI18n } from '../i18n/use-i18n';
import { explainError } from '../lib/explain-error';
import { formatFen } from '../lib/money';
import { newDraftRef } from '../lib/order-draft';
import { usePlaceOrder } from '../queries/orders';
import type { OrderDetail } from '../../../shared/ipc/views/orders';
import { Untranslated } from './MerchantText';
import { ProblemAlert } from './ProblemAlert';

export interface OrderNeedsTemplateStepProps {
  readonly productRef: number;
  readonly variantRef: number;
  readonly productType: string | null;
  readonly variantTitle: string;
  readonly priceFen: number | null;
  readonly onPlaced: (detail: OrderDetail) => void;
  readonly onClose: () => void;
  /** The merchant the form is for (issue 17); absent: the active one. */
  readonly profileId?: string;
}

const MAX_UNITS = 100_000;

export function OrderNeedsTemplateStep({ productRef, variantRef, productType, variantTitle, priceFen, onPlaced, onClose, profileId }: OrderNeedsTemplateStepProps) {
  const { t } = useI18n();
  const place = usePlaceOrder();
  const [units, setUnits] = useState<number>(1);
  // One per dialog: a second click after a lost answer is the same order, never a second.
  const [draftRef] = useState<string>(newDraftRef);
  const valid = Number.isInteger(units) && units >= 1 && units <= MAX_UNITS;
  const queue = (): void => {
    if (priceFen === null || !valid || place.isPending) return;
    place.mutate({ productRef, variantRef, units, unitPriceFen: priceFen, draftRef, ...(profileId === undefined ? {} : { profileId }) }, { onSuccess: onPlaced });
  };
  return (
    <Form layout="vertical" data-testid="order-needs-template" onFinish={queue}>
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        title={t('orderTemplate.offlineTitle')}
        description={productType === 'card' ? t('orderTemplate.offlineCard') : t('orderTemplate.offlineTopup')}
        data-testid="order-offline-no-template"
      />
      <Descriptions size="small" column={2} style={{ marginBottom: 12 }}>
        <Descriptions.Item label={t('product.variant')}>
          <Untranslated>{variantTitle}</Untranslated>
        </Descriptions.Item>
        <Descriptions.Item label={t('orderTemplate.unitPrice')}>
          <span data-testid="order-offline-unit-price">{formatFen(priceFen)}</span>
        </Descriptions.Item>
      </Descriptions>
      {priceFen === null ? <Alert type="error" showIcon style={{ marginBottom: 12 }} title={t('orderTemplate.noPrice')} /> : null}
      <Form.Item label={t('orderTemplate.units')} required>
        <InputNumber min={1} max={MAX_UNITS} precision={0} value={units} onChange={(value) => setUnits(value ?? 0)} data-testid="order-offline-units" />
      </Form.Item>
      <Descriptions size="small" column={1} style={{ marginBottom: 8 }}>
        <Descriptions.Item label={t('orderTemplate.total')}>
          <strong data-testid="order-offline-total">{formatFen(priceFen === null || !valid ? null : priceFen * units)}</strong>
        </Descriptions.Item>
      </Descriptions>
      <Typography.Paragraph type="secondary">{t('orderTemplate.priceCap')}</Typography.Paragraph>
      {place.error !== null ? (
        <div style={{ marginBottom: 12 }}>
          <ProblemAlert explained={explainError(place.error)} />
        </div>
      ) : null}
      <Space style={{ width: '100%', justifyContent: 'flex-end' }}>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button type="primary" htmlType="submit" disabled={priceFen === null || !valid} loading={place.isPending} data-testid="order-queue-needs-template">
          {t('orderTemplate.queue')}
        </Button>
      </Space>
    </Form>
  );
}
