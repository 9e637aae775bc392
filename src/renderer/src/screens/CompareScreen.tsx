// Compare merchants (issue 17, contract §15.4): one search over every profile's catalog with the
// merchant, the price and the stock side by side; rows of the same link gathered and marked, the
// cheapest row in stock marked; from a row the buyer links a variant to its counterpart at another
// merchant; below, the buyer's links with their members, prices and fallback rules.
import '../compare.css';
import { LinkOutlined } from '@ant-design/icons';
import { Button, Card, Checkbox, Empty, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { LinkCard } from '../components/LinkCard';
import { LinkVariantsModal } from '../components/LinkVariantsModal';
import { MerchantName } from '../components/MerchantName';
import { Untranslated } from '../components/MerchantText';
import { ProblemAlert } from '../components/ProblemAlert';
import { SearchAsYouType } from '../components/SearchAsYouType';
import { SupplyTag } from '../components/SupplyTag';
import { useI18n } from '../i18n/use-i18n';
import { compareLines, type CompareLine } from '../lib/compare-view';
import { explainError } from '../lib/explain-error';
import { formatFen } from '../lib/money';
import { priceVaries } from '../lib/price-from';
import { useCompare, useLinks } from '../queries/compare';
import { useUiStore } from '../state/ui-store';
import { productSupplyStatus } from '../../../shared/merchant/supply-status';
import type { CompareRow } from '../../../shared/ipc/views/compare';

function CompareSearch() {
  const { t } = useI18n();
  const compareText = useUiStore((state) => state.compareText);
  const setCompareText = useUiStore((state) => state.setCompareText);
  return <SearchAsYouType testId="compare-search" placeholder={t('compare.search')} value={compareText} maxLength={200} onSearch={setCompareText} />;
}

function CompareTable({ lines, rows, onLink }: { lines: CompareLine[]; rows: readonly CompareRow[]; onLink: (row: CompareRow) => void }) {
  const { t } = useI18n();
  return (
    <Table<CompareLine>
      size="small"
      pagination={false}
      rowKey={(line) => `${line.row.merchant.profileId}/${line.row.product.productRef}`}
      dataSource={lines}
      rowClassName={(line) => (line.groupLinkId !== null ? 'compare-row-linked' : '')}
      onRow={(line) => ({ 'data-testid': 'compare-row', 'data-profile': line.row.merchant.profileId, 'data-product': line.row.product.productRef } as React.HTMLAttributes<HTMLElement>)}
      locale={{ emptyText: <Empty description={t('compare.noResults')} /> }}
      columns={[
        { title: t('compare.col.merchant'), key: 'merchant', width: 150, render: (_, line) => <MerchantName merchant={line.row.merchant} /> },
        {
          title: t('compare.col.product'),
          key: 'product',
          render: (_, line) => (
            <Space direction="vertical" size={0}>
              <Untranslated>{line.row.product.name}</Untranslated>
              {line.row.product.brandName !== null ? (
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  <Untranslated>{line.row.product.brandName}</Untranslated>
                </Typography.Text>
              ) : null}
            </Space>
          ),
        },
        {
          title: t('compare.col.price'),
          key: 'price',
          align: 'right',
          width: 170,
          render: (_, line) => (
            <Space size={4} wrap>
              <span data-testid="compare-price">{line.row.product.priceFromFen === null ? '—' : priceVaries(line.row.product) ? t('compare.priceFrom', { price: formatFen(line.row.product.priceFromFen) }) : formatFen(line.row.product.priceFromFen)}</span>
              {line.cheapestInStock ? <Tag color="green" data-testid="compare-cheapest">{t('compare.cheapest')}</Tag> : null}
            </Space>
          ),
        },
        { title: t('compare.col.stock'), key: 'stock', width: 130, render: (_, line) => <SupplyTag status={productSupplyStatus(line.row.product.availability, line.row.product.inStock)} /> },
        {
          title: t('compare.col.link'),
          key: 'link',
          width: 120,
          render: (_, line) =>
            line.groupLinkId !== null ? (
              <Tag icon={<LinkOutlined />} color="purple" data-testid="compare-linked" data-link-id={line.groupLinkId}>
                {t('compare.linked', { id: String(line.groupLinkId) })}
              </Tag>
            ) : null,
        },
        {
          title: '',
          key: 'actions',
          width: 120,
          align: 'right',
          render: (_, line) => (
            <Button size="small" icon={<LinkOutlined />} disabled={!rows.some((row) => row.merchant.profileId !== line.row.merchant.profileId)} onClick={() => onLink(line.row)} data-testid="compare-link-start">
              {t('compare.linkAction')}
            </Button>
          ),
        },
      ]}
    />
  );
}

export function CompareScreen() {
  const { t, locale } = useI18n();
  const text = useUiStore((state) => state.compareText);
  const [inStock, setInStock] = useState(false);
  const [linking, setLinking] = useState<CompareRow | null>(null);
  const result = useCompare(text, inStock);
  const links = useLinks();
  const rows = result.data?.rows ?? [];
  const lines = compareLines(rows);
  return (
    <div className="compare-screen" data-testid="compare-screen">
      <Card size="small">
        <CompareSearch />
        <Space wrap size="middle" style={{ marginTop: 12 }}>
          <Checkbox data-testid="compare-in-stock" checked={inStock} onChange={(event) => setInStock(event.target.checked)}>
            {t('catalog.inStockOnly')}
          </Checkbox>
          {(result.data?.perMerchant ?? []).map((entry) => (
            <span key={entry.merchant.profileId} data-testid="compare-merchant-total">
              <MerchantName merchant={entry.merchant} />
              <Typography.Text type="secondary">{t(entry.totalIsLowerBound ? 'compare.totalAtLeast' : 'compare.total', { count: entry.total.toLocaleString(locale) })}</Typography.Text>
            </span>
          ))}
        </Space>
        <div style={{ marginTop: 12 }} data-testid="compare-results" data-loading={result.isFetching ? 'true' : 'false'}>
          {text.trim() === '' ? <Typography.Text type="secondary">{t('compare.typeToSearch')}</Typography.Text> : null}
          {result.error !== null ? <ProblemAlert explained={explainError(result.error)} testId="compare-error" /> : null}
          {text.trim() !== '' && result.error === null ? <CompareTable lines={lines} rows={rows} onLink={setLinking} /> : null}
        </div>
      </Card>
      <Card size="small" title={t('compare.links.title')} style={{ marginTop: 16 }} data-testid="compare-links">
        {links.error !== null ? <ProblemAlert explained={explainError(links.error)} /> : null}
        {links.data !== undefined && links.data.length === 0 ? <Typography.Text type="secondary">{t('compare.links.none')}</Typography.Text> : null}
        <Space direction="vertical" style={{ width: '100%' }} size="middle">
          {(links.data ?? []).map((link) => (
            <LinkCard key={link.linkId} link={link} />
          ))}
        </Space>
      </Card>
      {linking !== null ? <LinkVariantsModal source={linking} rows={rows} onClose={() => setLinking(null)} /> : null}
    </div>
  );
}
