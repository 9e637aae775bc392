// Spend at a glance: one report (core/books/spend-report.ts) for the range and filters the buyer picks,
// drawn as charts; every chart's data exports as CSV or XLSX (saved where the buyer says in the desktop
// app, downloaded in the browser). Days are the page's time zone's, and the screen says which.
import { DownloadOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Col, Dropdown, Empty, Row, Segmented, Select, Space, Spin, Statistic, Typography } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import type { SpendChart, SpendQuery, SpendReport } from '../../../shared/ipc/views/books';
import { MAX_SPEND_RANGE_DAYS, SPEND_PRODUCT_TYPES } from '../../../shared/ipc/views/books';
import { Untranslated } from '../components/MerchantText';
import { TimeZoneLine } from '../components/TimeZoneLine';
import { ProblemAlert } from '../components/ProblemAlert';
import { BalanceChart, DeliveryChart, OutcomesChart, SpendGroupChart, SpendPerDayChart } from '../components/SpendCharts';
import { useI18n } from '../i18n/use-i18n';
import { startBrowserDownload } from '../lib/browser-download';
import { dayRange } from '../lib/day-range';
import { explainError } from '../lib/explain-error';
import { formatFen } from '../lib/money';
import { lastDays, pageTimeZone, type RangePreset } from '../lib/spend-view';
import { useExportSpend, useSpendReport } from '../queries/books';
import { DayPicker } from '../components/DayPicker';

type ProductType = (typeof SPEND_PRODUCT_TYPES)[number];

interface Filters {
  readonly preset: RangePreset;
  readonly from: string;
  readonly to: string;
  readonly catalogRef: number | null;
  readonly productRef: number | null;
  readonly productType: ProductType | null;
}

const DAY_SECONDS = 86_400;

/** The query for the filters, or null while a custom range is not a valid one. */
function queryOf(filters: Filters, timeZone: string): SpendQuery | null {
  const days = filters.preset === 'custom' ? { from: filters.from, to: filters.to } : lastDays(Number(filters.preset));
  const range = dayRange(days.from, days.to);
  if (range === null || (range.to - range.from) / DAY_SECONDS > MAX_SPEND_RANGE_DAYS + 1) return null;
  return {
    ...days,
    timeZone,
    ...(filters.catalogRef === null ? {} : { catalogRef: filters.catalogRef }),
    ...(filters.productRef === null ? {} : { productRef: filters.productRef }),
    ...(filters.productType === null ? {} : { productType: filters.productType }),
  };
}

function ExportButton({ query, chart }: { query: SpendQuery; chart: SpendChart }) {
  const { t, td, locale } = useI18n();
  const { message } = App.useApp();
  const exporter = useExportSpend();
  const run = (format: 'csv' | 'xlsx'): void => {
    exporter.mutate(
      { query, chart, format, language: locale },
      {
        onSuccess: (answer) => {
          if (answer.status !== 'written') return;
          if (answer.downloadUrl !== undefined) {
            startBrowserDownload(answer.downloadUrl, answer.fileName);
            void message.success(t('dashboard.downloaded', { file: answer.fileName }));
          } else void message.success(t('dashboard.exported', { count: answer.count, path: answer.path }));
        },
        onError: (error) => void message.error(td(`problem.${explainError(error).problem}.title`, 'problem.unknown.title')),
      },
    );
  };
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          { key: 'csv', label: <span data-testid={`export-${chart}-csv`}>{t('dashboard.export.csv')}</span> },
          { key: 'xlsx', label: <span data-testid={`export-${chart}-xlsx`}>{t('dashboard.export.xlsx')}</span> },
        ],
        onClick: ({ key }) => run(key === 'xlsx' ? 'xlsx' : 'csv'),
      }}
    >
      <Button size="small" icon={<DownloadOutlined />} loading={exporter.isPending} data-testid={`export-${chart}`}>
        {t('dashboard.export')}
      </Button>
    </Dropdown>
  );
}

function ChartCard({ title, chart, query, children, footer }: { title: string; chart: SpendChart; query: SpendQuery; children: ReactNode; footer?: ReactNode }) {
  return (
    <Card size="small" title={title} extra={<ExportButton query={query} chart={chart} />} data-testid={`card-${chart}`}>
      {children}
      {footer}
    </Card>
  );
}

function Totals({ report }: { report: SpendReport }) {
  const { t } = useI18n();
  const totals = report.totals;
  const rate = totals.successRate === null ? '—' : `${(totals.successRate * 100).toFixed(1)}%`;
  const delivery = totals.medianDeliverySeconds === null ? '—' : t('dashboard.minutes', { value: (totals.medianDeliverySeconds / 60).toFixed(1) });
  const items: [string, string, string][] = [
    ['orders', t('dashboard.total.orders'), String(totals.orders)],
    ['charged', t('dashboard.total.charged'), formatFen(totals.chargedFen)],
    ['refunded', t('dashboard.total.refunded'), formatFen(totals.refundedFen)],
    ['net', t('dashboard.total.net'), formatFen(totals.netFen)],
    ['successRate', t('dashboard.total.successRate'), rate],
    ['medianDelivery', t('dashboard.total.medianDelivery'), delivery],
  ];
  return (
    <Card size="small">
      <Row gutter={[16, 8]}>
        {items.map(([key, label, value]) => (
          <Col key={key} xs={12} md={8} xl={4}>
            <Statistic title={label} value={value} data-testid={`total-${key}`} />
          </Col>
        ))}
      </Row>
      <Typography.Text type="secondary" data-testid="total-outcomes">
        {t('dashboard.total.outcomes', { completed: totals.completed, unsuccessful: totals.unsuccessful, inProgress: totals.inProgress, unknown: totals.unknownState })}
      </Typography.Text>
    </Card>
  );
}

