// The buyer's side of ordering: `placeOrder` validates against the cached template and writes the
// intent, with a fresh clientOrderRef, in one transaction before anything is sent (DESIGN.md "Rules
// that carry money or secrets"). The outbox sends it later, or at once when asked. The intent is the
// only place a ref is ever made, so a retry or a recovery can never get a second one.
import type { Database } from 'better-sqlite3';
import type { SecretAwareLogger } from '../logging/logger';
import type { Clock } from '../platform/clock';
import { newClientRef } from './client-ref';
import { IntentStateError, TemplateMissingError } from './order-errors';
import {
  countIntentsByStatus,
  getIntent,
  insertIntent,
  listIntents,
  markWithdrawn,
  requeueConfirmed,
  type IntentStatus,
  type OrderIntent,
} from './order-intent-store';
import { sensitiveValues, validatePurchase, type PurchaseInput } from './purchase-validation';
import { readCachedTemplate } from './template-cache';

export interface PlaceOrderInput extends PurchaseInput {
  readonly productRef: number;
  /** 0 (or absent) for a single-variant product. */
  readonly variantRef?: number;
  readonly orderCallbackUrl?: string;
  readonly imageUrl?: string;
  /** Groups the intents of one batch (a CSV of top-up accounts). */
  readonly batchId?: string;
}

export interface OrderIntentsOptions {
  readonly db: Database;
  readonly clock: Clock;
  readonly logger: SecretAwareLogger;
}

const seconds = (clock: Clock): number => Math.floor(clock.nowMs() / 1000);

export function createOrderIntents(options: OrderIntentsOptions) {
  const { db, clock, logger } = options;

  return {
    /**
     * Validates and records an intent; returns it in status `queued`. Throws
     * PurchaseValidationError / TemplateNotSupportedError / TemplateMissingError, having written
     * nothing, when the input or the template does not allow the order.
     */
    placeOrder(input: PlaceOrderInput): OrderIntent {
      const variantRef = input.variantRef ?? 0;
      const template = readCachedTemplate(db, input.productRef, variantRef);
      if (template === null) throw new TemplateMissingError(input.productRef, variantRef);
      const entries = validatePurchase(template, input);
      for (const value of sensitiveValues(entries)) logger.registerSecret(value);
      const clientOrderRef = newClientRef('o');
      const now = seconds(clock);
      db.transaction(() => {
        insertIntent(
          db,
          {
            clientOrderRef,
            batchId: input.batchId ?? null,
            productRef: input.productRef,
            variantRef,
            productType: template.productType,
            units: input.units,
            purchaseSchemaRevision: template.purchaseSchemaRevision,
            purchaseEntries: entries,
            orderCallbackUrl: input.orderCallbackUrl ?? null,
            imageUrl: input.imageUrl ?? null,
          },
          now,
        );
      }).immediate();
      logger.info('order intent recorded', { clientOrderRef, productRef: input.productRef, variantRef, units: input.units });
      const intent = getIntent(db, clientOrderRef);
      if (intent === null) throw new Error(`order intent ${clientOrderRef} vanished after it was written`);
      return intent;
    },

    /**
     * After PURCHASE_SCHEMA_CHANGED: the buyer looked at the refreshed template and confirms
     * (possibly corrected) units and entries. Validated against the new cached template, then
     * queued again under the same ref (the merchant stored nothing for the refused create).
     */
    confirmIntent(clientOrderRef: string, input: PurchaseInput): OrderIntent {
      const intent = getIntent(db, clientOrderRef);
      if (intent === null) throw new IntentStateError(`no order intent ${clientOrderRef}`);
      if (intent.status !== 'needs_confirmation') throw new IntentStateError(`order intent ${clientOrderRef} is ${intent.status}, not waiting for confirmation`);
      const template = readCachedTemplate(db, intent.productRef, intent.variantRef);
      if (template === null) throw new TemplateMissingError(intent.productRef, intent.variantRef);
      const entries = validatePurchase(template, input);
      for (const value of sensitiveValues(entries)) logger.registerSecret(value);
      const moved = requeueConfirmed(db, clientOrderRef, { units: input.units, purchaseSchemaRevision: template.purchaseSchemaRevision, purchaseEntries: entries }, seconds(clock));
      if (!moved) throw new IntentStateError(`order intent ${clientOrderRef} changed while it was being confirmed`);
      logger.info('order intent confirmed against a new template', { clientOrderRef, purchaseSchemaRevision: template.purchaseSchemaRevision });
      const updated = getIntent(db, clientOrderRef);
      if (updated === null) throw new Error(`order intent ${clientOrderRef} vanished`);
      return updated;
    },

    /** Gives up an intent the merchant surely does not hold; anything else is refused. */
    withdrawIntent(clientOrderRef: string): void {
      if (!markWithdrawn(db, clientOrderRef, seconds(clock))) {
        const status = getIntent(db, clientOrderRef)?.status ?? 'missing';
        throw new IntentStateError(`order intent ${clientOrderRef} cannot be withdrawn while ${status}: the merchant may already hold it`);
      }
    },

    getIntent: (clientOrderRef: string): OrderIntent | null => getIntent(db, clientOrderRef),
    listIntents: (filter: { status?: IntentStatus; batchId?: string } = {}): OrderIntent[] => listIntents(db, filter),
    countByStatus: (): Record<IntentStatus, number> => countIntentsByStatus(db),
  };
}

export type OrderIntents = ReturnType<typeof createOrderIntents>;
