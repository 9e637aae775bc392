// The order dialog, in three steps over one order model (lib/order-draft.ts):
//   edit     — the form generated from the purchase template: units by unitRule, entry groups by
//              entryMode, inline errors; the total is computed from the same parse that is sent;
//   confirm  — everything that will be sent and charged, frozen; "Pay" sends exactly that, once;
//   follow   — the order as it moves, live (every pushed order change refreshes it).
// After 409101 (template changed) the same dialog shows the new template and re-confirms the same
// intent through api.orders.confirm. With the merchant away and no order form cached it offers to
// queue the order as "waiting for the order form" (OrderNeedsTemplateStep, contract §7.10).
import { Alert, Button, Modal, Spin } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { balanceStateOf, OrderConfirmation } from '../components/OrderConfirmation';
import { OrderOutcome } from '../components/OrderOutcome';
import { ProblemAlert } from '../components/ProblemAlert';
import { OrderEditForm } from '../components/OrderEditForm';
import { OrderNeedsTemplateStep, type OrderNeedsTemplateStepProps } from '../components/OrderNeedsTemplateStep';
import { supplyBlockedText } from '../components/SupplyTag';
import { useI18n } from '../i18n/use-i18n';
import { explainError } from '../lib/explain-error';
import { evaluateDraft, newDraft, newDraftRef, withUnitsText, type OrderDraft, type OrderToConfirm } from '../lib/order-draft';
import { templateToFormModel, type FormModel } from '../lib/template-form';
import { useAccount } from '../queries/connection';
import { useProduct } from '../queries/catalog';
import { OrderProductReading, useRefetchOn } from '../components/OrderProductReading';
import { useConfirmOrder, useOrder, usePlaceOrder, useTemplate } from '../queries/orders';
import { useUiStore, type OrderFormTarget } from '../state/ui-store';
import { canBuy, variantSupplyStatus } from '../../../shared/merchant/supply-status';
import type { OrderDetail } from '../../../shared/ipc/views/orders';
import { WithMerchantData } from '../components/MerchantText';
import { OrderOffersPanel } from '../components/OrderOffersPanel';
import { ParkedOffers } from '../components/ParkedOffers';
import { OrderScopeNotes, useDialogOffers, useOrderScope } from '../components/OrderScope';

type Step = 'edit' | 'confirm';

/** The step after Pay: the order as it moves, live; parked by the guard, the link's other merchants beside it. */
function OrderFollowing({ detail, profileId, onView, onClose }: { detail: OrderDetail; profileId: string | null; onView: () => void; onClose: () => void }) {
  const { t } = useI18n();
  return (
    <div data-testid="order-following">
      <ParkedOffers order={detail} profileId={profileId} />
      <OrderOutcome detail={detail} onView={onView} />
      <div style={{ textAlign: 'right', marginTop: 16 }}>
        <Button onClick={onClose} data-testid="order-close">
          {t('common.close')}
        </Button>
      </div>
    </div>
  );
}

/** Why the buyer confirms again: the merchant changed the form, or the form of an order kept offline arrived (contract §7.10). */
function ConfirmReason({ clientOrderRef }: { clientOrderRef: string }) {
  const { t } = useI18n();
  const order = useOrder(clientOrderRef);
  const arrived = order.data?.lastErrorCode === 'TEMPLATE_INPUT';
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      title={arrived ? t('orderTemplate.formArrivedTitle') : t('order.confirmTitle')}
      description={arrived ? t('orderTemplate.formArrived') : t('order.needsConfirmation')}
      data-testid="order-needs-confirmation"
    />
  );
}

/** The template loading, failed or unsupported; with the merchant away and none cached, the offline step instead of the failure. */
function TemplateState({ template, unsupported, offline }: { template: ReturnType<typeof useTemplate>; unsupported: boolean; offline: OrderNeedsTemplateStepProps | null }) {
  const { t } = useI18n();
  return (
    <>
      {template.isLoading ? (
        <div className="modal-loading" data-testid="order-template-loading">
          <Spin tip={t('order.templateLoading')}>
            <div style={{ minHeight: 120 }} />
          </Spin>
        </div>
      ) : null}
      {template.error !== null && offline !== null ? <OrderNeedsTemplateStep {...offline} /> : null}
      {template.error !== null && offline === null ? <ProblemAlert explained={explainError(template.error)} /> : null}
      {unsupported ? <Alert type="error" showIcon title={t('order.templateUnsupported')} data-testid="order-template-unsupported" /> : null}
    </>
  );
}

