// The vault's filters: one scope (all cards, one order, one product, or received between two days)
// plus "not exported yet", used or unused, valid or refunded/cancelled, and free text over product,
// variant and order number.
import { Checkbox, Input, Select, Space } from 'antd';
import type { VaultFilterState, VaultScope } from '../lib/vault-filter';
import { useI18n } from '../i18n/use-i18n';
import type { Choice } from './ExportChoices';
import { DayPicker } from './DayPicker';

const SCOPES: readonly VaultScope[] = ['all', 'order', 'product', 'dateRange'];
const USED = ['any', 'yes', 'no'] as const;
const REFUND = ['all', 'valid', 'refunded'] as const;

export function VaultFilters({
  value,
  onChange,
  orders,
  products,
}: {
  value: VaultFilterState;
  onChange: (patch: Partial<VaultFilterState>) => void;
  orders: readonly Choice<string>[];
  products: readonly Choice<number>[];
}) {
  const { t } = useI18n();
  return (
    <Space wrap size="middle" data-testid="vault-filters">
      <Select<VaultScope>
        data-testid="vault-scope"
        style={{ width: 150 }}
        aria-label={t('vaultList.scope')}
        value={value.scope}
        onChange={(scope) => onChange({ scope })}
        options={SCOPES.map((scope) => ({ value: scope, label: t(`vaultList.scope.${scope}`) }))}
      />
      {value.scope === 'order' ? (
        <Select<string>
          data-testid="vault-order-select"
          style={{ width: 380 }}
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('vaultList.pickOrder')}
          value={value.orderRef ?? undefined}
          onChange={(orderRef) => onChange({ orderRef })}
          options={orders.map((o) => ({ value: o.value, label: o.label }))}
        />
      ) : null}
      {value.scope === 'product' ? (
        <Select<number>
          data-testid="vault-product-select"
          style={{ width: 320 }}
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('vaultList.pickProduct')}
          value={value.productRef ?? undefined}
          onChange={(productRef) => onChange({ productRef })}
          options={products.map((p) => ({ value: p.value, label: p.label }))}
        />
      ) : null}
      {value.scope === 'dateRange' ? (
        <Space>
          <DayPicker label={t('vaultList.from')} value={value.fromDay} onChange={(day) => onChange({ fromDay: day })} testId="vault-from" />
          <DayPicker label={t('vaultList.to')} value={value.toDay} onChange={(day) => onChange({ toDay: day })} testId="vault-to" />
        </Space>
      ) : null}
      <Checkbox checked={value.notExported} onChange={(e) => onChange({ notExported: e.target.checked })} data-testid="vault-not-exported">
        {t('vaultList.notExported')}
      </Checkbox>
      <Select<(typeof USED)[number]>
        data-testid="vault-used"
        style={{ width: 160 }}
        aria-label={t('vaultList.used')}
        value={value.used}
        onChange={(used) => onChange({ used })}
        options={USED.map((u) => ({ value: u, label: t(`vaultList.used.${u}`) }))}
      />
      <Select<(typeof REFUND)[number]>
        data-testid="vault-refund"
        style={{ width: 170 }}
        aria-label={t('vaultList.refund')}
        value={value.refund}
        onChange={(refund) => onChange({ refund })}
        options={REFUND.map((r) => ({ value: r, label: t(`vaultList.refund.${r}`) }))}
      />
      <Input.Search allowClear style={{ width: 240 }} placeholder={t('vaultList.search')} defaultValue={value.text} onSearch={(text) => onChange({ text })} data-testid="vault-search" />
    </Space>
  );
}
