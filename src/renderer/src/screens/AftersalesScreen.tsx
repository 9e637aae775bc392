// After-sales: every case of this app (of every merchant: a merchant column and filter when there are several), latest activity first, filtered by active (not resolved or
// closed; unknown states included), done, or unread; status, problem, the last message and the
// unread count per case. A row opens the case's chat.
import { ReloadOutlined } from '@ant-design/icons';
import { Badge, Button, Card, Empty, Segmented, Space, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useState } from 'react';
import type { CaseListQuery, CaseRow } from '../../../shared/ipc/views/aftersales';
import { CaseStatusTag } from '../components/CaseStatusTag';
import { ProblemAlert } from '../components/ProblemAlert';
import { useI18n } from '../i18n/use-i18n';
import { categoryLabel } from '../lib/case-status';
import { explainError } from '../lib/explain-error';
import { openableRow } from '../lib/openable-row';
import { formatSeconds } from '../lib/format-time';
import { testId } from '../lib/test-id';
import { useCases } from '../queries/aftersales';
import { useAftersaleStore } from '../state/aftersale-store';
import '../aftersales.css';
import { Untranslated, WithMerchantData } from '../components/MerchantText';
import { MerchantFilterSelect, useMerchantColumn, useMerchantFilter } from '../components/MerchantColumn';

type Filter = 'all' | 'active' | 'done' | 'unread';

const QUERIES: Record<Filter, CaseListQuery> = { all: {}, active: { state: 'active' }, done: { state: 'done' }, unread: { unreadOnly: true } };

function useColumns(merchants: boolean): TableColumnsType<CaseRow> {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const merchant = useMerchantColumn<CaseRow>(merchants);
  return [
    ...merchant,
    {
      title: t('aftersale.col.case'),
      key: 'case',
      render: (_, row) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text strong>
            <WithMerchantData text={row.productName ?? t('aftersale.form.order', { ref: row.platformOrderRef })} data={[row.productName, row.platformOrderRef]} />
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="case-row-refs">
            <Untranslated>{row.platformCaseRef}</Untranslated> · <WithMerchantData text={t('aftersale.form.order', { ref: row.platformOrderRef })} data={[row.platformOrderRef]} />
          </Typography.Text>
        </Space>
      ),
    },
    { title: t('aftersale.col.category'), key: 'category', width: 150, render: (_, row) => categoryLabel(row.category, i18n) },
    { title: t('aftersale.col.status'), key: 'status', width: 150, render: (_, row) => <CaseStatusTag state={row.state} /> },
    {
      title: t('aftersale.col.last'),
      key: 'last',
      render: (_, row) => (
        <Space orientation="vertical" size={0} className="case-row-preview">
          <Typography.Text ellipsis>{row.lastMessagePreview ?? row.description}</Typography.Text>
          {row.unsent > 0 ? (
            <Typography.Text type="warning" style={{ fontSize: 12 }}>
              {t('aftersale.unsent', { count: row.unsent })}
            </Typography.Text>
          ) : null}
        </Space>
      ),
    },
    {
      title: t('aftersale.col.updated'),
      key: 'updated',
      width: 200,
      render: (_, row) => (
        <Space>
          <span>{formatSeconds(row.lastMessageAt ?? row.updatedAt, locale)}</span>
          <span data-testid="case-row-unread" data-unread={row.unread}>
            <Badge count={row.unread} size="small" title={t('aftersale.unread', { count: row.unread })} />
          </span>
        </Space>
      ),
    },
  ];
}

export function AftersalesScreen() {
  const { t } = useI18n();
  const [filter, setFilter] = useState<Filter>('all');
  const merchants = useMerchantFilter();
  const cases = useCases({ ...QUERIES[filter], ...merchants.input });
  const openCase = useAftersaleStore((state) => state.openCase);
  const columns = useColumns(merchants.shown);
  return (
    <Card
      data-testid="aftersales-screen"
      title={
        <Space>
          <span>{t('aftersale.title')}</span>
          <Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>
            {t('aftersale.hint')}
          </Typography.Text>
        </Space>
      }
      extra={
        <Space wrap>
          <MerchantFilterSelect filter={merchants} testId="cases-filter-merchant" />
          <Segmented<Filter>
            data-testid="case-filter"
            value={filter}
            onChange={setFilter}
            options={(['all', 'active', 'done', 'unread'] as const).map((value) => ({ value, label: <span data-testid={`case-filter-${value}`}>{t(`aftersale.filter.${value}`)}</span> }))}
          />
          <Button icon={<ReloadOutlined />} onClick={() => void cases.refetch()} data-testid="cases-reload" aria-label={t('orders.refresh')} />
        </Space>
      }
    >
      {cases.error !== null ? <ProblemAlert explained={explainError(cases.error)} /> : null}
      <Table<CaseRow>
        rowKey="platformCaseRef"
        loading={cases.isLoading}
        columns={columns}
        dataSource={cases.data ?? []}
        pagination={{ pageSize: 50, showSizeChanger: false, hideOnSinglePage: true }}
        locale={{ emptyText: <Empty description={t('aftersale.empty')} /> }}
        onRow={(row) => ({
          ...testId('case-row', { ref: row.platformCaseRef, state: row.state }),
          ...openableRow(() => openCase(row.platformCaseRef), { label: t('a11y.openCase', { subject: row.productName ?? t('aftersale.form.order', { ref: row.platformOrderRef }), ref: row.platformCaseRef }), kind: 'row' }),
        })}
        data-testid="cases-table"
      />
    </Card>
  );
}
