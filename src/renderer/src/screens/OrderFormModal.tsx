// The order form, generated from the purchase template: units by unitRule, no / one / one-per-unit
// entry groups by entryMode, each field by its type with required flag and pattern, the total, and
// inline errors before anything is sent. After 409101 (template changed) the same form shows the
// new template and sends the buyer's confirmation through api.orders.confirm.
import { Alert, Button, Card, Collapse, Descriptions, Form, InputNumber, Modal, Space, Spin, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { OrderOutcome } from '../components/OrderOutcome';
import { ProblemAlert } from '../components/ProblemAlert';
import { PasteAccounts } from '../components/PasteAccounts';
import { PurchaseFieldInput } from '../components/PurchaseFieldInput';
import { useI18n } from '../i18n/use-i18n';
import { explainError } from '../lib/explain-error';
import { formatFen, totalFen } from '../lib/money';
import { validateForm } from '../lib/purchase-validation';
import { buildPurchaseEntries, groupCount, resizeGroups, templateToFormModel, type EntryGroup, type FormModel } from '../lib/template-form';
import { useAccount } from '../queries/connection';
import { useProduct } from '../queries/catalog';
import { useConfirmOrder, usePlaceOrder, useTemplate, useWithdrawOrder } from '../queries/orders';
import { useUiStore, type OrderFormTarget } from '../state/ui-store';
import type { OrderDetail } from '../../../shared/ipc/views';

function OrderFormBody({ target, onClose }: { target: OrderFormTarget; onClose: () => void }) {
  const { t, locale } = useI18n();
  const product = useProduct(target.productRef);
  const template = useTemplate(target.productRef, target.variantRef);
  const account = useAccount(true);
  const place = usePlaceOrder();
  const confirm = useConfirmOrder();
  const withdraw = useWithdrawOrder();
  const openOrder = useUiStore((state) => state.openOrder);
  const setPage = useUiStore((state) => state.setPage);
  const openOrderForm = useUiStore((state) => state.openOrderForm);

  const [confirmRef, setConfirmRef] = useState<string | null>(target.kind === 'confirm' ? target.clientOrderRef : null);
  const [units, setUnits] = useState<number>(1);
  const [groups, setGroups] = useState<EntryGroup[]>([]);
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [outcome, setOutcome] = useState<OrderDetail | null>(null);

  const modelResult = useMemo(() => (template.data === undefined ? null : templateToFormModel(template.data)), [template.data]);
  const model: FormModel | null = modelResult !== null && modelResult.ok ? modelResult.model : null;

  // A (new) template: start from its minimum units, keep what was typed in fields that still exist.
  useEffect(() => {
    if (model === null) return;
    setUnits((current) => (current >= model.unitRule.min && current <= model.unitRule.max ? current : model.unitRule.min));
  }, [model]);
  useEffect(() => {
    if (model === null) return;
    setGroups((current) => resizeGroups(current, groupCount(model.entryMode, units), model.fields));
  }, [model, units]);

  const variant = product.data?.variants.find((item) => item.variantRef === target.variantRef);
  const total = totalFen(variant?.priceFen, units);
  const errors = model === null ? null : validateForm(model, units, groups);
  const sending = place.isPending || confirm.isPending;
  const failure = place.error ?? confirm.error ?? withdraw.error;

  const afterSend = (detail: OrderDetail): void => {
    setOutcome(detail);
    setSubmitted(false);
    if (detail.intentStatus === 'needs_confirmation') {
      setConfirmRef(detail.clientOrderRef);
      void template.refetch();
    }
  };

  const submit = (): void => {
    if (model === null || errors === null || variant === undefined) return;
    setSubmitted(true);
    if (errors.count > 0) return;
    const purchaseEntries = buildPurchaseEntries(model, groups);
    place.reset();
    confirm.reset();
    if (confirmRef !== null) {
      confirm.mutate({ clientOrderRef: confirmRef, units, unitPriceFen: variant.priceFen, ...(purchaseEntries === undefined ? {} : { purchaseEntries }) }, { onSuccess: afterSend });
    } else {
      place.mutate({ productRef: target.productRef, variantRef: target.variantRef, units, unitPriceFen: variant.priceFen, ...(purchaseEntries === undefined ? {} : { purchaseEntries }) }, {
        onSuccess: afterSend,
        onError: (error) => {
          if (explainError(error).problem === 'templateChanged') void template.refetch();
        },
      });
    }
  };

  const setValue = (index: number, fieldRef: string, value: string): void => {
    setGroups((current) => current.map((group, i) => (i === index ? { ...group, [fieldRef]: value } : group)));
  };
  const touch = (key: string): void => setTouched((current) => new Set(current).add(key));

  const viewOrder = (clientOrderRef: string): void => {
    openOrderForm(null);
    setPage('orders');
    openOrder(clientOrderRef);
  };

  const finished = outcome !== null && outcome.intentStatus !== 'needs_confirmation';
  const balance = account.data?.balanceFen;

  return (
    <>
      {template.isLoading ? (
        <div className="modal-loading" data-testid="order-template-loading">
          <Spin tip={t('order.templateLoading')}>
            <div style={{ minHeight: 120 }} />
          </Spin>
        </div>
      ) : null}
      {template.error !== null ? <ProblemAlert explained={explainError(template.error)} /> : null}
      {modelResult !== null && !modelResult.ok ? <Alert type="error" showIcon title={t('order.templateUnsupported')} data-testid="order-template-unsupported" /> : null}
      {confirmRef !== null && !finished ? (
        <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t('order.confirmTitle')} description={t('order.needsConfirmation')} data-testid="order-needs-confirmation" />
      ) : null}
      {outcome !== null && outcome.intentStatus !== 'needs_confirmation' ? <OrderOutcome detail={outcome} onView={() => viewOrder(outcome.clientOrderRef)} /> : null}
      {failure !== null ? (
        <div style={{ marginBottom: 16 }} data-testid="order-error">
          <ProblemAlert explained={explainError(failure)} />
        </div>
      ) : null}
      {model !== null && errors !== null && !finished ? (
        <Form layout="vertical" data-testid="order-form" data-entry-mode={model.entryMode} onFinish={submit} disabled={sending}>
          <Descriptions size="small" column={2} style={{ marginBottom: 12 }}>
            <Descriptions.Item label={t('product.variant')}>{variant?.title ?? '—'}</Descriptions.Item>
            <Descriptions.Item label={t('order.unitPrice')}>{formatFen(variant?.priceFen)}</Descriptions.Item>
          </Descriptions>
          <Form.Item
            label={t('order.units')}
            required
            validateStatus={errors.units !== null && (submitted || touched.has('units')) ? 'error' : undefined}
            help={
              errors.units !== null && (submitted || touched.has('units')) ? (
                <span data-testid="order-units-error">{t(`field.${errors.units.code}`, { min: errors.units.min, max: errors.units.max, step: errors.units.step })}</span>
              ) : (
                t('order.unitRule', { min: model.unitRule.min, max: model.unitRule.max, step: model.unitRule.step })
              )
            }
          >
            <InputNumber<number>
              data-testid="order-units"
              min={model.unitRule.min}
              max={model.unitRule.max}
              step={model.unitRule.step}
              precision={0}
              value={units}
              disabled={model.unitRule.min === model.unitRule.max}
              onChange={(value) => {
                touch('units');
                setUnits(value ?? 0);
              }}
            />
          </Form.Item>
          {model.entryMode === 'none' ? <Typography.Paragraph type="secondary">{t('order.noFields')}</Typography.Paragraph> : null}
          {model.entryMode === 'perUnit' && model.fields.length > 0 ? (
            <Collapse
              size="small"
              style={{ marginBottom: 12 }}
              items={[
                {
                  key: 'paste',
                  label: <span data-testid="order-paste-toggle">{t('order.paste')}</span>,
                  children: (
                    <PasteAccounts
                      fields={model.fields}
                      maxUnits={model.unitRule.max}
                      onApply={(pasted) => {
                        setUnits(pasted.length);
                        setGroups(pasted);
                        touch('units');
                      }}
                    />
                  ),
                },
              ]}
            />
          ) : null}
          <div className="order-groups">
            {groups.map((group, index) => (
              <Card
                key={index}
                size="small"
                title={model.entryMode === 'perUnit' ? t('order.unit', { n: index + 1 }) : t('order.group')}
                style={{ marginBottom: 12 }}
                data-testid="order-group"
              >
                {model.fields.map((field) => {
                  const key = `${index}.${field.fieldRef}`;
                  return (
                    <PurchaseFieldInput
                      key={field.fieldRef}
                      field={field}
                      index={index}
                      value={group[field.fieldRef] ?? ''}
                      error={errors.groups[index]?.[field.fieldRef]}
                      showError={submitted || touched.has(key)}
                      onChange={(value) => setValue(index, field.fieldRef, value)}
                      onBlur={() => touch(key)}
                    />
                  );
                })}
              </Card>
            ))}
          </div>
          <div className="order-total">
            <Space orientation="vertical" size={0}>
              <Typography.Text type="secondary">{t('order.total')}</Typography.Text>
              <Typography.Title level={3} style={{ margin: 0 }} data-testid="order-total">
                {formatFen(total)}
              </Typography.Title>
              {balance !== undefined && total !== null ? (
                <Typography.Text type={balance - total < 0 ? 'danger' : 'secondary'}>{t('order.balanceAfter', { amount: formatFen(balance - total) })}</Typography.Text>
              ) : null}
            </Space>
            <Space orientation="vertical" align="end">
              {submitted && errors.count > 0 ? (
                <Typography.Text type="danger" data-testid="order-form-errors">
                  {t('order.fixErrors', { count: errors.count.toLocaleString(locale) })}
                </Typography.Text>
              ) : null}
              <Space>
                {confirmRef !== null ? (
                  <Button danger data-testid="order-withdraw" loading={withdraw.isPending} onClick={() => withdraw.mutate(confirmRef, { onSuccess: () => onClose() })}>
                    {t('order.withdraw')}
                  </Button>
                ) : null}
                <Button onClick={onClose}>{t('common.cancel')}</Button>
                <Button type="primary" htmlType="submit" loading={sending} data-testid={confirmRef !== null ? 'order-confirm' : 'order-submit'}>
                  {confirmRef !== null ? t('order.confirm') : t('order.submit')}
                </Button>
              </Space>
            </Space>
          </div>
        </Form>
      ) : null}
      {finished ? (
        <div style={{ textAlign: 'right', marginTop: 16 }}>
          <Button onClick={onClose} data-testid="order-close">
            {t('common.close')}
          </Button>
        </div>
      ) : null}
    </>
  );
}

export function OrderFormModal() {
  const { t } = useI18n();
  const target = useUiStore((state) => state.orderForm);
  const openOrderForm = useUiStore((state) => state.openOrderForm);
  const product = useProduct(target?.productRef ?? null);
  const close = (): void => openOrderForm(null);
  const key = target === null ? 'none' : `${target.kind}:${target.productRef}:${target.variantRef}:${target.kind === 'confirm' ? target.clientOrderRef : ''}`;
  return (
    <Modal
      open={target !== null}
      onCancel={close}
      footer={null}
      width={720}
      destroyOnHidden
      title={target?.kind === 'confirm' ? t('order.confirmTitle') : t('order.title', { product: product.data?.name ?? '' })}
      data-testid="order-modal"
    >
      {target !== null ? <OrderFormBody key={key} target={target} onClose={close} /> : null}
    </Modal>
  );
}
