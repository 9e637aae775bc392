// The differences of a reconciliation, one row each, with the action its kind allows: refresh one of the
// app's orders from the merchant (a mismatch, a card count the vault lacks), record an order placed
// elsewhere read-only, open after-sales for cards the merchant did not deliver. Merchant data is marked
// untranslated.
import { Button, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { DifferenceKind, MismatchField, OrderFactsView, ReconcileDifference } from '../../../shared/ipc/views/reconcile';
import { useI18n } from '../i18n/use-i18n';
import { formatFen } from '../lib/money';
import { testId } from '../lib/test-id';
import { Untranslated } from './MerchantText';
import { OrderStatusTag } from './OrderStatusTag';

const KIND_COLOR: Readonly<Record<DifferenceKind, string>> = { foreign: 'purple', mismatch: 'orange', cards: 'red', notReceived: 'volcano' };

export interface DifferenceActions {
  readonly busyRef: string | null;
  refresh(clientOrderRef: string): void;
  recordForeign(clientOrderRef: string): void;
  openCase(difference: Extract<ReconcileDifference, { kind: 'cards' }>): void;
}

/** State (unknown ones raw, never as success), units and money of one side. */
function Facts({ facts }: { facts: OrderFactsView }) {
  const { t } = useI18n();
  const total = formatFen(facts.totalFen);
  return (
    <Space size={4} wrap>
      <OrderStatusTag intentStatus="accepted" state={facts.state} />
      <span>
        ×{facts.units} · {facts.refundedFen > 0 ? t('join.note', { text: total, note: `−${formatFen(facts.refundedFen)}` }) : total}
      </span>
    </Space>
  );
}

export function ReconcileDifferences({ differences, actions }: { differences: readonly ReconcileDifference[]; actions: DifferenceActions }) {
  const { t } = useI18n();
  const fieldWords = (fields: readonly MismatchField[]): string => fields.map((f) => t(`reconcile.field.${f}`)).join(t('join.list'));
  const busy = (ref: string): boolean => actions.busyRef === ref;

  const columns: ColumnsType<ReconcileDifference> = [
    {
      key: 'kind',
      title: t('reconcile.col.kind'),
      width: 150,
      render: (_v, d) => (
        <Tooltip title={t(`reconcile.kindHelp.${d.kind}`)}>
          <Tag color={KIND_COLOR[d.kind]}>{t(`reconcile.kind.${d.kind}`)}</Tag>
        </Tooltip>
      ),
    },
    {
      key: 'order',
      title: t('reconcile.col.order'),
      render: (_v, d) => (
        <Space orientation="vertical" size={0}>
          <Untranslated kind="merchant">{d.platformOrderRef ?? d.clientOrderRef}</Untranslated>
          {d.productName !== null ? (
            <Typography.Text type="secondary">
              <Untranslated kind="merchant">{d.productName}</Untranslated>
            </Typography.Text>
          ) : null}
        </Space>
      ),
    },
    {
      key: 'merchant',
      title: t('reconcile.col.merchant'),
      render: (_v, d) => {
        if (d.kind === 'foreign' || d.kind === 'mismatch') return <Facts facts={d.merchant} />;
        if (d.kind === 'cards') return t('reconcile.cards', { count: d.merchantCards, units: d.units });
        return '—';
      },
    },
    {
      key: 'app',
      title: t('reconcile.col.app'),
      render: (_v, d) => {
        if (d.kind === 'mismatch') {
          return (
            <Space orientation="vertical" size={0}>
              {d.local === null ? '—' : <Facts facts={d.local} />}
              <Typography.Text type="warning">{fieldWords(d.fields)}</Typography.Text>
            </Space>
          );
        }
        if (d.kind === 'cards') return t('reconcile.cards', { count: d.vaultCards, units: d.units });
        if (d.kind === 'notReceived') return <OrderStatusTag intentStatus={d.intentStatus} state={null} />;
        return '—';
      },
    },
    {
      key: 'action',
      title: t('reconcile.col.action'),
      width: 180,
      render: (_v, d) => {
        if (d.kind === 'foreign') {
          return (
            <Button size="small" loading={busy(d.clientOrderRef)} onClick={() => actions.recordForeign(d.clientOrderRef)} data-testid="reconcile-record-foreign">
              {t('reconcile.action.recordForeign')}
            </Button>
          );
        }
        if (d.kind === 'cards' && d.merchantCards < d.units) {
          return (
            <Button size="small" onClick={() => actions.openCase(d)} data-testid="reconcile-open-case">
              {t('reconcile.action.openCase')}
            </Button>
          );
        }
        if (d.kind === 'mismatch' || d.kind === 'cards') {
          return (
            <Button size="small" loading={busy(d.clientOrderRef)} onClick={() => actions.refresh(d.clientOrderRef)} data-testid="reconcile-refresh">
              {t('reconcile.action.refresh')}
            </Button>
          );
        }
        return null;
      },
    },
  ];

  return (
    <Table<ReconcileDifference>
      data-testid="reconcile-differences"
      size="small"
      rowKey={(d) => `${d.kind}:${d.clientOrderRef}`}
      columns={columns}
      dataSource={[...differences]}
      pagination={differences.length > 50 ? { pageSize: 50 } : false}
      onRow={(d) => testId('reconcile-row', { kind: d.kind, ref: d.clientOrderRef })}
      locale={{ emptyText: t('reconcile.empty') }}
    />
  );
}
