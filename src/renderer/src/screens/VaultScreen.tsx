// The card vault: pick an order that has card codes, see them masked, reveal or copy one by one.
import { LockOutlined } from '@ant-design/icons';
import { Alert, Card, Empty, Select, Space, Spin } from 'antd';
import { CardRow } from '../components/CardRow';
import { ProblemAlert } from '../components/ProblemAlert';
import { useI18n } from '../i18n/use-i18n';
import { explainError } from '../lib/explain-error';
import { formatFen } from '../lib/money';
import { useOrders } from '../queries/orders';
import { useCards } from '../queries/vault';
import { useUiStore } from '../state/ui-store';

export function VaultScreen() {
  const { t } = useI18n();
  const vaultOrderRef = useUiStore((state) => state.vaultOrderRef);
  const openVault = useUiStore((state) => state.openVault);
  const orders = useOrders({}, true);
  const cards = useCards(vaultOrderRef);
  // Card products with a merchant order are the ones that can hold codes.
  const candidates = (orders.data ?? []).filter((row) => row.platformOrderRef !== null || row.clientOrderRef === vaultOrderRef);
  return (
    <Card title={t('vault.title')} data-testid="vault-screen">
      <Space orientation="vertical" size="large" style={{ width: '100%' }}>
        <Alert type="info" showIcon icon={<LockOutlined />} title={t('vault.audited')} data-testid="vault-audit-note" />
        <Select<string>
          data-testid="vault-order-select"
          showSearch={{ optionFilterProp: 'label' }}
          style={{ width: '100%', maxWidth: 560 }}
          placeholder={t('vault.pickOrder')}
          value={vaultOrderRef ?? undefined}
          onChange={(value) => openVault(value)}
          options={candidates.map((row) => ({
            value: row.clientOrderRef,
            label: `${row.productName ?? `#${row.productRef}`} ${row.variantTitle ?? ''} × ${row.units} · ${formatFen(row.totalFen)} · ${row.platformOrderRef ?? row.clientOrderRef}`,
          }))}
        />
        {cards.error !== null ? <ProblemAlert explained={explainError(cards.error)} /> : null}
        {vaultOrderRef !== null && cards.isLoading ? <Spin /> : null}
        {vaultOrderRef !== null && cards.data !== undefined && cards.data.length === 0 ? <Empty description={t('vault.noCards')} /> : null}
        {vaultOrderRef !== null && cards.data !== undefined
          ? cards.data.map((card) => <CardRow key={`${vaultOrderRef}:${card.seq}`} clientOrderRef={vaultOrderRef} card={card} />)
          : null}
      </Space>
    </Card>
  );
}
