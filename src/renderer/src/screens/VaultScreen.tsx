// The card vault the buyer works in: every card (paged by main, newest first), filtered by order,
// product, received dates, not exported, used and refunds; rows picked across pages; marked used or
// exported; revealed or copied one by one (audited; a refunded or cancelled order's card asks
// first); and exported through the export dialog. Orders are named by the merchant's order number.
import { cardNumberLabel } from '../../../shared/card-number';
import { ExportOutlined, LockOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Empty, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useMemo, useState } from 'react';
import type { CardKey, VaultCardRow } from '../../../shared/ipc/views/vault';
import { ProblemAlert } from '../components/ProblemAlert';
import { RefundMarkTag } from '../components/RefundMarkTag';
import { RevealableCard } from '../components/RevealableCard';
import { VaultKeyMissingAlert } from '../components/VaultKeyMissingAlert';
import { VaultFilters } from '../components/VaultFilters';
import { useI18n } from '../i18n/use-i18n';
import { explainError } from '../lib/explain-error';
import { formatSeconds } from '../lib/format-time';
import { formatFen } from '../lib/money';
import { testId } from '../lib/test-id';
import { initialVaultFilter, vaultListQuery, type VaultFilterState } from '../lib/vault-filter';
import { useOrders } from '../queries/orders';
import { useMarkCards, useVaultList } from '../queries/vault-export';
import { useUiStore } from '../state/ui-store';
import type { Choice } from '../components/ExportChoices';
import { MerchantFilterSelect, useMerchantColumn, useMerchantFilter } from '../components/MerchantColumn';
import { useVaultSelection } from '../lib/vault-selection';
import { ExportDialog, type ExportDefaults } from './ExportDialog';
import { Untranslated, WithMerchantData } from '../components/MerchantText';
import '../vault.css';

const rowKey = (row: { clientOrderRef: string; seq: number }): string => `${row.clientOrderRef}#${row.seq}`;

/** A card's product, variant and order: the merchant's names and numbers, marked as theirs. */
function CardProduct({ row }: { row: VaultCardRow }) {
  const { t } = useI18n();
  return (
    <div className="vault-product-cell">
      <Typography.Text ellipsis={{ tooltip: true }} className="vault-product-name">
        <Untranslated>
          <strong>{row.productName ?? `#${row.productRef}`}</strong>
        </Untranslated>
        {row.variantTitle !== null ? (
          <Typography.Text type="secondary">
            {' · '}
            <Untranslated>{row.variantTitle}</Untranslated>
          </Typography.Text>
        ) : null}
      </Typography.Text>
      <Typography.Text type="secondary" ellipsis={{ tooltip: true }} className="vault-product-order" data-testid="vault-card-order">
        <WithMerchantData
          text={
            row.platformOrderRef === null
              ? `${t('vaultList.unnumbered', { product: row.productName ?? `#${row.productRef}` })} ${cardNumberLabel(row.seq)}`
              : t('vaultList.orderRef', { ref: `${row.platformOrderRef} ${cardNumberLabel(row.seq)}` })
          }
          data={[row.productName, row.platformOrderRef]}
        />
      </Typography.Text>
    </div>
  );
}

/** "ref#seq" back to a card key (a ref never holds '#': the contract's pattern forbids it). */
function keyOf(key: string): CardKey | null {
  const at = key.lastIndexOf('#');
  const seq = Number(key.slice(at + 1));
  return at <= 0 || !Number.isInteger(seq) ? null : { clientOrderRef: key.slice(0, at), seq };
}

