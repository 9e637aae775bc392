// The batch after Pay: every row's status, live (each pushed orders.changed refreshes it), the time
// left at the merchant's order quota, the rows the price guard parked with the price asked now (the
// buyer confirms it or leaves them), retry of the failed rows only, and the results next to the file.
import { Alert, Button, Progress, Space, Tag, Typography } from 'antd';
import type { BatchStatusRow, BatchStatusView } from '../../../shared/ipc/views/batch';
import { useI18n } from '../i18n/use-i18n';
import { etaParts } from '../lib/batch-file';
import { formatFen } from '../lib/money';
import { BatchRowFailure } from './BatchRowFailure';
import { BatchChargedLine, BatchStatusMerchantNotice, useStatusMerchantColumns } from './BatchMerchants';
import { BatchRowsTable, type BatchColumn } from './BatchRowsTable';
import { Untranslated } from './MerchantText';
import { OrderStatusTag } from './OrderStatusTag';

interface Props {
  readonly status: BatchStatusView;
  readonly busy: boolean;
  readonly retryNote: string | null;
  onRetry: () => void;
  onConfirmPrice: (unitPriceFen: number) => void;
  onExport: (format: 'csv' | 'xlsx') => void;
  onClose: () => void;
}

const PHASE_COLORS = { queued: 'default', sending: 'processing', accepted: 'success', failed: 'error', waiting: 'warning', withdrawn: 'default' } as const;

function Eta({ etaMs }: { etaMs: number | null }) {
  const { t } = useI18n();
  if (etaMs === null) return <Typography.Text type="secondary">{t('batch.etaDone')}</Typography.Text>;
  const { unit, count } = etaParts(etaMs);
  return <Typography.Text data-testid="batch-eta">{t('batch.eta', { time: unit === 'minutes' ? t('batch.minutes', { count }) : t('batch.seconds', { count }) })}</Typography.Text>;
}

export function BatchProgressStep({ status, busy, retryNote, onRetry, onConfirmPrice, onExport, onClose }: Props) {
  const { t } = useI18n();
  const { counts } = status;
  const total = status.rows.length;
  // Rows waiting for the buyer are not done: the bar does not fill (nor turn green) while any waits.
  const done = counts.accepted + counts.failed + counts.withdrawn;
  const merchantColumns = useStatusMerchantColumns(status);
  const columns: BatchColumn<BatchStatusRow>[] = [
    { key: 'row', title: t('batch.colRow'), width: '56px', render: (row) => row.rowNumber },
    {
      key: 'phase',
      title: t('batch.colStatus'),
      width: '110px',
      render: (row) => (
        <Tag color={PHASE_COLORS[row.phase]} data-testid="batch-row-phase" data-phase={row.phase}>
          {t(`batch.phase.${row.phase}`)}
        </Tag>
      ),
    },
    {
      key: 'status',
      title: '',
      width: 'minmax(140px, 1fr)',
      render: (row) => (
        <>
          <OrderStatusTag intentStatus={row.intentStatus} state={row.state} />
          <BatchRowFailure row={row} />
        </>
      ),
    },
    { key: 'amount', title: t('batch.colAmount'), width: '96px', render: (row) => formatFen(row.totalFen ?? (row.confirmedUnitPriceFen === null ? null : row.confirmedUnitPriceFen * row.units)) },
    ...merchantColumns,
    {
      key: 'ref',
      title: t('batch.colOrderRef'),
      width: 'minmax(160px, 1.2fr)',
      render: (row) => (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} title={row.earlierRefs.length > 0 ? t('batch.earlierRefs', { refs: row.earlierRefs.join(t('join.list')) }) : undefined}>
          <Untranslated kind="reference">{row.platformOrderRef ?? row.clientOrderRef}</Untranslated>
        </Typography.Text>
      ),
    },
  ];
  return (
    <div data-testid="batch-status" data-batch={status.batchId} data-open={counts.queued + counts.sending} data-accepted={counts.accepted} data-failed={counts.failed}>
      <Typography.Title level={5}>{t('batch.statusTitle')}</Typography.Title>
      <Progress percent={total === 0 ? 100 : Math.round((done / total) * 100)} status={counts.failed > 0 ? 'exception' : counts.waiting > 0 ? 'normal' : undefined} />
      <div className="batch-totals">
        {(['queued', 'sending', 'accepted', 'failed', 'waiting', 'withdrawn'] as const).map((phase) =>
          counts[phase] > 0 ? (
            <Tag key={phase} color={PHASE_COLORS[phase]}>
              {t(`batch.phase.${phase}`)} {counts[phase]}
            </Tag>
          ) : null,
        )}
        <Eta etaMs={status.etaMs} />
        <BatchChargedLine status={status} />
      </div>
      {status.priceChanged.rows > 0 && status.priceChanged.unitPriceFen !== null ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="batch-price-rose"
          title={t('batch.priceRose', { count: status.priceChanged.rows, price: formatFen(status.priceChanged.unitPriceFen) })}
          action={
            <Button size="small" type="primary" disabled={busy} data-testid="batch-confirm-price" onClick={() => onConfirmPrice(status.priceChanged.unitPriceFen ?? 0)}>
              {t('batch.confirmPrice', { price: formatFen(status.priceChanged.unitPriceFen) })}
            </Button>
          }
        />
      ) : null}
      <BatchStatusMerchantNotice status={status} />
      {retryNote !== null ? <Alert type="info" showIcon style={{ marginBottom: 12 }} title={retryNote} data-testid="batch-retry-note" /> : null}
      <BatchRowsTable rows={status.rows} columns={columns} rowKey={(row) => row.clientOrderRef} testId="batch-status-rows" />
      <div style={{ display: 'flex', justifyContent: 'space-between', marginTop: 16, flexWrap: 'wrap', gap: 8 }}>
        <Space wrap>
          <Button danger={counts.failed > 0} disabled={busy || counts.failed === 0} onClick={onRetry} data-testid="batch-retry" title={t('batch.retryHint')}>
            {t('batch.retry')}
          </Button>
          <Button disabled={busy} onClick={() => onExport('csv')} data-testid="batch-export-csv">
            {t('batch.exportCsv')}
          </Button>
          <Button disabled={busy} onClick={() => onExport('xlsx')} data-testid="batch-export-xlsx">
            {t('batch.exportXlsx')}
          </Button>
        </Space>
        <Button onClick={onClose} data-testid="batch-close">
          {t('common.close')}
        </Button>
      </div>
    </div>
  );
}