function OrderFormBody({ target, onClose }: { target: OrderFormTarget; onClose: () => void }) {
  const { t } = useI18n();
  const product = useProduct(target.productRef, target.profileId);
  const template = useTemplate(target.productRef, target.variantRef, target.profileId);
  const scope = useOrderScope(target);
  // The balance of the merchant the order goes to: the header's for the active one, else asked of that merchant.
  const account = useAccount(true, scope.atActiveProfile ? undefined : target.profileId);
  const place = usePlaceOrder();
  const confirm = useConfirmOrder();
  const openOrder = useUiStore((state) => state.openOrder);
  const setPage = useUiStore((state) => state.setPage);
  const openOrderForm = useUiStore((state) => state.openOrderForm);

  const [confirmRef, setConfirmRef] = useState<string | null>(target.kind === 'confirm' ? target.clientOrderRef : null);
  const [draft, setDraft] = useState<OrderDraft | null>(null);
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [tried, setTried] = useState(false);
  const [step, setStep] = useState<Step>('edit');
  const [frozen, setFrozen] = useState<OrderToConfirm | null>(null);
  /** One per review: a second Pay of the same review (after an error) is the same order, never a second. */
  const [draftRef, setDraftRef] = useState<string>(newDraftRef);
  const [sent, setSent] = useState<OrderDetail | null>(null);
  useRefetchOn(account.refetch, step); // the balance read from the merchant again as the dialog and the review open
  // A second click (or Enter) while the first send is on its way must not place a second order.
  const sendingRef = useRef(false);
  const live = useOrder(sent?.clientOrderRef ?? null);
  const followed = live.data ?? sent;

  const modelResult = useMemo(() => (template.data === undefined ? null : templateToFormModel(template.data)), [template.data]);
  const model: FormModel | null = modelResult !== null && modelResult.ok ? modelResult.model : null;

  // The first template starts the draft at the rule's minimum (at the units already confirmed when an
  // order kept offline is completed); a new template keeps what was typed.
  const confirming = useOrder(confirmRef);
  const keptUnits = confirming.data?.intentStatus === 'needs_confirmation' && confirming.data.lastErrorCode === 'TEMPLATE_INPUT' ? confirming.data.units : null;
  useEffect(() => {
    // A form moved to another merchant keeps the units the buyer typed there.
    const startUnits = keptUnits === null ? (target.unitsText ?? null) : String(keptUnits);
    if (model !== null) setDraft((current) => current ?? (startUnits === null ? newDraft(model.unitRule) : withUnitsText(newDraft(model.unitRule), startUnits)));
  }, [model, keptUnits, target.unitsText]);

  // Sent, then refused for a changed template (or queued offline, and its form asks for more): back
  // to the form, same intent, new template.
  useEffect(() => {
    if (followed?.intentStatus === 'needs_confirmation') {
      setConfirmRef(followed.clientOrderRef);
      setSent(null);
      setStep('edit');
      sendingRef.current = false;
      void template.refetch();
    }
  }, [followed?.intentStatus, followed?.clientOrderRef, step, template]);

  const variant = product.data?.variants.find((item) => item.variantRef === target.variantRef);
  const supply = product.data !== undefined && variant !== undefined ? variantSupplyStatus(product.data.availability, variant) : null;
  const priceFen = variant?.priceFen ?? null;
  const state = model === null || draft === null ? null : evaluateDraft(draft, model, priceFen);
  const balance = account.data?.balanceFen ?? null;
  const { offers, choose: chooseOffer } = useDialogOffers(target, scope, state !== null && state.units.ok ? state.units.units : null, draft?.unitsText ?? null);
  const blocked = supply !== null && !canBuy(supply) ? supplyBlockedText(t, supply) : null;
  const failure = place.error ?? confirm.error;
  // The merchant away and no order form cached: the order can be queued as needs_template (contract §7.10).
  const offlineNoTemplate = template.error !== null && confirmRef === null && explainError(template.error).problem === 'offline';

  const touch = (key: string): void => setTouched((current) => new Set(current).add(key));
  const update = (next: (current: OrderDraft) => OrderDraft): void => setDraft((current) => (current === null ? current : next(current)));

  const review = (): void => {
    setTried(true);
    if (state === null || state.order === null || blocked !== null) return;
    setFrozen(state.order);
    setDraftRef(newDraftRef());
    setStep('confirm');
  };

  const afterSend = (detail: OrderDetail): void => setSent(detail);

  const pay = (): void => {
    if (frozen === null || sendingRef.current) return;
    sendingRef.current = true;
    place.reset();
    confirm.reset();
    const onError = (): void => {
      sendingRef.current = false;
    };
    const entries = frozen.purchaseEntries === undefined ? {} : { purchaseEntries: frozen.purchaseEntries };
    if (confirmRef !== null) {
      confirm.mutate({ clientOrderRef: confirmRef, units: frozen.units, unitPriceFen: frozen.unitPriceFen, ...entries }, { onSuccess: afterSend, onError });
    } else {
      place.mutate(
        { productRef: frozen.productRef, variantRef: frozen.variantRef, units: frozen.units, unitPriceFen: frozen.unitPriceFen, draftRef, ...entries, ...(target.profileId === undefined ? {} : { profileId: target.profileId }) },
        {
          onSuccess: afterSend,
          onError: (error) => {
            onError();
            if (explainError(error).problem === 'templateChanged') void template.refetch();
          },
        },
      );
    }
  };

  const viewOrder = (clientOrderRef: string): void => {
    openOrderForm(null);
    setPage('orders');
    openOrder(clientOrderRef);
  };

  if (followed !== null && followed.intentStatus !== 'needs_confirmation') {
    return <OrderFollowing detail={followed} profileId={scope.key?.profileId ?? null} onView={() => viewOrder(followed.clientOrderRef)} onClose={onClose} />;
  }

  return (
    <>
      {/* Above any form: the offline one ends in its own buttons, nothing belongs under them. */}
      <OrderScopeNotes target={target} scope={scope} />
      <OrderProductReading productRef={target.productRef} profileId={target.profileId} shown={step === 'edit'} />
      <TemplateState
        template={template}
        unsupported={modelResult !== null && !modelResult.ok}
        offline={offlineNoTemplate ? { productRef: target.productRef, variantRef: target.variantRef, productType: product.data?.productType ?? null, variantTitle: variant?.title ?? '—', priceFen, onPlaced: afterSend, onClose, ...(target.profileId === undefined ? {} : { profileId: target.profileId }) } : null}
      />
      {confirmRef !== null ? <ConfirmReason clientOrderRef={confirmRef} /> : null}
      {step === 'edit' && offers.data !== undefined ? <OrderOffersPanel offers={offers.data} onChoose={chooseOffer} /> : null}
      {failure !== null ? (
        <div style={{ marginBottom: 16 }} data-testid="order-error">
          <ProblemAlert explained={explainError(failure)} />
        </div>
      ) : null}
      {model !== null && draft !== null && state !== null && step === 'confirm' && frozen !== null ? (
        <OrderConfirmation
          order={frozen}
          model={model}
          productName={product.data?.name ?? ''}
          variantTitle={variant?.title ?? '—'}
          productType={product.data?.productType ?? null}
          balance={balanceStateOf(account)}
          movedPriceFen={priceFen !== null && priceFen !== frozen.unitPriceFen ? priceFen : null}
          blockedReason={blocked}
          sending={place.isPending || confirm.isPending}
          onBack={() => setStep('edit')}
          onUseNewPrice={() => {
            if (priceFen !== null) {
              setFrozen({ ...frozen, unitPriceFen: priceFen, totalFen: frozen.units * priceFen });
              setDraftRef(newDraftRef());
            }
          }}
          onPay={pay}
        />
      ) : null}
      {model !== null && draft !== null && state !== null && step === 'edit' ? (
        <OrderEditForm
          model={model}
          draft={draft}
          state={state}
          variantTitle={variant?.title ?? '—'}
          priceFen={priceFen}
          supply={supply}
          blocked={blocked}
          balanceFen={balance}
          tried={tried}
          touched={touched}
          onTouch={touch}
          onUpdate={update}
          onReview={review}
          onClose={onClose}
        />
      ) : null}
    </>
  );
}

export function OrderFormModal() {
  const { t } = useI18n();
  const target = useUiStore((state) => state.orderForm);
  const openOrderForm = useUiStore((state) => state.openOrderForm);
  const product = useProduct(target?.productRef ?? null, target?.profileId);
  const close = (): void => openOrderForm(null);
  const key = target === null ? 'none' : `${target.kind}:${target.profileId ?? ''}:${target.productRef}:${target.variantRef}:${target.kind === 'confirm' ? target.clientOrderRef : ''}`;
  return (
    <Modal
      open={target !== null}
      onCancel={close}
      footer={null}
      width={720}
      destroyOnHidden
      maskClosable={false}
      title={target?.kind === 'confirm' ? t('order.confirmTitle') : <WithMerchantData text={t('order.title', { product: product.data?.name ?? '' })} data={[product.data?.name]} />}
      data-testid="order-modal"
    >
      {target !== null ? <OrderFormBody key={key} target={target} onClose={close} /> : null}
    </Modal>
  );
}
