// The buyer's side of ordering: `placeOrder` validates against the cached template and writes the
// intent, with a fresh clientOrderRef, in one transaction before anything is sent (DESIGN.md "Rules
// that carry money or secrets"). The outbox sends it later, or at once when asked. The intent is the
// only place a ref is ever made, so a retry or a recovery can never get a second one.
import type { Database } from 'better-sqlite3';
import type { SecretAwareLogger } from '../logging/logger';
import type { Clock } from '../platform/clock';
import { newClientRef } from './client-ref';
import type { PurchaseTemplate } from '../../shared/merchant/template';
import { optionLabelsOf, type OptionLabels } from '../../shared/purchase-option-labels';
import { IntentStateError, PriceUnknownError, TemplateMissingError, TemplateOfflineError } from './order-errors';
import {
  countIntentsByStatus,
  getIntent,
  insertIntent,
  listIntents,
  PARKED_STATUSES,
  requeueConfirmed,
  type IntentStatus,
  type OrderIntent,
} from './order-intent-store';
import { sensitiveValues, validatePurchase, type PurchaseInput } from './purchase-validation';
import { intentOfDraft, recordDraft } from './order-drafts';
import { readCachedTemplate } from './template-cache';

export interface PlaceOrderInput extends PurchaseInput {
  readonly productRef: number;
  /** 0 (or absent) for a single-variant product. */
  readonly variantRef?: number;
  readonly orderCallbackUrl?: string;
  readonly imageUrl?: string;
  /** Groups the intents of one batch (a CSV of top-up accounts). */
  readonly batchId?: string;
  /**
   * The unit price (fen) the buyer was shown and confirmed; the guard never lets the intent go out at
   * a higher one. Absent: the price the catalog cache shows now (the CLI prints it); an order whose
   * price is not known at all is refused (PriceUnknownError), never placed unguarded.
   */
  readonly unitPriceFen?: number;
  /**
   * The review step's own reference for the order the buyer confirmed (0014). Placing the same draft
   * again answers the intent already written for it: one confirmation is one order, whatever the
   * transport did to the first answer.
   */
  readonly draftRef?: string;
}

/** Re-confirming a parked intent: units and entries against the cached template, and the price. */
export interface ConfirmInput extends PurchaseInput {
  /** The unit price now confirmed; absent keeps the one confirmed before (409101 with an unchanged price). */
  readonly unitPriceFen?: number;
}

/** The current price of a variant in the catalog cache (fen), or null when the cache has none. */
export function cachedUnitPriceFen(db: Database, productRef: number, variantRef: number): number | null {
  const row = db
    .prepare<[number, number], { price_fen: number }>('SELECT price_fen FROM variants WHERE product_ref = ? AND variant_ref = ?')
    .get(productRef, variantRef);
  return row?.price_fen ?? null;
}

export interface OrderIntentsOptions {
  readonly db: Database;
  readonly clock: Clock;
  readonly logger: SecretAwareLogger;
}

const seconds = (clock: Clock): number => Math.floor(clock.nowMs() / 1000);

/** The product type the catalog holds for a variant it knows, or null (the variant is not in the cache). */
function knownProductType(db: Database, productRef: number, variantRef: number): string | null {
  const row = db
    .prepare<[number, number], { product_type: string }>(
      'SELECT p.product_type FROM products p JOIN variants v ON v.product_ref = p.product_ref WHERE p.product_ref = ? AND v.variant_ref = ?',
    )
    .get(productRef, variantRef);
  return row?.product_type ?? null;
}

/** What checking against a template (or its absence) decided for the row. */
interface CheckedContent {
  readonly productType: string;
  readonly purchaseSchemaRevision: number | null;
  readonly purchaseEntries: Record<string, string>[];
  /** The labels of the options picked (contract §7.11); empty while no template says what they are. */
  readonly optionLabels: OptionLabels[];
}

/** The intent an earlier place of this draft wrote, if it says the same order; anything else is a bug to stop at. */
function sameDraftIntent(intent: OrderIntent | null, input: PlaceOrderInput, variantRef: number, unitPriceFen: number): OrderIntent {
  if (intent === null) throw new Error('an order draft names an intent that is not there');
  const same = intent.productRef === input.productRef && intent.variantRef === variantRef && intent.units === input.units && intent.confirmedUnitPriceFen === unitPriceFen;
  if (!same) throw new IntentStateError(`this review was already placed as ${intent.clientOrderRef} with other content; nothing new was written`);
  return intent;
}

