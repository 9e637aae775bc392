// The confirmation step: everything that will be sent and charged, exactly as it will be sent —
// product, variant, units, unit price, total, the top-up accounts as normalised (a value picked from
// the template's options by its label; its code is what is sent), and the balance after. What the buyer
// confirms here is the payload of the place call, unchanged. A price that moved in the cache while this
// step is open must be looked at again before paying. The balance is read again as this step opens.
import { Alert, Button, Descriptions, Space, Typography } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { formatFen } from '../lib/money';
import type { OrderToConfirm } from '../lib/order-draft';
import type { FormModel } from '../lib/template-form';
import { optionLabelOf } from '../../../shared/purchase-option-labels';
import { MemoryOnlySecretsWarning } from './MemoryOnlySecretsWarning';
import { Untranslated } from './MerchantText';
import { BalanceReading } from './BalanceReading';
import type { AccountView } from '../../../shared/ipc/views/connection';

/** The balance as last read from the merchant, and whether it is being read again or could not be. */
export interface BalanceState {
  readonly account: AccountView;
  readonly refreshing: boolean;
  readonly failed: boolean;
}

/** The balance query as the review shows it: the last reading, whether it is being read again or could not be. */
export function balanceStateOf(query: { readonly data?: AccountView | undefined; readonly isFetching: boolean; readonly isError: boolean }): BalanceState | null {
  return query.data === undefined ? null : { account: query.data, refreshing: query.isFetching, failed: query.isError };
}

interface Props {
  readonly order: OrderToConfirm;
  readonly model: FormModel;
  readonly productName: string;
  readonly variantTitle: string;
  /** card or topup (raw): the warning about card codes is only for orders that deliver them. */
  readonly productType: string | null;
  /** The balance as last read from the merchant; null when not known. */
  readonly balance: BalanceState | null;
  /** The unit price in the cache now, when it differs from the confirmed one. */
  readonly movedPriceFen: number | null;
  /** Why the variant cannot be bought now, when the cache says so. */
  readonly blockedReason: string | null;
  readonly sending: boolean;
  onBack: () => void;
  onUseNewPrice: () => void;
  onPay: () => void;
}

export function OrderConfirmation({ order, model, productName, variantTitle, productType, balance, movedPriceFen, blockedReason, sending, onBack, onUseNewPrice, onPay }: Props) {
  const { t } = useI18n();
  const balanceFen = balance?.account.balanceFen ?? null;
  const after = balanceFen === null ? null : balanceFen - order.totalFen;
  const fieldOf = (fieldRef: string) => model.fields.find((field) => field.fieldRef === fieldRef);
  const label = (fieldRef: string): string => fieldOf(fieldRef)?.label ?? fieldRef;
  const shown = (fieldRef: string, value: string): string => optionLabelOf(fieldOf(fieldRef), value) ?? value;
  const entries = order.purchaseEntries ?? [];
  return (
    <div data-testid="order-confirmation">
      <Typography.Paragraph type="secondary">{t('orderForm.confirmIntro')}</Typography.Paragraph>
      <MemoryOnlySecretsWarning productType={productType} />
      <Descriptions column={1} size="small" bordered style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('detail.product')}>
          <span data-testid="confirm-product" translate="no" data-untranslated="merchant">
            {productName}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={t('product.variant')}>
          <span data-testid="confirm-variant" translate="no" data-untranslated="merchant">
            {variantTitle}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={t('order.units')}>
          <span data-testid="confirm-units">{order.units}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('order.unitPrice')}>
          <span data-testid="confirm-unit-price">{formatFen(order.unitPriceFen)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('order.total')}>
          <Typography.Text strong data-testid="confirm-total">
            {formatFen(order.totalFen)}
          </Typography.Text>
        </Descriptions.Item>
        {entries.length > 0 ? (
          <Descriptions.Item label={entries.length === 1 && model.entryMode === 'single' ? t('orderForm.entriesSingle', { count: order.units }) : t('orderForm.entries')}>
            <ol className="confirm-entries" data-testid="confirm-entries">
              {entries.map((group, index) => (
                <li key={index} data-testid="confirm-entry">
                  <Untranslated>
                    {Object.entries(group)
                      .map(([fieldRef, value]) => t('join.labelValue', { label: label(fieldRef), value: shown(fieldRef, value) }))
                      .join(' · ')}
                  </Untranslated>
                </li>
              ))}
            </ol>
          </Descriptions.Item>
        ) : null}
        {balance !== null ? (
          <Descriptions.Item label={t('orderForm.balanceNow')}>
            <BalanceReading account={balance.account} refreshing={balance.refreshing} failed={balance.failed} testId="confirm-balance" />
          </Descriptions.Item>
        ) : null}
        {after !== null ? (
          <Descriptions.Item label={t('orderForm.balanceAfter')}>
            <Typography.Text type={after < 0 ? 'danger' : undefined} data-testid="confirm-balance-after">
              {formatFen(after)}
            </Typography.Text>
          </Descriptions.Item>
        ) : null}
      </Descriptions>
      {after !== null && after < 0 ? <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={t('orderForm.balanceShort')} data-testid="confirm-balance-short" /> : null}
      {movedPriceFen !== null ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="confirm-price-moved"
          title={t('orderForm.priceMoved', { old: formatFen(order.unitPriceFen), now: formatFen(movedPriceFen) })}
          action={
            <Button size="small" data-testid="confirm-use-new-price" onClick={onUseNewPrice}>
              {t('orderForm.useNewPrice')}
            </Button>
          }
        />
      ) : null}
      {blockedReason !== null ? <Alert type="error" showIcon style={{ marginBottom: 12 }} title={blockedReason} data-testid="confirm-blocked" /> : null}
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        {t('orderForm.priceGuardNote')}
      </Typography.Paragraph>
      <Space style={{ width: '100%', justifyContent: 'flex-end' }}>
        <Button onClick={onBack} disabled={sending} data-testid="order-back">
          {t('orderForm.back')}
        </Button>
        <Button type="primary" loading={sending} disabled={movedPriceFen !== null || blockedReason !== null} onClick={onPay} data-testid="order-place">
          {t('orderForm.pay', { amount: formatFen(order.totalFen) })}
        </Button>
      </Space>
    </div>
  );
}
