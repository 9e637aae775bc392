// The order dialog's edit step: the form generated from the purchase template (units by unitRule,
// entry groups by entryMode, pasted accounts, inline errors) and the total computed from the same parse
// that is sent. State stays in the dialog (OrderFormModal); this only shows it and reports edits.
import { Alert, Button, Card, Collapse, Descriptions, Form, Space, Tag, Typography } from 'antd';
import { Untranslated } from './MerchantText';
import { useI18n } from '../i18n/use-i18n';
import { formatFen } from '../lib/money';
import { canonicalUnitsText, stepUnits, visibleGroups, withFieldValue, withPastedGroups, withUnitsText, type DraftState, type OrderDraft } from '../lib/order-draft';
import { keepChosenOptions } from '../lib/pasted-options';
import type { FormModel } from '../lib/template-form';
import { exceedsStock, type SupplyStatus } from '../../../shared/merchant/supply-status';
import { PasteAccounts } from './PasteAccounts';
import { PurchaseFieldInput } from './PurchaseFieldInput';
import { SupplyTag } from './SupplyTag';
import { UnitsInput } from './UnitsInput';

export interface OrderEditFormProps {
  readonly model: FormModel;
  readonly draft: OrderDraft;
  readonly state: DraftState;
  readonly variantTitle: string;
  readonly priceFen: number | null;
  readonly supply: SupplyStatus | null;
  /** Why the variant cannot be bought now, or null. */
  readonly blocked: string | null;
  readonly balanceFen: number | null;
  /** The buyer pressed Review once: every error shows, touched or not. */
  readonly tried: boolean;
  /** Inputs the buyer has left ('units', '<group>.<fieldRef>'): their errors show. */
  readonly touched: ReadonlySet<string>;
  readonly onTouch: (key: string) => void;
  readonly onUpdate: (next: (current: OrderDraft) => OrderDraft) => void;
  readonly onReview: () => void;
  readonly onClose: () => void;
}

export function OrderEditForm({ model, draft, state, variantTitle, priceFen, supply, blocked, balanceFen, tried, touched, onTouch, onUpdate, onReview, onClose }: OrderEditFormProps) {
  const { t, locale } = useI18n();
  return (
    <Form layout="vertical" data-testid="order-form" data-entry-mode={model.entryMode} onFinish={onReview}>
      <Descriptions size="small" column={2} style={{ marginBottom: 12 }}>
        <Descriptions.Item label={t('product.variant')}>
          <Untranslated>{variantTitle}</Untranslated>
        </Descriptions.Item>
        <Descriptions.Item label={t('order.unitPrice')}>
          <span data-testid="order-unit-price">{formatFen(priceFen)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('orderForm.supply')}>{supply !== null ? <SupplyTag status={supply} /> : <Tag>—</Tag>}</Descriptions.Item>
      </Descriptions>
      {blocked !== null ? <Alert type="error" showIcon style={{ marginBottom: 12 }} title={blocked} data-testid="order-blocked" /> : null}
      <UnitsInput
        text={draft.unitsText}
        rule={model.unitRule}
        error={state.errors.units}
        showError={tried || touched.has('units')}
        stockWarning={
          supply !== null && state.units.ok && exceedsStock(supply, state.units.units) && supply.kind === 'available'
            ? t('orderForm.stockBelow', { count: (supply.remainingUnits ?? 0).toLocaleString(locale) })
            : null
        }
        onText={(text) => {
          onTouch('units');
          onUpdate((current) => withUnitsText(current, text));
        }}
        onStep={(direction) => {
          onTouch('units');
          onUpdate((current) => stepUnits(current, model.unitRule, direction));
        }}
        onBlur={() => onUpdate((current) => canonicalUnitsText(current, model.unitRule))}
      />
      {model.entryMode === 'none' ? <Typography.Paragraph type="secondary">{t('order.noFields')}</Typography.Paragraph> : null}
      {model.entryMode === 'perUnit' && model.fields.length > 0 ? (
        <Collapse
          size="small"
          style={{ marginBottom: 12 }}
          items={[
            {
              key: 'paste',
              label: <span data-testid="order-paste-toggle">{t('order.paste')}</span>,
              children: (
                <PasteAccounts
                  fields={model.fields}
                  maxUnits={model.unitRule.max}
                  onApply={(pasted) => {
                    onTouch('units');
                    // An option cell left empty keeps the one already chosen in that unit (lib/pasted-options.ts).
                    onUpdate((current) => withPastedGroups(keepChosenOptions(pasted, visibleGroups(current, model), model.fields)));
                  }}
                />
              ),
            },
          ]}
        />
      ) : null}
      <div className="order-groups">
        {state.groups.map((group, index) => (
          <Card
            key={index}
            size="small"
            title={model.entryMode === 'perUnit' ? t('order.unit', { n: index + 1 }) : t('order.group')}
            style={{ marginBottom: 12 }}
            data-testid="order-group"
          >
            {model.fields.map((field) => {
              const key = `${index}.${field.fieldRef}`;
              return (
                <PurchaseFieldInput
                  key={field.fieldRef}
                  field={field}
                  index={index}
                  value={group[field.fieldRef] ?? ''}
                  error={state.errors.groups[index]?.[field.fieldRef]}
                  showError={tried || touched.has(key)}
                  onChange={(value) => onUpdate((current) => withFieldValue(current, model, index, field.fieldRef, value))}
                  onBlur={() => onTouch(key)}
                />
              );
            })}
          </Card>
        ))}
      </div>
      <div className="order-total">
        <Space orientation="vertical" size={0}>
          <Typography.Text type="secondary">{t('order.total')}</Typography.Text>
          <Typography.Title level={3} style={{ margin: 0 }} data-testid="order-total">
            {formatFen(state.totalFen)}
          </Typography.Title>
          {balanceFen !== null && state.totalFen !== null ? (
            <Typography.Text type={balanceFen - state.totalFen < 0 ? 'danger' : 'secondary'}>{t('order.balanceAfter', { amount: formatFen(balanceFen - state.totalFen) })}</Typography.Text>
          ) : null}
        </Space>
        <Space orientation="vertical" align="end">
          {tried && state.errors.count > 0 ? (
            <Typography.Text type="danger" data-testid="order-form-errors">
              {t('order.fixErrors', { count: state.errors.count })}
            </Typography.Text>
          ) : null}
          <Space>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="primary" htmlType="submit" disabled={blocked !== null} data-testid="order-submit">
              {t('orderForm.review')}
            </Button>
          </Space>
        </Space>
      </div>
    </Form>
  );
}
