// The buyer's actions on an order (contract §7.6): verification code, cancel, refund. Each is sent
// only when the stored, authenticated `allowedActions` lists it (interface v1 §4.2.4) and refused locally
// with the reason otherwise; after each the order is fetched again, so what is stored (refunds
// included) always comes from an authenticated GET, never from the action's own answer.
//
// A refund is an intent like an order: its clientRefundRef is stored before the first send and
// reused by every retry, with the same amount and reason; an unknown outcome is looked up in the
// order's refunds before anything is sent again. A verification code is never resent automatically
// (the merchant may have taken it) and never stored.
import type { Database } from 'better-sqlite3';
import { isActionAllowed } from '../../shared/merchant/known-values';
import type { SecretAwareLogger } from '../logging/logger';
import type { MerchantClient } from '../merchant/merchant-client';
import { MerchantApiError, MerchantError } from '../merchant/merchant-errors';
import type { Clock } from '../platform/clock';
import { newClientRef } from './client-ref';
import { ActionNotAllowedError } from './order-errors';
import { getStoredOrder, listRefunds, type StoredOrder } from './order-store';
import type { OrderTracker } from './order-tracker';
import {
  claimRefundForSending,
  finishRefundIntent,
  getRefundIntent,
  insertRefundIntent,
  openRefundIntent,
  type RefundIntent,
} from './refund-intent-store';

export interface OrderActionsOptions {
  readonly db: Database;
  readonly client: MerchantClient;
  readonly clock: Clock;
  readonly logger: SecretAwareLogger;
  readonly tracker: OrderTracker;
}

export interface RefundRequest {
  /** Fen; absent = everything refundable. */
  readonly amountFen?: number;
  /** 1..200 characters (contract §7.6). */
  readonly reason: string;
}

const VERIFICATION_CODE = /^\d{4,8}$/;

export class ActionInputError extends Error {
  override readonly name = 'ActionInputError';
}

/** What the buyer asks of an accepted order: verification code, cancel, refund. */
export interface OrderActions {
  /** Sends an unfinished refund intent again under the same clientRefundRef. */
  retryRefund(clientRefundRef: string): Promise<RefundIntent>;
  /** Sends the code the merchant asked for (state verifying), then reads the order again. */
  submitVerificationCode(clientOrderRef: string, code: string): Promise<StoredOrder | null>;
  /** Asks the merchant to cancel the order (when allowedActions lists cancel), then reads it again. */
  cancel(clientOrderRef: string, reason?: string): Promise<StoredOrder | null>;
  /**
   * Records a refund intent (or reuses the order's unfinished one when it asks the same) and
   * sends it. The refund itself appears in `listRefunds` only once an authenticated detail shows it.
   */
  requestRefund(clientOrderRef: string, request: RefundRequest): Promise<RefundIntent>;
}