/** Order intents: what the buyer confirmed, recorded (with its clientOrderRef) before anything is sent. */
export interface OrderIntents {
  /**
   * Validates and records an intent; returns it in status `queued`. Throws
   * PurchaseValidationError / TemplateNotSupportedError / TemplateMissingError, having written
   * nothing, when the input or the template does not allow the order.
   */
  placeOrder(input: PlaceOrderInput, template?: PurchaseTemplate): OrderIntent;
  /**
   * Records an intent in status `needs_template` (contract §7.10): the merchant cannot be reached and
   * no trusted template is cached. Units, the confirmed unit price and the entries given are kept as
   * confirmed; nothing is validated against a template that is not there, and it is never sent until
   * the outbox fetched one. Throws TemplateOfflineError when the catalog does not know the variant.
   */
  placeAwaitingTemplate(input: PlaceOrderInput): OrderIntent;
  /**
   * The buyer confirms a parked intent again: after PURCHASE_SCHEMA_CHANGED (the refreshed
   * template), or after the guard parked it (price_changed: the new price; unavailable: once it can
   * be supplied). Units and entries are validated against the cached template, then the intent is
   * queued again under the same ref (the merchant holds nothing under it) and guarded again before
   * it is sent. Withdrawing is the other answer (OrderOutbox.withdraw).
   */
  confirmIntent(clientOrderRef: string, input: ConfirmInput): OrderIntent;
  /** The stored intent under this ref, or null. */
  getIntent(clientOrderRef: string): OrderIntent | null;
  /** Stored intents, optionally of one status or one batch. */
  listIntents: (filter?: {
      status?: IntentStatus;
      batchId?: string;
  }) => OrderIntent[];
  /** How many intents are in each status (the CLI waits until none is queued, sending or unknown). */
  countByStatus(): Record<IntentStatus, number>;
}