export function VaultScreen() {
  const { t, locale } = useI18n();
  const { message } = App.useApp();
  const vaultOrderRef = useUiStore((state) => state.vaultOrderRef);
  const openVault = useUiStore((state) => state.openVault);
  const [filter, setFilter] = useState<VaultFilterState>(() => initialVaultFilter(vaultOrderRef));
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(50);
  const { selected, setSelected, mixed } = useVaultSelection();
  const none = selected.length === 0 || mixed;
  const [exporting, setExporting] = useState(false);
  const orders = useOrders({}, true);
  const merchants = useMerchantFilter();
  const merchantColumn = useMerchantColumn<VaultCardRow>(merchants.shown);
  const list = useVaultList({ ...vaultListQuery(filter, (page - 1) * pageSize, pageSize), ...merchants.input });
  const mark = useMarkCards();

  // "Open in card vault" from an order: that order, from the first page.
  useEffect(() => {
    if (vaultOrderRef === null) return;
    setFilter((current) => ({ ...current, scope: 'order', orderRef: vaultOrderRef }));
    setPage(1);
  }, [vaultOrderRef]);

  const change = (patch: Partial<VaultFilterState>): void => {
    setFilter((current) => ({ ...current, ...patch }));
    setPage(1);
    // The store remembers the order scope (so "Open in card vault" and coming back both show it).
    if (patch.orderRef !== undefined) openVault(patch.orderRef);
    else if (patch.scope !== undefined && patch.scope !== 'order') openVault(null);
  };

  // Orders with a merchant order can hold cards; their products are the product filter's choices.
  const orderChoices: Choice<string>[] = useMemo(
    () =>
      (orders.data ?? [])
        .filter((row) => row.platformOrderRef !== null || row.clientOrderRef === filter.orderRef)
        .map((row) => ({
          value: row.clientOrderRef,
          label: `${row.productName ?? `#${row.productRef}`} ${row.variantTitle ?? ''} × ${row.units} · ${formatFen(row.totalFen)} · ${row.platformOrderRef ?? t('vaultList.unnumbered', { product: '' }).trim()}`,
        })),
    [orders.data, filter.orderRef, t],
  );
  const productChoices: Choice<number>[] = useMemo(() => {
    const seen = new Map<number, string>();
    for (const row of orders.data ?? []) if (row.platformOrderRef !== null && !seen.has(row.productRef)) seen.set(row.productRef, row.productName ?? `#${row.productRef}`);
    return [...seen].map(([value, label]) => ({ value, label }));
  }, [orders.data]);

  const selectedCards = selected.map(keyOf).filter((k): k is CardKey => k !== null);
  const exportDefaults: ExportDefaults = {
    what: selectedCards.length > 0 ? 'cards' : filter.scope === 'all' ? 'notExported' : filter.scope,
    orderRef: filter.orderRef,
    productRef: filter.productRef,
    fromDay: filter.fromDay,
    toDay: filter.toDay,
  };

  const markSelected = (flag: 'used' | 'exported', value: boolean): void => {
    if (selectedCards.length === 0) return;
    mark.mutate({ cards: selectedCards, flag, value }, { onSuccess: ({ updated }) => void message.success(t('vaultList.marked', { count: updated })) });
  };

  const columns: ColumnsType<VaultCardRow> = [
    ...merchantColumn,
    {
      key: 'product',
      title: t('vaultList.col.product'),
      width: 220,
      render: (_value, row) => <CardProduct row={row} />,
    },
    { key: 'card', title: t('vaultList.col.cardNo'), width: 380, render: (_value, row) => <RevealableCard card={row} /> },
    { key: 'price', title: t('vaultList.col.price'), width: 90, align: 'right', className: 'vault-nowrap', render: (_value, row) => formatFen(row.priceFen) },
    { key: 'ordered', title: t('vaultList.col.orderedAt'), width: 170, className: 'vault-nowrap time-cell', render: (_value, row) => formatSeconds(row.orderedAt, locale) },
    {
      key: 'status',
      title: t('vaultList.col.status'),
      width: 190,
      render: (_value, row) => (
        <Space size={4} wrap>
          <RefundMarkTag mark={row.refundMark} />
          {row.usedAt !== null ? <Tag data-testid="vault-card-used">{t('vault.used')}</Tag> : null}
          {row.exportedAt !== null ? (
            <Tag color="blue" data-testid="vault-card-exported">
              {t('vaultList.exported')}
            </Tag>
          ) : null}
          {row.expiresAt !== null ? <Tag>{`${t('vault.expires')} ${formatSeconds(row.expiresAt, locale)}`}</Tag> : null}
        </Space>
      ),
    },
  ];

  return (
    <Card data-testid="vault-screen">
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <VaultKeyMissingAlert />
        <Alert type="info" showIcon icon={<LockOutlined />} title={t('vault.audited')} data-testid="vault-audit-note" />
        <VaultFilters value={filter} onChange={change} orders={orderChoices} products={productChoices} />
        <Space wrap>
          <MerchantFilterSelect filter={{ ...merchants, setChosen: (id) => (merchants.setChosen(id), setPage(1)) }} testId="vault-filter-merchant" />
          <Typography.Text data-testid="vault-total">{t('vaultList.total', { count: list.data?.total ?? 0 })}</Typography.Text>
          {selected.length > 0 ? <Tag data-testid="vault-selected-count">{t('vaultList.selected', { count: selected.length })}</Tag> : null}
          {mixed ? <Tag color="orange" data-testid="vault-selection-mixed">{t('profiles.vaultMixed')}</Tag> : null}
          <Button disabled={none} loading={mark.isPending} onClick={() => markSelected('used', true)} data-testid="vault-mark-used">
            {t('vaultList.markUsed')}
          </Button>
          <Button disabled={none} onClick={() => markSelected('used', false)} data-testid="vault-mark-unused">
            {t('vaultList.markUnused')}
          </Button>
          <Button disabled={none} onClick={() => markSelected('exported', true)} data-testid="vault-mark-exported">
            {t('vaultList.markExported')}
          </Button>
          <Button disabled={none} onClick={() => markSelected('exported', false)} data-testid="vault-clear-exported">
            {t('vaultList.clearExported')}
          </Button>
          <Button type="primary" icon={<ExportOutlined />} onClick={() => setExporting(true)} data-testid="vault-export">
            {t('vaultList.export')}
          </Button>
        </Space>
        {list.error !== null ? <ProblemAlert explained={explainError(list.error)} /> : null}
        {mark.error !== null ? <ProblemAlert explained={explainError(mark.error)} /> : null}
        <Table<VaultCardRow>
          data-testid="vault-table"
          size="small"
          rowKey={rowKey}
          columns={columns}
          dataSource={list.data?.rows ?? []}
          loading={list.isLoading}
          onRow={(row) => testId('vault-card', { seq: row.seq, ref: row.clientOrderRef })}
          // One line per card (no button or label wraps): a narrow window scrolls the table instead.
          scroll={{ x: 'max-content' }}
          rowSelection={{ selectedRowKeys: selected, preserveSelectedRowKeys: true, onChange: (keys, rows) => setSelected(keys, rows) }}
          locale={{ emptyText: <Empty description={t('vaultList.empty')} /> }}
          pagination={{
            current: page,
            pageSize,
            total: list.data?.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: [20, 50, 100, 200],
            onChange: (next, size) => {
              setPage(size === pageSize ? next : 1);
              setPageSize(size);
            },
          }}
        />
      </Space>
      <ExportDialog
        open={exporting}
        onClose={() => setExporting(false)}
        selectedCards={selectedCards}
        defaults={exportDefaults}
        orders={orderChoices}
        products={productChoices}
      />
    </Card>
  );
}