export function createOrderActions(options: OrderActionsOptions): OrderActions {
  const { db, client, clock, logger, tracker } = options;
  const nowSeconds = (): number => Math.floor(clock.nowMs() / 1000);

  const requireAllowed = (clientOrderRef: string, action: 'verificationCode' | 'cancel' | 'refund'): StoredOrder => {
    const order = getStoredOrder(db, clientOrderRef);
    if (order === null) throw new ActionNotAllowedError(action, clientOrderRef, 'the order is not known here (not accepted yet)');
    if (!isActionAllowed(order.allowedActions, action)) {
      const listed = order.allowedActions.length === 0 ? 'none' : order.allowedActions.join(', ');
      throw new ActionNotAllowedError(action, clientOrderRef, `in state "${order.state}" the merchant allows: ${listed}`);
    }
    return order;
  };

  /** Refreshes after an action whatever its outcome; a failed refresh is left to the poller. */
  const refreshAfter = async (clientOrderRef: string): Promise<StoredOrder | null> => {
    try {
      return await tracker.refresh(clientOrderRef);
    } catch (error) {
      if (!(error instanceof MerchantError)) throw error;
      tracker.nudge(clientOrderRef);
      return getStoredOrder(db, clientOrderRef);
    }
  };

  /** Sends the refund intent once; records what is known of its outcome. */
  const sendRefund = async (intent: RefundIntent): Promise<void> => {
    if (!claimRefundForSending(db, intent.clientRefundRef, nowSeconds())) return;
    try {
      const { requestId } = await client.requestRefund(intent.clientOrderRef, {
        clientRefundRef: intent.clientRefundRef,
        reason: intent.reason,
        ...(intent.amountFen === null ? {} : { amountFen: intent.amountFen }),
      });
      finishRefundIntent(db, intent.clientRefundRef, 'accepted', { code: null, requestId }, nowSeconds());
    } catch (error) {
      const definite = error instanceof MerchantApiError && error.httpStatus < 500 && error.httpStatus !== 429;
      finishRefundIntent(
        db,
        intent.clientRefundRef,
        definite ? 'rejected' : 'unknown',
        { code: error instanceof MerchantApiError ? String(error.code) : 'UNKNOWN_OUTCOME', requestId: error instanceof MerchantError ? error.requestId : null },
        nowSeconds(),
      );
      throw error;
    }
  };

  /**
   * Resolves an unfinished refund intent: if the authenticated detail already lists its
   * clientRefundRef, it was accepted; otherwise it is sent again with the same ref and content.
   */
  const retryRefund = async (clientRefundRef: string): Promise<RefundIntent> => {
    const intent = getRefundIntent(db, clientRefundRef);
    if (intent === null) throw new ActionInputError(`no refund intent ${clientRefundRef}`);
    if (intent.status !== 'queued' && intent.status !== 'unknown') return intent;
    await tracker.refresh(intent.clientOrderRef);
    if (listRefunds(db, intent.clientOrderRef).some((refund) => refund.clientRefundRef === clientRefundRef)) {
      finishRefundIntent(db, clientRefundRef, 'accepted', { code: null, requestId: null }, nowSeconds());
    } else {
      if (intent.status === 'queued') requireAllowed(intent.clientOrderRef, 'refund');
      try {
        await sendRefund(intent);
      } finally {
        await refreshAfter(intent.clientOrderRef);
      }
    }
    return getRefundIntent(db, clientRefundRef) ?? intent;
  };

  return {
    retryRefund,

    async submitVerificationCode(clientOrderRef: string, code: string): Promise<StoredOrder | null> {
      requireAllowed(clientOrderRef, 'verificationCode');
      if (!VERIFICATION_CODE.test(code)) throw new ActionInputError('a verification code is 4 to 8 digits');
      // Kept registered: the code must not show up in any later line either.
      logger.registerSecret(code);
      try {
        await client.submitVerificationCode(clientOrderRef, code);
        logger.info('verification code submitted', { clientOrderRef });
      } finally {
        await refreshAfter(clientOrderRef);
      }
      return getStoredOrder(db, clientOrderRef);
    },

    async cancel(clientOrderRef: string, reason?: string): Promise<StoredOrder | null> {
      requireAllowed(clientOrderRef, 'cancel');
      if (reason !== undefined && [...reason].length > 200) throw new ActionInputError('a cancel reason is at most 200 characters');
      try {
        await client.cancelOrder(clientOrderRef, reason);
        logger.info('order cancelled', { clientOrderRef });
      } finally {
        await refreshAfter(clientOrderRef);
      }
      return getStoredOrder(db, clientOrderRef);
    },

    /**
     * Records a refund intent (or reuses the order's unfinished one when it asks the same) and
     * sends it. The refund itself appears in `listRefunds` only once an authenticated detail shows it.
     */
    async requestRefund(clientOrderRef: string, request: RefundRequest): Promise<RefundIntent> {
      const reasonLength = [...request.reason].length;
      if (reasonLength < 1 || reasonLength > 200) throw new ActionInputError('a refund reason is 1 to 200 characters');
      if (request.amountFen !== undefined && (!Number.isSafeInteger(request.amountFen) || request.amountFen <= 0)) {
        throw new ActionInputError('a refund amount is a positive number of fen');
      }
      const amountFen = request.amountFen ?? null;
      let intent = openRefundIntent(db, clientOrderRef);
      if (intent !== null && (intent.amountFen !== amountFen || intent.reason !== request.reason)) {
        throw new ActionNotAllowedError('refund', clientOrderRef, `refund ${intent.clientRefundRef} for this order is still unresolved; retry it or wait for it`);
      }
      if (intent === null) {
        requireAllowed(clientOrderRef, 'refund');
        const clientRefundRef = newClientRef('r');
        insertRefundIntent(db, { clientRefundRef, clientOrderRef, amountFen, reason: request.reason }, nowSeconds());
        intent = getRefundIntent(db, clientRefundRef);
        if (intent === null) throw new Error(`refund intent ${clientRefundRef} vanished`);
      } else {
        return retryRefund(intent.clientRefundRef);
      }
      try {
        await sendRefund(intent);
      } finally {
        await refreshAfter(clientOrderRef);
      }
      return getRefundIntent(db, intent.clientRefundRef) ?? intent;
    },

  };
}

