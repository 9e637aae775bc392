// What happened to an order just placed, in words, following the order live (the detail query is
// refreshed by every pushed order change): recorded and being sent, queued while offline, outcome
// uncertain, parked by the price guard or for availability, refused (the merchant's code explained),
// placed and charged, supplied, failed and refunded, withdrawn.
import { Alert, Button } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { problemOfLastErrorCode } from '../lib/explain-error';
import { formatFen } from '../lib/money';
import { AccessParkPanel } from './AccessParkPanel';
import { ServerFailingPanel } from './ServerFailingPanel';
import { classifyOrderState } from '../../../shared/merchant/known-values';
import type { OrderDetail } from '../../../shared/ipc/views/orders';
import { useOffline } from '../state/connection-state-store';
import { PriceChangedPanel } from './PriceChangedPanel';
import { ProblemAlert } from './ProblemAlert';
import { UnavailablePanel } from './UnavailablePanel';
import { WithdrawControl, WithdrawOutcome } from './WithdrawControl';
import { MerchantSaid, WithMerchantData } from './MerchantText';

export function OrderOutcome({ detail, onView }: { detail: OrderDetail; onView: () => void }) {
  return (
    <>
      <OutcomeByStatus detail={detail} onView={onView} />
      <div style={{ marginTop: 8 }}>
        <WithdrawOutcome clientOrderRef={detail.clientOrderRef} />
      </div>
    </>
  );
}

function OutcomeByStatus({ detail, onView }: { detail: OrderDetail; onView: () => void }) {
  const { t } = useI18n();
  const offline = useOffline();
  const view = (
    <Button size="small" data-testid="order-view" onClick={onView}>
      {t('order.viewOrder')}
    </Button>
  );
  const common = { 'data-testid': 'order-outcome', 'data-intent-status': detail.intentStatus, 'data-state': detail.state ?? '' };
  if (detail.state !== null) {
    const state = classifyOrderState(detail.state);
    const charged = formatFen(detail.totalFen);
    if (state.kind === 'unknown') {
      return <Alert {...common} type="warning" showIcon title={t('outcome.unknownState', { raw: state.raw })} description={t('outcome.charged', { amount: charged })} action={view} />;
    }
    switch (state.value) {
      case 'completed':
        return <Alert {...common} type="success" showIcon title={t('outcome.completed')} description={t('outcome.charged', { amount: charged })} action={view} />;
      case 'failed':
        return (
          <Alert
            {...common}
            type="error"
            showIcon
            title={t('outcome.failed')}
            description={
              <>
                {t('outcome.failedRefunded', { amount: formatFen(detail.refundedFen) })} {detail.failureReason !== null ? <MerchantSaid text={detail.failureReason} /> : null}
              </>
            }
            action={view}
          />
        );
      case 'cancelled':
      case 'refunded':
        return <Alert {...common} type="info" showIcon title={t(`orderState.${state.value}`)} description={t('outcome.refunded', { amount: formatFen(detail.refundedFen) })} action={view} />;
      case 'verifying':
        return <Alert {...common} type="warning" showIcon title={t('outcome.verifying')} description={detail.verificationHint ?? undefined} action={view} />;
      case 'pending':
      case 'processing':
        return <Alert {...common} type="success" showIcon title={t('order.accepted')} description={t('outcome.charged', { amount: charged })} action={view} />;
    }
  }
  switch (detail.intentStatus) {
    case 'needs_confirmation':
      // Kept offline without its form (contract §7.10): the form came and asks for more.
      if (detail.lastErrorCode === 'TEMPLATE_INPUT') return <Alert {...common} type="warning" showIcon title={t('intent.needs_confirmation')} description={t('orderTemplate.formArrived')} />;
      return <Alert {...common} type="warning" showIcon title={t('problem.templateChanged.title')} description={t('order.needsConfirmation')} />;
    case 'needs_template':
      return (
        <div {...common}>
          <Alert type="warning" showIcon title={t('intent.needs_template')} description={t('orderTemplate.waiting')} action={view} />
          <div style={{ marginTop: 8 }}>
            <WithdrawControl order={detail} />
          </div>
        </div>
      );
    case 'price_changed':
      return (
        <div {...common}>
          <PriceChangedPanel order={detail} />
          <div style={{ marginTop: 8 }}>{view}</div>
        </div>
      );
    case 'unavailable':
      return (
        <div {...common}>
          <UnavailablePanel order={detail} />
          <div style={{ marginTop: 8 }}>{view}</div>
        </div>
      );
    case 'rejected': {
      const problem = problemOfLastErrorCode(detail.lastErrorCode) ?? 'unknown';
      const code = detail.lastErrorCode !== null && /^\d+$/.test(detail.lastErrorCode) ? Number(detail.lastErrorCode) : null;
      return (
        <div {...common}>
          <ProblemAlert explained={{ problem, merchantCode: code, requestId: detail.lastRequestId, detail: detail.lastErrorMessage ?? '', fields: [] }} action={view} />
        </div>
      );
    }
    case 'queued':
      return (
        <div {...common}>
          <Alert type="info" showIcon title={t('intent.queued')} description={offline ? t('order.queued') : t('order.recorded')} action={view} />
          <div style={{ marginTop: 8 }}>
            <WithdrawControl order={detail} />
          </div>
        </div>
      );
    case 'sending':
      return <Alert {...common} type="info" showIcon title={t('intent.sending')} description={t('order.recorded')} action={view} />;
    case 'unknown':
      return (
        <div {...common}>
          <Alert type="warning" showIcon title={t('intent.unknown')} description={t('order.uncertain')} action={view} />
          <div style={{ marginTop: 8 }}>
            <WithdrawControl order={detail} />
          </div>
        </div>
      );
    case 'needs_key':
    case 'account_suspended':
    case 'access_denied':
      return (
        <div {...common}>
          <AccessParkPanel order={detail} status={detail.intentStatus} />
          <div style={{ marginTop: 8 }}>{view}</div>
        </div>
      );
    case 'merchant_failing':
      return (
        <div {...common}>
          <ServerFailingPanel order={detail} />
          <div style={{ marginTop: 8 }}>{view}</div>
        </div>
      );
    case 'withdrawing':
      return <Alert {...common} type="info" showIcon title={t('intent.withdrawing')} description={t('withdraw.outcome.checking')} action={view} />;
    case 'withdrawn':
      return <Alert {...common} type="info" showIcon title={t('intent.withdrawn')} description={t('withdraw.outcome.withdrawn')} action={view} />;
    default:
      // accepted without a stored order cannot last; an unknown status is never success.
      return <Alert {...common} type="warning" showIcon title={<WithMerchantData text={t('common.unknownValue', { raw: detail.intentStatus })} data={[detail.intentStatus]} />} action={view} />;
  }
}
