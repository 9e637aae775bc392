// Where a batch's money goes when a link's fallback rule sends it to another merchant (issue 24,
// contract §15.4): the notice naming both merchants and why, the rows' merchant column in the preview
// and progress, the confirm step's per-merchant totals with the buyer's OK for the other merchant, and
// the progress notice. A batch that stays at its own merchant shows none of this (it looks as before).
import { Alert, Checkbox, Space, Table, Tag, Typography } from 'antd';
import type { BatchFallbackView, BatchMerchantShare, BatchPreviewRow, BatchPreviewView, BatchStatusRow, BatchStatusView } from '../../../shared/ipc/views/batch';
import { useI18n } from '../i18n/use-i18n';
import { formatFen } from '../lib/money';
import type { BatchColumn } from './BatchRowsTable';
import { MerchantName } from './MerchantName';
import { WithMerchantData } from './MerchantText';

const namesOf = (fallback: BatchFallbackView): string[] => [fallback.from.name, fallback.to.name, fallback.productName ?? '', fallback.variantTitle ?? ''];
const productOf = (fallback: BatchFallbackView): string => [fallback.productName, fallback.variantTitle].filter((part) => part !== undefined && part !== '').join(' · ');

/** The preview's notice: bought at `to`, not `from`, because …, at `to`'s price within the limit. */
export function BatchFallbackNotice({ fallback, unitPriceFen }: { fallback: BatchFallbackView; unitPriceFen: number }) {
  const { t } = useI18n();
  const words = { from: fallback.from.name, to: fallback.to.name, limit: formatFen(fallback.limitFen) };
  const reason = t(`batchMerchant.notice.reason.${fallback.reason}`, { ...words, price: formatFen(fallback.fromUnitPriceFen ?? null) });
  const rule = t('batchMerchant.notice.rule', { ...words, product: productOf(fallback) || '—', price: formatFen(unitPriceFen) });
  const gap = /[\u3000-\u303f\uff00-\uffef]$/.test(reason) ? '' : ' ';
  return (
    <Alert
      type="warning"
      showIcon
      style={{ margin: '12px 0' }}
      data-testid="batch-fallback-notice"
      data-from={fallback.from.profileId}
      data-to={fallback.to.profileId}
      data-reason={fallback.reason}
      title={<WithMerchantData text={t('batchMerchant.notice.title', words)} data={namesOf(fallback)} />}
      description={<WithMerchantData text={`${reason}${gap}${rule}`} data={namesOf(fallback)} />}
    />
  );
}

/** The preview's merchant column (none without a fallback): every row that will be ordered, at `to` and its price. */
export function usePreviewMerchantColumns(preview: BatchPreviewView): BatchColumn<BatchPreviewRow>[] {
  const { t } = useI18n();
  const fallback = preview.fallback;
  if (fallback === undefined) return [];
  return [
    {
      key: 'merchant',
      title: t('batchMerchant.col'),
      width: 'minmax(150px, 1fr)',
      render: (row) =>
        row.errors.length > 0 ? (
          '—'
        ) : (
          <span data-testid="batch-row-merchant" data-profile={fallback.to.profileId}>
            <MerchantName merchant={fallback.to} />
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('batchMerchant.rowPrice', { price: formatFen(preview.unitPriceFen) })}
            </Typography.Text>
          </span>
        ),
    },
  ];
}

/** The progress's merchant column (none without a fallback): the merchant whose order number the row shows. */
export function useStatusMerchantColumns(status: BatchStatusView): BatchColumn<BatchStatusRow>[] {
  const { t } = useI18n();
  const fallback = status.fallback;
  if (fallback === undefined) return [];
  return [
    {
      key: 'merchant',
      title: t('batchMerchant.col'),
      width: 'minmax(110px, 0.8fr)',
      render: () => (
        <span data-testid="batch-row-merchant" data-profile={fallback.to.profileId}>
          <MerchantName merchant={fallback.to} />
        </span>
      ),
    },
  ];
}

