// Only the actions the merchant's allowedActions lists (interface v1 §4.2.4), offered from a fresh status (the
// drawer asks the merchant when it opens; until it answers they wait), plus our own for intents
// waiting on the buyer (confirm a changed template, withdraw). Unknown actions are named, never
// offered. A refused action's message goes away when the order changes; a code the merchant did
// not accept is said here, on the order.
import { Alert, Button, Form, Input, Modal, Popconfirm, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useI18n } from '../i18n/use-i18n';
import { explainError } from '../lib/explain-error';
import { formatFen, yuanInputToFen } from '../lib/money';
import { codeWasRejected } from '../lib/order-status';
import { useCancelOrder, useRequestRefund, useSubmitCode } from '../queries/orders';
import { useOnOrdersMerchant } from '../queries/profiles';
import { useUiStore } from '../state/ui-store';
import { classifyActions, classifyOrderAction } from '../../../shared/merchant/known-values';
import type { OrderDetail } from '../../../shared/ipc/views/orders';
import { ProblemAlert } from './ProblemAlert';
import { WithdrawControl, canWithdraw } from './WithdrawControl';

type Dialog = 'code' | 'refund' | null;

/** `fresh`: the status was just read from the merchant (or could not be, and the buyer was told). */
export function OrderActions({ order, fresh }: { order: OrderDetail; fresh: boolean }) {
  const { t } = useI18n();
  const openOrderForm = useUiStore((state) => state.openOrderForm);
  const onOrdersMerchant = useOnOrdersMerchant();
  const submitCode = useSubmitCode();
  const cancel = useCancelOrder();
  const refund = useRequestRefund();
  const version = `${order.state ?? order.intentStatus}|${order.updatedAt}|${order.allowedActions.join(',')}`;
  // The order moved on: what was refused before no longer describes it.
  useEffect(() => {
    submitCode.reset();
    cancel.reset();
    refund.reset();
  }, [version, submitCode.reset, cancel.reset, refund.reset]);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [code, setCode] = useState('');
  const [cancelReason, setCancelReason] = useState('');
  const [refundAmount, setRefundAmount] = useState('');
  const [refundReason, setRefundReason] = useState('');
  const [refundTried, setRefundTried] = useState(false);

  const actions = classifyActions(order.allowedActions, classifyOrderAction);
  const allowed = new Set(actions.known);
  const refundable = order.totalFen === null ? null : order.totalFen - (order.refundedFen ?? 0);
  // A cancelled order is refunded in full to the balance at once (contract §7.2, `cancelled`): the
  // dialog says so with the amount, and its buttons name the action, not "OK".
  const refundOnCancel = order.totalFen ?? order.confirmedTotalFen;
  const failure = submitCode.error ?? cancel.error ?? refund.error;
  const codeValid = /^\d{4,8}$/.test(code);
  const amountFen = refundAmount.trim() === '' ? undefined : yuanInputToFen(refundAmount);
  const amountValid = amountFen === undefined || (amountFen !== null && amountFen > 0 && (refundable === null || amountFen <= refundable));
  const reasonValid = refundReason.trim().length > 0;
  const ref = order.clientOrderRef;

  const waitingOnUs = order.intentStatus === 'needs_confirmation' || canWithdraw(order);
  const nothing = allowed.size === 0 && !waitingOnUs;
  const codeRejected = codeWasRejected(order);

  return (
    <div data-testid="order-actions">
      {failure !== null ? (
        <div style={{ marginBottom: 12 }}>
          <ProblemAlert explained={explainError(failure)} testId="order-action-error" />
        </div>
      ) : null}
      {codeRejected ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="order-code-rejected"
          title={t('actions.codeRejected')}
          description={order.verificationHint ?? undefined}
        />
      ) : null}
      {!fresh && allowed.size > 0 ? (
        <Typography.Paragraph type="secondary" data-testid="order-actions-checking">
          {t('actions.checking')}
        </Typography.Paragraph>
      ) : null}
      <Space wrap>
        {order.intentStatus === 'needs_confirmation' ? (
          <Button type="primary" data-testid="action-review" onClick={() => onOrdersMerchant(ref, () => openOrderForm({ kind: 'confirm', productRef: order.productRef, variantRef: order.variantRef, clientOrderRef: ref }))}>
            {t('action.review')}
          </Button>
        ) : null}
        {order.intentStatus === 'needs_confirmation' || order.intentStatus === 'queued' || order.intentStatus === 'unknown' || order.intentStatus === 'needs_template' ? <WithdrawControl order={order} /> : null}
        {allowed.has('verificationCode') ? (
          <Button type="primary" disabled={!fresh} data-testid="action-verification-code" onClick={() => setDialog('code')}>
            {t('action.verificationCode')}
          </Button>
        ) : null}
        {allowed.has('cancel') ? (
          <Popconfirm
            title={refundOnCancel === null ? t('action.cancelConfirmNoAmount') : t('action.cancelConfirm', { amount: formatFen(refundOnCancel) })}
            description={<Input data-testid="action-cancel-reason" placeholder={t('action.cancelReason')} value={cancelReason} maxLength={200} onChange={(event) => setCancelReason(event.target.value)} />}
            onConfirm={() => cancel.mutate({ clientOrderRef: ref, ...(cancelReason.trim() === '' ? {} : { reason: cancelReason.trim() }) })}
            okText={t('action.cancel')}
            cancelText={t('action.cancelKeep')}
            okButtonProps={{ danger: true, 'data-testid': 'action-cancel-confirm' }}
            cancelButtonProps={{ 'data-testid': 'action-cancel-keep' }}
          >
            <Button danger disabled={!fresh} data-testid="action-cancel" loading={cancel.isPending}>
              {t('action.cancel')}
            </Button>
          </Popconfirm>
        ) : null}
        {allowed.has('refund') ? (
          <Button disabled={!fresh} loading={refund.isPending} data-testid="action-refund" onClick={() => setDialog('refund')}>
            {t('action.refund')}
          </Button>
        ) : null}
      </Space>
      {nothing ? <Typography.Text type="secondary">{t('detail.noActions')}</Typography.Text> : null}
      {actions.unknown.length > 0 ? (
        <div>
          <Typography.Text type="secondary">{t('detail.unknownActions', { actions: actions.unknown.join(t('join.list')) })}</Typography.Text>
        </div>
      ) : null}

      <Modal
        open={dialog === 'code'}
        title={t('action.verificationCode')}
        onCancel={() => setDialog(null)}
        okText={t('action.submitCode')}
        okButtonProps={{ disabled: !codeValid, loading: submitCode.isPending, 'data-testid': 'action-code-submit' }}
        onOk={() => submitCode.mutate({ clientOrderRef: ref, code }, { onSuccess: () => { setDialog(null); setCode(''); } })}
        destroyOnHidden
      >
        {order.verificationHint !== null ? <Typography.Paragraph type="secondary">{t('action.verificationHint', { hint: order.verificationHint })}</Typography.Paragraph> : null}
        <Form layout="vertical">
          <Form.Item label={t('action.code')} validateStatus={code !== '' && !codeValid ? 'error' : undefined} help={code !== '' && !codeValid ? t('action.codeInvalid') : undefined}>
            <Input data-testid="action-code-input" inputMode="numeric" autoComplete="one-time-code" maxLength={8} value={code} onChange={(event) => setCode(event.target.value.trim())} />
          </Form.Item>
        </Form>
      </Modal>

      <Modal
        open={dialog === 'refund'}
        title={t('action.refund')}
        onCancel={() => setDialog(null)}
        okText={t('action.submitRefund')}
        okButtonProps={{ loading: refund.isPending, 'data-testid': 'action-refund-submit' }}
        onOk={() => {
          setRefundTried(true);
          if (!amountValid || !reasonValid) return;
          // The dialog closes as the request leaves: the order says "refund in progress" from now on
          // (OrderRefundTags), and a refusal is said above the actions, with the words kept for another try.
          setDialog(null);
          refund.mutate(
            { clientOrderRef: ref, reason: refundReason.trim(), ...(amountFen === undefined || amountFen === null ? {} : { amountFen }) },
            { onSuccess: () => { setRefundAmount(''); setRefundReason(''); setRefundTried(false); } },
          );
        }}
        destroyOnHidden
      >
        <Form layout="vertical">
          <Form.Item
            label={t('action.refundAmount')}
            validateStatus={!amountValid ? 'error' : undefined}
            help={!amountValid ? t('action.refundAmountInvalid', { max: formatFen(refundable) }) : t('action.refundAmountHint', { max: formatFen(refundable) })}
          >
            <Input data-testid="action-refund-amount" inputMode="decimal" prefix="¥" value={refundAmount} onChange={(event) => setRefundAmount(event.target.value)} />
          </Form.Item>
          <Form.Item
            label={t('action.refundReason')}
            required
            validateStatus={refundTried && !reasonValid ? 'error' : undefined}
            help={refundTried && !reasonValid ? t('action.refundReasonRequired') : undefined}
          >
            <Input.TextArea data-testid="action-refund-reason" rows={3} maxLength={200} value={refundReason} onChange={(event) => setRefundReason(event.target.value)} />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}