function FilterBar({ filters, onChange, report, timeZone }: { filters: Filters; onChange: (patch: Partial<Filters>) => void; report: SpendReport | null; timeZone: string }) {
  const { t } = useI18n();
  const categories = report?.choices.categories ?? [];
  const products = report?.choices.products ?? [];
  return (
    <Card size="small">
      <Space wrap size="middle">
        <Segmented<RangePreset>
          aria-label={t('dashboard.range')}
          value={filters.preset}
          onChange={(preset) => onChange({ preset })}
          options={(['30', '90', 'custom'] as const).map((value) => ({ value, label: <span data-testid={`range-${value}`}>{t(`dashboard.range.${value}`)}</span> }))}
        />
        {filters.preset === 'custom' ? (
          <Space size="small">
            <DayPicker label={t('dashboard.from')} value={filters.from} onChange={(day) => onChange({ from: day })} testId="range-from" />
            <DayPicker label={t('dashboard.to')} value={filters.to} onChange={(day) => onChange({ to: day })} testId="range-to" />
          </Space>
        ) : null}
        <Select<number | null>
          style={{ minWidth: 160 }}
          value={filters.catalogRef}
          onChange={(catalogRef) => onChange({ catalogRef })}
          data-testid="filter-category"
          options={[{ value: null, label: t('dashboard.allCategories') }, ...categories.map((c) => ({ value: c.key, label: <Untranslated>{c.name ?? String(c.key)}</Untranslated> }))]}
        />
        <Select<number | null>
          style={{ minWidth: 200 }}
          value={filters.productRef}
          onChange={(productRef) => onChange({ productRef })}
          data-testid="filter-product"
          popupMatchSelectWidth={false}
          options={[{ value: null, label: t('dashboard.allProducts') }, ...products.map((p) => ({ value: p.key, label: <Untranslated>{p.name ?? String(p.key)}</Untranslated> }))]}
        />
        <Select<ProductType | null>
          style={{ minWidth: 140 }}
          value={filters.productType}
          onChange={(productType) => onChange({ productType })}
          data-testid="filter-type"
          options={[{ value: null, label: t('dashboard.allTypes') }, ...SPEND_PRODUCT_TYPES.map((type) => ({ value: type, label: t(`dashboard.type.${type}`) }))]}
        />
        <TimeZoneLine timeZone={timeZone} />
      </Space>
    </Card>
  );
}

function Charts({ report, query }: { report: SpendReport; query: SpendQuery }) {
  const { t } = useI18n();
  const empty = report.totals.orders === 0;
  const nothing = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dashboard.empty')} />;
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24}>
        <ChartCard title={t('dashboard.chart.days')} chart="days" query={query}>
          {empty ? nothing : <SpendPerDayChart report={report} />}
        </ChartCard>
      </Col>
      <Col xs={24} xl={12}>
        <ChartCard title={t('dashboard.chart.categories')} chart="categories" query={query}>
          {empty ? nothing : <SpendGroupChart groups={report.byCategory} testId="chart-categories" unnamed={() => t('dashboard.unknownCategory')} />}
        </ChartCard>
      </Col>
      <Col xs={24} xl={12}>
        <ChartCard title={t('dashboard.chart.products')} chart="products" query={query}>
          {empty ? nothing : <SpendGroupChart groups={report.byProduct} testId="chart-products" unnamed={(key) => t('dashboard.unknownProduct', { ref: key ?? '—' })} />}
        </ChartCard>
      </Col>
      <Col xs={24} xl={12}>
        <ChartCard title={t('dashboard.chart.outcomes')} chart="outcomes" query={query}>
          {empty ? nothing : <OutcomesChart report={report} />}
        </ChartCard>
      </Col>
      <Col xs={24} xl={12}>
        <ChartCard title={t('dashboard.chart.delivery')} chart="delivery" query={query}>
          {report.totals.medianDeliverySeconds === null ? nothing : <DeliveryChart report={report} />}
        </ChartCard>
      </Col>
      <Col xs={24}>
        <ChartCard
          title={t('dashboard.chart.balance')}
          chart="balance"
          query={query}
          footer={report.balance.length > 1 ? <Typography.Text type="secondary">{t('dashboard.balanceGaps')}</Typography.Text> : null}
        >
          {report.balance.length === 0 ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dashboard.balanceEmpty')} /> : <BalanceChart report={report} />}
        </ChartCard>
      </Col>
    </Row>
  );
}

export function DashboardScreen() {
  const { t } = useI18n();
  const timeZone = useMemo(pageTimeZone, []);
  const [filters, setFilters] = useState<Filters>(() => ({ preset: '30', ...lastDays(30), catalogRef: null, productRef: null, productType: null }));
  const query = queryOf(filters, timeZone);
  const report = useSpendReport(query);
  const data = report.data ?? null;
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="dashboard">
      <FilterBar filters={filters} onChange={(patch) => setFilters((current) => ({ ...current, ...patch }))} report={data} timeZone={timeZone} />
      {query === null ? <Alert type="warning" showIcon title={t('dashboard.rangeInvalid')} data-testid="range-invalid" /> : null}
      {report.error !== null ? <ProblemAlert explained={explainError(report.error)} /> : null}
      {data === null || query === null ? (
        report.isLoading ? <Spin /> : null
      ) : (
        <>
          <Totals report={data} />
          <Charts report={data} query={query} />
          <Typography.Text type="secondary">{t('dashboard.rules')}</Typography.Text>
        </>
      )}
    </Space>
  );
}
