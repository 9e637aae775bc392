// The outbox's step for intents placed while the merchant was away without a trusted template
// (needs_template, contract §7.10). Once the merchant answers again (the outbox runs only then: its
// pause covers an unreachable merchant), each due intent gets its template from the template source
// (one request per variant, shared), then:
//   units and entries valid under it  → queued with the template's revision; sent like any queued intent
//                                        (the price guard first: the buyer's confirmed price still caps it)
//   they do not fit (a top-up's fields the buyer could not give offline, units outside unitRule, an
//   entry mode this build does not know) → needs_confirmation: the buyer is asked with the template's form
//   the variant is gone (not in the detail, or not visible) → unavailable (variantGone)
//   the fetch failed → stays needs_template, tried again after a backoff (the offline pause for a
//                       transport failure); a refused key pauses the whole outbox anyway.
// It is never sent from here: only the queued intent it becomes is, by the normal path.
import { optionLabelsOf } from '../../shared/purchase-option-labels';
import { MerchantApiError, MerchantError, MerchantTransportError } from '../merchant/merchant-errors';
import { MERCHANT_ERROR } from '../../shared/merchant-error-codes';
import { PurchaseValidationError, TemplateNotSupportedError, VariantNotFoundError } from './order-errors';
import { deferTemplateWait, dueTemplateWaits, fillTemplate, parkUnavailable, templateNeedsBuyer, type OrderIntent } from './order-intent-store';
import { bumpFailures, changed, isPausedOffline, later, noteOf, nowSeconds, reachedMerchant, wentOffline, type OutboxContext } from './outbox-context';
import { validatePurchase } from './purchase-validation';
import type { PurchaseTemplate } from '../../shared/merchant/template';

/** How many needs_template intents one pass looks at: the rest follow in the next pass. */
const BATCH = 100;

function fetchFailed(ctx: OutboxContext, intent: OrderIntent, error: unknown): void {
  const ref = intent.clientOrderRef;
  if (error instanceof VariantNotFoundError || (error instanceof MerchantApiError && error.code === MERCHANT_ERROR.RESOURCE_NOT_VISIBLE)) {
    if (error instanceof MerchantApiError) reachedMerchant(ctx);
    if (parkUnavailable(ctx.db, ref, 'variantGone', nowSeconds(ctx))) ctx.logger.info('order waiting for its template parked: the variant is gone', { clientOrderRef: ref });
    changed(ctx, ref);
    return;
  }
  if (error instanceof MerchantTransportError) wentOffline(ctx);
  else if (error instanceof MerchantApiError) reachedMerchant(ctx);
  const nextAt = error instanceof MerchantTransportError ? Math.ceil(ctx.offline.pausedUntilMs / 1000) : later(ctx, ctx.retryRule, bumpFailures(ctx, ref));
  deferTemplateWait(ctx.db, ref, noteOf(error), nextAt, nowSeconds(ctx));
  ctx.logger.warn('the template of an order waiting for it could not be fetched; it keeps waiting', { clientOrderRef: ref, code: noteOf(error).code });
  changed(ctx, ref);
}

/** The template came: queued when what the buyer confirmed fits it, otherwise the buyer is asked. */
function applyTemplate(ctx: OutboxContext, intent: OrderIntent, template: PurchaseTemplate): void {
  const ref = intent.clientOrderRef;
  const now = nowSeconds(ctx);
  ctx.failures.delete(ref);
  try {
    const entries = validatePurchase(template, { units: intent.units, purchaseEntries: intent.purchaseEntries ?? [] });
    if (fillTemplate(ctx.db, ref, { purchaseSchemaRevision: template.purchaseSchemaRevision, purchaseEntries: entries, optionLabels: optionLabelsOf(template.purchaseFields, entries), productType: template.productType }, now)) {
      ctx.logger.info('order waiting for its template: template fetched, the order is queued', { clientOrderRef: ref, purchaseSchemaRevision: template.purchaseSchemaRevision });
    }
  } catch (error) {
    if (!(error instanceof PurchaseValidationError) && !(error instanceof TemplateNotSupportedError)) throw error;
    const note = { code: 'TEMPLATE_INPUT', message: error instanceof PurchaseValidationError ? error.errors.map((e) => e.path).join(', ') : 'template not supported', requestId: null };
    if (templateNeedsBuyer(ctx.db, ref, note, template.productType, now)) {
      ctx.logger.info('order waiting for its template: the template asks for more; the buyer confirms', { clientOrderRef: ref });
    }
  }
  changed(ctx, ref);
}

/** One pass over the due needs_template intents; returns how many were looked at. */
export async function fillTemplateWaits(ctx: OutboxContext): Promise<number> {
  const due = dueTemplateWaits(ctx.db, nowSeconds(ctx), BATCH);
  let worked = 0;
  for (const intent of due) {
    if (isPausedOffline(ctx) || ctx.signal()?.aborted === true) break;
    worked += 1;
    let template: PurchaseTemplate;
    try {
      template = await ctx.templates.templateFor(intent.productRef, intent.variantRef, ctx.signal());
    } catch (error) {
      fetchFailed(ctx, intent, error);
      if (!(error instanceof MerchantError) && !(error instanceof VariantNotFoundError)) throw error;
      continue;
    }
    reachedMerchant(ctx);
    applyTemplate(ctx, intent, template);
  }
  return worked;
}
