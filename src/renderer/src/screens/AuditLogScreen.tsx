// The audit log: every reveal, copy and export of card codes (when, what, which cards, how many, the
// format), newest first across every merchant (a merchant column and filter when there are several,
// paged per merchant: lib/audit-cursor.ts), filtered by action, older entries loaded on demand. It shows references
// only: the log never held a secret. Rows are worded from their facts in the buyer's language (cards
// named as the vault names them, #1 first); a row written before facts existed shows its text. A row
// for a card of a refunded or cancelled order carries a tag saying the buyer was told.
import { AuditOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Empty, Select, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { AUDIT_ACTIONS, AUDIT_REFUND_ACKNOWLEDGED, type AuditEntry } from '../../../shared/ipc/views/audit';
import { ProblemAlert } from '../components/ProblemAlert';
import { useI18n } from '../i18n/use-i18n';
import { auditDetailWords, auditSubjectWords } from '../lib/audit-words';
import { explainError } from '../lib/explain-error';
import { formatSeconds } from '../lib/format-time';
import { testId } from '../lib/test-id';
import { useAuditLog, type AuditAction } from '../queries/vault-export';
import { MerchantFilterSelect, useMerchantColumn, useMerchantFilter } from '../components/MerchantColumn';

const ACTION_COLORS: Readonly<Record<AuditAction, string>> = { reveal: 'gold', copy: 'purple', export: 'blue' };
const FILTERS = ['all', ...AUDIT_ACTIONS] as const;
const actionOf = (value: string): AuditAction | null => AUDIT_ACTIONS.find((a) => a === value) ?? null;
const refundAcknowledged = (row: AuditEntry): boolean => row.facts?.refundAcknowledged !== undefined || row.detail?.includes(AUDIT_REFUND_ACKNOWLEDGED) === true;

export function AuditLogScreen() {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const [action, setAction] = useState<AuditAction | null>(null);
  const merchants = useMerchantFilter();
  const log = useAuditLog(action, merchants.input.profile ?? null);
  const merchantColumn = useMerchantColumn<AuditEntry>(merchants.shown);
  const rows = log.data?.pages.flat() ?? [];

  const columns: ColumnsType<AuditEntry> = [
    ...merchantColumn,
    { key: 'at', title: t('audit.col.at'), width: 180, className: 'time-cell', render: (_v, row) => formatSeconds(row.at, locale) },
    {
      key: 'action',
      title: t('audit.col.action'),
      width: 200,
      render: (_v, row) => {
        const known = actionOf(row.action);
        // An action written by another build stays visible under its raw name.
        return (
          <>
            <Tag color={known === null ? 'default' : ACTION_COLORS[known]}>{known === null ? row.action : t(`audit.action.${known}`)}</Tag>
            {refundAcknowledged(row) ? (
              <Tag color="red" data-testid="audit-refund-acknowledged">
                {t('audit.refundAcknowledged')}
              </Tag>
            ) : null}
          </>
        );
      },
    },
    { key: 'subject', title: t('audit.col.subject'), render: (_v, row) => (row.facts === null ? row.subject : auditSubjectWords(i18n, row.facts)) },
    { key: 'count', title: t('audit.col.count'), width: 90, align: 'right', render: (_v, row) => row.cardCount },
    { key: 'format', title: t('audit.col.format'), width: 80, render: (_v, row) => row.format ?? '—' },
    { key: 'detail', title: t('audit.col.detail'), ellipsis: true, render: (_v, row) => (row.facts === null ? (row.detail ?? '') : auditDetailWords(i18n, row.facts)) },
  ];

  return (
    <Card data-testid="audit-screen">
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Alert type="info" showIcon icon={<AuditOutlined />} title={t('audit.note')} />
        <Space wrap>
        <MerchantFilterSelect filter={merchants} testId="audit-filter-merchant" />
        <Select<(typeof FILTERS)[number]>
          data-testid="audit-filter"
          style={{ width: 200 }}
          aria-label={t('audit.filter')}
          value={action ?? 'all'}
          onChange={(value) => setAction(value === 'all' ? null : value)}
          options={FILTERS.map((f) => ({ value: f, label: f === 'all' ? t('audit.filter.all') : t(`audit.action.${f}`) }))}
        />
        </Space>
        {log.error !== null ? <ProblemAlert explained={explainError(log.error)} /> : null}
        <Table<AuditEntry>
          data-testid="audit-table"
          size="small"
          rowKey={(row) => `${row.merchant?.profileId ?? ''}:${row.id}`}
          columns={columns}
          dataSource={rows}
          loading={log.isLoading}
          pagination={false}
          onRow={(row) => testId('audit-row', { action: row.action, id: row.id, 'profile-id': row.merchant?.profileId ?? '' })}
          locale={{ emptyText: <Empty description={t('audit.empty')} /> }}
        />
        {log.hasNextPage ? (
          <Button onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage} data-testid="audit-more">
            {t('audit.more')}
          </Button>
        ) : null}
      </Space>
    </Card>
  );
}