export function createOrderIntents(options: OrderIntentsOptions): OrderIntents {
  const { db, clock, logger } = options;

  /** Writes the intent (and its draft) in one transaction, before anything is sent; a draft placed again answers its intent. */
  const write = (input: PlaceOrderInput, checked: CheckedContent, status: 'queued' | 'needs_template'): OrderIntent => {
    const variantRef = input.variantRef ?? 0;
    const confirmedUnitPriceFen = input.unitPriceFen ?? cachedUnitPriceFen(db, input.productRef, variantRef);
    if (confirmedUnitPriceFen === null) throw new PriceUnknownError(input.productRef, variantRef);
    const draftRef = input.draftRef ?? null;
    const now = seconds(clock);
    // The same review step placed again (a retry over a lost answer): the intent already written.
    const placed = draftRef === null ? null : db.transaction(() => intentOfDraft(db, draftRef)).immediate();
    if (placed !== null) {
      logger.info('order draft placed again: answering the intent already written', { clientOrderRef: placed });
      return sameDraftIntent(getIntent(db, placed), input, variantRef, confirmedUnitPriceFen);
    }
    const clientOrderRef = newClientRef('o');
    db.transaction(() => {
      if (draftRef !== null) {
        const raced = intentOfDraft(db, draftRef);
        if (raced !== null) throw new IntentStateError(`the order of this review was placed at the same moment as ${raced}`);
      }
      insertIntent(
        db,
        {
          clientOrderRef,
          batchId: input.batchId ?? null,
          productRef: input.productRef,
          variantRef,
          productType: checked.productType,
          units: input.units,
          purchaseSchemaRevision: checked.purchaseSchemaRevision,
          purchaseEntries: checked.purchaseEntries,
          optionLabels: checked.optionLabels,
          orderCallbackUrl: input.orderCallbackUrl ?? null,
          imageUrl: input.imageUrl ?? null,
          confirmedUnitPriceFen,
        },
        now,
        status,
      );
      if (draftRef !== null) recordDraft(db, draftRef, clientOrderRef, now);
    }).immediate();
    logger.info('order intent recorded', { clientOrderRef, status, productRef: input.productRef, variantRef, units: input.units, confirmedUnitPriceFen });
    const intent = getIntent(db, clientOrderRef);
    if (intent === null) throw new Error(`order intent ${clientOrderRef} vanished after it was written`);
    return intent;
  };

  return {
    /**
     * Validates and records an intent; returns it in status `queued`. Throws
     * PurchaseValidationError / TemplateNotSupportedError / TemplateMissingError, having written
     * nothing, when the input or the template does not allow the order.
     */
    placeOrder(input: PlaceOrderInput, template?: PurchaseTemplate): OrderIntent {
      const variantRef = input.variantRef ?? 0;
      const checkedAgainst = template ?? readCachedTemplate(db, input.productRef, variantRef);
      if (checkedAgainst === null) throw new TemplateMissingError(input.productRef, variantRef);
      const entries = validatePurchase(checkedAgainst, input);
      for (const value of sensitiveValues(entries)) logger.registerSecret(value);
      return write(input, { productType: checkedAgainst.productType, purchaseSchemaRevision: checkedAgainst.purchaseSchemaRevision, purchaseEntries: entries, optionLabels: optionLabelsOf(checkedAgainst.purchaseFields, entries) }, 'queued');
    },

    placeAwaitingTemplate(input: PlaceOrderInput): OrderIntent {
      const variantRef = input.variantRef ?? 0;
      const productType = knownProductType(db, input.productRef, variantRef);
      if (productType === null) throw new TemplateOfflineError(input.productRef, variantRef);
      // No template says which values are sensitive: every one is kept out of the log.
      const entries = (input.purchaseEntries ?? []).map((group) => Object.fromEntries(Object.entries(group).map(([field, value]) => [field, String(value)])));
      for (const group of entries) for (const value of Object.values(group)) if (value !== '') logger.registerSecret(value);
      return write(input, { productType, purchaseSchemaRevision: null, purchaseEntries: entries, optionLabels: [] }, 'needs_template');
    },

    /**
     * The buyer confirms a parked intent again: after PURCHASE_SCHEMA_CHANGED (the refreshed
     * template), or after the guard parked it (price_changed: the new price; unavailable: once it can
     * be supplied). Units and entries are validated against the cached template, then the intent is
     * queued again under the same ref (the merchant holds nothing under it) and guarded again before
     * it is sent. Withdrawing is the other answer (OrderOutbox.withdraw).
     */
    confirmIntent(clientOrderRef: string, input: ConfirmInput): OrderIntent {
      const intent = getIntent(db, clientOrderRef);
      if (intent === null) throw new IntentStateError(`no order intent ${clientOrderRef}`);
      if (!PARKED_STATUSES.includes(intent.status)) throw new IntentStateError(`order intent ${clientOrderRef} is ${intent.status}, not waiting for confirmation`);
      const template = readCachedTemplate(db, intent.productRef, intent.variantRef);
      if (template === null) throw new TemplateMissingError(intent.productRef, intent.variantRef);
      const entries = validatePurchase(template, input);
      for (const value of sensitiveValues(entries)) logger.registerSecret(value);
      const confirmedUnitPriceFen = input.unitPriceFen ?? intent.confirmedUnitPriceFen;
      const moved = requeueConfirmed(
        db,
        clientOrderRef,
        { units: input.units, purchaseSchemaRevision: template.purchaseSchemaRevision, purchaseEntries: entries, optionLabels: optionLabelsOf(template.purchaseFields, entries), confirmedUnitPriceFen },
        seconds(clock),
      );
      if (!moved) throw new IntentStateError(`order intent ${clientOrderRef} changed while it was being confirmed`);
      logger.info('order intent confirmed again', { clientOrderRef, from: intent.status, purchaseSchemaRevision: template.purchaseSchemaRevision, confirmedUnitPriceFen });
      const updated = getIntent(db, clientOrderRef);
      if (updated === null) throw new Error(`order intent ${clientOrderRef} vanished`);
      return updated;
    },

    getIntent: (clientOrderRef: string): OrderIntent | null => getIntent(db, clientOrderRef),
    listIntents: (filter: { status?: IntentStatus; batchId?: string } = {}): OrderIntent[] => listIntents(db, filter),
    countByStatus: (): Record<IntentStatus, number> => countIntentsByStatus(db),
  };
}

