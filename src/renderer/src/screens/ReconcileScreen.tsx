// Reconciliation (对账): the buyer picks the days (yesterday by default, in their time zone) and presses
// Reconcile; the merchant's order list is read page by page (progress shown) and compared with the
// app's books, the balance checked. The totals, the balance and each difference with its action follow;
// the report exports as XLSX or CSV (no card secret in it; the web host hands it over as a download).
import { ReconciliationOutlined } from '@ant-design/icons';
import { Alert, App as AntApp, Button, Card, Col, Dropdown, Progress, Row, Space, Statistic, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import type { ReconcileDifference, ReconcileProgress, ReconcileReport } from '../../../shared/ipc/views/reconcile';
import { api } from '../bridge';
import { DayPicker } from '../components/DayPicker';
import { ProblemAlert } from '../components/ProblemAlert';
import { ReconcileBalance } from '../components/ReconcileBalance';
import { ReconcileDifferences } from '../components/ReconcileDifferences';
import { ReconcileHeadline } from '../components/ReconcileHeadline';
import { addDays } from '../../../shared/date-time';
import { useI18n } from '../i18n/use-i18n';
import { today } from '../lib/day-range';
import { startBrowserDownload } from '../lib/browser-download';
import { explainError } from '../lib/explain-error';
import { formatFen } from '../lib/money';
import { useExportReconcile, useLatestReconcile, useRecordForeign, useRefreshForReconcile, useRunReconcile } from '../queries/reconcile';
import { useAftersaleStore } from '../state/aftersale-store';

/** Yesterday in this page's zone, as core counts the report's days. */
const yesterday = (): string => addDays(today(), -1);

function Totals({ report }: { report: ReconcileReport }) {
  const { t } = useI18n();
  const s = report.totals;
  return (
    <Row gutter={[16, 16]} data-testid="reconcile-totals">
      <Col xs={12} md={6} xl={3}>
        <Statistic title={t('reconcile.stat.merchantOrders')} value={s.merchantOrders} />
      </Col>
      <Col xs={12} md={6} xl={3}>
        <Statistic title={t('reconcile.stat.appOrders')} value={s.appOrders} />
      </Col>
      <Col xs={12} md={6} xl={3}>
        <Statistic title={t('reconcile.stat.charged')} value={formatFen(s.merchantChargedFen)} />
      </Col>
      <Col xs={12} md={6} xl={3} data-testid="reconcile-book-charged" data-fen={s.bookChargedFen}>
        <Statistic title={t('reconcile.stat.bookCharged')} value={formatFen(s.bookChargedFen)} />
      </Col>
      <Col xs={12} md={6} xl={3} data-testid="reconcile-book-refunded" data-fen={s.bookRefundedFen}>
        <Statistic title={t('reconcile.stat.bookRefunded')} value={formatFen(s.bookRefundedFen)} />
      </Col>
      <Col xs={12} md={6} xl={3}>
        <Statistic title={t('reconcile.stat.unknownStates')} value={s.unknownStates} />
      </Col>
      <Col xs={12} md={6} xl={3}>
        <Statistic title={t('reconcile.stat.requests')} value={report.requests} />
      </Col>
    </Row>
  );
}

export function ReconcileScreen() {
  const { t, locale } = useI18n();
  const { message } = AntApp.useApp();
  const latest = useLatestReconcile();
  const run = useRunReconcile();
  const refresh = useRefreshForReconcile();
  const recordForeign = useRecordForeign();
  const exporter = useExportReconcile();
  const openCaseForm = useAftersaleStore((state) => state.openCaseForm);
  const [fromDay, setFromDay] = useState(yesterday);
  const [toDay, setToDay] = useState(yesterday);
  const [progress, setProgress] = useState<ReconcileProgress | null>(null);
  useEffect(() => api.books.onReconcileProgress(setProgress), []);

  const report = latest.data ?? null;
  // The days of the report shown, until the buyer picks others.
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (touched || report === null) return;
    setFromDay(report.fromDay);
    setToDay(report.toDay);
  }, [report, touched]);
  const error = run.error ?? refresh.error ?? recordForeign.error ?? exporter.error;
  const busyRef = refresh.isPending ? (refresh.variables ?? null) : recordForeign.isPending ? (recordForeign.variables ?? null) : null;

  const start = (): void => {
    setProgress(null);
    run.mutate({ fromDay, toDay });
  };
  const exportAs = (format: 'xlsx' | 'csv'): void =>
    exporter.mutate(
      { format, language: locale },
      {
        onSuccess: (answer) => {
          if (answer.status !== 'written') return;
          if (answer.downloadUrl !== undefined) startBrowserDownload(answer.downloadUrl, answer.fileName);
          void message.success(t('reconcile.exported', { file: answer.fileName }));
        },
      },
    );
  const openCase = (d: Extract<ReconcileDifference, { kind: 'cards' }>): void =>
    openCaseForm(d.clientOrderRef, { category: 'notReceived', description: t('reconcile.caseText', { count: d.merchantCards, units: d.units }) });

  return (
    <Card data-testid="reconcile-screen">
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Alert type="info" showIcon icon={<ReconciliationOutlined />} title={t('reconcile.note')} />
        <Space wrap>
          <span>{t('reconcile.from')}</span>
          <DayPicker value={fromDay} onChange={(day) => {
              setTouched(true);
              setFromDay(day);
            }} testId="reconcile-from" width={170} latest={today()} label={t('reconcile.from')} />
          <span>{t('reconcile.to')}</span>
          <DayPicker value={toDay} onChange={(day) => {
              setTouched(true);
              setToDay(day);
            }} testId="reconcile-to" width={170} latest={today()} label={t('reconcile.to')} />
          <Button type="primary" onClick={start} loading={run.isPending} disabled={fromDay === '' || toDay === ''} data-testid="reconcile-run">
            {t('reconcile.run')}
          </Button>
          <Dropdown
            disabled={report === null}
            menu={{ items: [
              { key: 'xlsx', label: <span data-testid="reconcile-export-xlsx">{t('reconcile.exportXlsx')}</span>, onClick: () => exportAs('xlsx') },
              { key: 'csv', label: <span data-testid="reconcile-export-csv">{t('reconcile.exportCsv')}</span>, onClick: () => exportAs('csv') },
            ] }}
          >
            <Button loading={exporter.isPending} data-testid="reconcile-export">
              {t('reconcile.export')}
            </Button>
          </Dropdown>
        </Space>
        {run.isPending ? (
          <div data-testid="reconcile-progress">
            <Typography.Text>
              {progress === null || progress.pageCount === null ? t('reconcile.progressUnknown') : t('reconcile.progress', { done: progress.pagesRead, total: progress.pageCount, requests: progress.requests })}
            </Typography.Text>
            <Progress percent={progress?.pageCount ? Math.round((100 * progress.pagesRead) / progress.pageCount) : 0} size="small" />
          </div>
        ) : null}
        {error !== null ? <ProblemAlert explained={explainError(error)} testId="reconcile-problem" /> : null}
        {report === null ? (
          <Typography.Text type="secondary" data-testid="reconcile-none">
            {t('reconcile.none')}
          </Typography.Text>
        ) : (
          <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="reconcile-report" data-differences={report.differences.length}>
            <Space wrap>
              <Typography.Text strong>{t('reconcile.range', { from: report.fromDay, to: report.toDay })}</Typography.Text>
              {report.resumed ? <Tag>{t('reconcile.resumed')}</Tag> : null}
            </Space>
            <ReconcileHeadline report={report} />
            <Totals report={report} />
            <ReconcileBalance balance={report.balance} />
            <ReconcileDifferences differences={report.differences} actions={{ busyRef, refresh: (ref) => refresh.mutate(ref), recordForeign: (ref) => recordForeign.mutate(ref), openCase }} />
          </Space>
        )}
      </Space>
    </Card>
  );
}