/** Above the progress: the orders are `to`'s, charged there, with `to`'s own order numbers. */
export function BatchStatusMerchantNotice({ status }: { status: BatchStatusView }) {
  const { t } = useI18n();
  const fallback = status.fallback;
  if (fallback === undefined) return null;
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginBottom: 12 }}
      data-testid="batch-status-merchant"
      data-to={fallback.to.profileId}
      title={<WithMerchantData text={t('batchMerchant.statusNotice', { from: fallback.from.name, to: fallback.to.name })} data={[fallback.from.name, fallback.to.name]} />}
    />
  );
}

/** "Charged so far", naming the merchant when the batch is another merchant's. */
export function BatchChargedLine({ status }: { status: BatchStatusView }) {
  const { t } = useI18n();
  const amount = formatFen(status.chargedFen);
  if (status.fallback === undefined) return <Typography.Text strong>{t('batch.charged', { amount })}</Typography.Text>;
  const merchant = status.fallback.to.name;
  return (
    <Typography.Text strong data-testid="batch-charged-at" data-profile={status.fallback.to.profileId}>
      <WithMerchantData text={t('batchMerchant.charged', { merchant, amount })} data={[merchant]} />
    </Typography.Text>
  );
}

/**
 * The confirm step's totals per merchant and the buyer's OK for the other merchant: Pay stays disabled
 * until the box naming that merchant and its total is ticked.
 */
export function BatchMerchantTotals({ preview, agreed, onAgree }: { preview: BatchPreviewView; agreed: boolean; onAgree: (agreed: boolean) => void }) {
  const { t } = useI18n();
  const fallback = preview.fallback;
  const shares = preview.merchants ?? [];
  if (fallback === undefined) return null;
  const paid = shares.find((share) => share.fallback);
  const total = formatFen(paid?.totalFen ?? preview.totals.totalFen);
  const names = [fallback.from.name, fallback.to.name];
  return (
    <div data-testid="batch-merchant-totals" style={{ marginTop: 12 }}>
      <BatchFallbackNotice fallback={fallback} unitPriceFen={preview.unitPriceFen} />
      <Typography.Title level={5}>{t('batchMerchant.totalsTitle')}</Typography.Title>
      <Table<BatchMerchantShare>
        size="small"
        pagination={false}
        rowKey={(share) => share.merchant.profileId}
        dataSource={shares}
        columns={[
          {
            title: t('batchMerchant.col'),
            key: 'merchant',
            render: (_, share) => (
              <Space size={4} data-testid="batch-merchant-share" data-profile={share.merchant.profileId} data-total-fen={share.totalFen} data-orders={share.orders} data-fallback={share.fallback}>
                <MerchantName merchant={share.merchant} />
                {share.fallback ? <Tag color="orange">{t('batchMerchant.fallbackTag')}</Tag> : <Tag>{t('batchMerchant.notCharged')}</Tag>}
              </Space>
            ),
          },
          { title: t('batchMerchant.colOrders'), key: 'orders', align: 'right', render: (_, share) => share.orders },
          { title: t('batchMerchant.colUnits'), key: 'units', align: 'right', render: (_, share) => share.units },
          { title: t('batchMerchant.colUnitPrice'), key: 'price', align: 'right', render: (_, share) => formatFen(share.unitPriceFen) },
          { title: t('batchMerchant.colTotal'), key: 'total', align: 'right', render: (_, share) => <strong data-testid="batch-merchant-share-total">{formatFen(share.totalFen)}</strong> },
        ]}
      />
      <div data-testid="batch-pay-to-ok" data-profile={fallback.to.profileId} data-checked={agreed} style={{ marginTop: 12 }}>
        <Checkbox checked={agreed} onChange={(event) => onAgree(event.target.checked)}>
          <WithMerchantData text={t('batchMerchant.agree', { to: fallback.to.name, from: fallback.from.name, total })} data={names} />
        </Checkbox>
      </div>
      {!agreed ? (
        <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: 4, marginBottom: 0 }} data-testid="batch-pay-to-needed">
          <WithMerchantData text={t('batchMerchant.agreeNeeded', { to: fallback.to.name })} data={names} />
        </Typography.Paragraph>
      ) : null}
    </div>
  );
}
