// Opening a case from an order (contract §9.1).
//
// Before anything is sent: the input is checked (case-validation.ts) and the order must list
// `aftersale` in its allowedActions (interface v1 §4.2.4). What is stored may be stale (a case the merchant
// resolved frees the order again without moving its revision), so a refusal is only given after the
// order was read again; the words say why (a case is open, the order is not finished, …).
//
// The create has no idempotency key, but a repeated create with the same order, category and
// description while the case is open returns that case. So the content is recorded first
// (open-intent-store.ts) and an attempt whose answer did not come (network, timeout, 5xx, crash) is
// sent again with the same content until the outcome is known: in the background, or when the buyer
// tries again with the same content (the stored order no longer lists `aftersale` then, and must not
// stop it). There is no list endpoint to find a case whose answer was lost: this is the only way.
// A buyer who tries different content while an earlier create is unresolved gets the earlier one
// settled first, so an order never ends up with a case the app does not know of.
import type { Database } from 'better-sqlite3';
import type { NormalisedCase } from '../../shared/aftersale-rules';
import type { SecretAwareLogger } from '../logging/logger';
import type { AftersaleBody, MerchantClient } from '../merchant/merchant-client';
import { MerchantApiError, MerchantError } from '../merchant/merchant-errors';
import { backoffMs, type BackoffRule } from '../../shared/backoff';
import type { OrderTracker } from '../orders/order-tracker';
import type { Clock } from '../platform/clock';
import { AftersaleNotFoundError, CaseActionNotAllowedError, CaseOpenPendingError } from './aftersale-errors';
import type { CaseTracker } from './case-tracker';
import { claimOpenIntent, deleteOpenIntent, dueOpenIntents, getOpenIntent, insertOpenIntent, markInterruptedOpensUnknown, markOpenUnknown, nextOpenDueAt, type OpenIntent } from './open-intent-store';
import { MERCHANT_ERROR } from '../../shared/merchant-error-codes';

const UNFINISHED_ORDER_STATES = new Set(['pending', 'processing', 'verifying']);

export interface CaseOpenerOptions {
  readonly db: Database;
  readonly client: Pick<MerchantClient, 'createAftersale'>;
  readonly clock: Clock;
  readonly logger: SecretAwareLogger;
  readonly cases: Pick<CaseTracker, 'apply'>;
  /** Reads the order again (its allowedActions change when a case opens or ends). */
  readonly orders: Pick<OrderTracker, 'refresh'>;
  readonly retry?: BackoffRule;
}

interface OrderFacts {
  readonly intentStatus: string;
  readonly state: string | null;
  readonly allowedActions: string[];
}

const DEFAULT_RETRY: BackoffRule = { baseMs: 5_000, maxMs: 15 * 60_000 };

function bodyOfIntent(intent: Pick<OpenIntent, 'clientOrderRef' | 'category' | 'description' | 'images'>): AftersaleBody {
  return {
    clientOrderRef: intent.clientOrderRef,
    category: intent.category,
    description: intent.description,
    ...(intent.images.length > 0 ? { images: intent.images } : {}),
  };
}

const sameContent = (intent: OpenIntent, content: NormalisedCase): boolean =>
  intent.category === content.category && intent.description === content.description && JSON.stringify(intent.images) === JSON.stringify(content.images);

/** A create the merchant refused for good (4xx other than the account or quota): nothing was opened. */
const definitelyRefused = (error: unknown): error is MerchantApiError =>
  error instanceof MerchantApiError && error.httpStatus >= 400 && error.httpStatus < 500 && error.httpStatus !== 401 && error.httpStatus !== 403 && error.httpStatus !== 429;

/** Opens cases under a stored ref, sending an interrupted create again with the same content. */
export interface CaseOpener {
  /** Opens a case (or finds the one an earlier identical attempt opened); resolves with its ref. */
  open(ref: string, content: NormalisedCase): Promise<string>;
  /** Start-up: creates that were on their way are unknown until sent again. */
  recover(): number;
  /** Sends again every unresolved create that is due; returns how many were tried. */
  resolveDue(signal?: AbortSignal): Promise<number>;
  /** Core-clock ms when the next unresolved create is due (null: none). */
  nextWakeMs(): number | null;
}

export function createCaseOpener(options: CaseOpenerOptions): CaseOpener {
  const { db, client, clock, logger, cases, orders } = options;
  const retryRule = options.retry ?? DEFAULT_RETRY;
  /** One create per order at a time: the buyer's and the background's never race each other. */
  const inFlight = new Map<string, Promise<string>>();
  const nowSeconds = (): number => Math.floor(clock.nowMs() / 1000);

  const readOrder = (ref: string): OrderFacts | null => {
    const row = db
      .prepare<[string], { status: string; state: string | null; allowed_actions_json: string | null }>(
        'SELECT i.status, o.state, o.allowed_actions_json FROM order_intents i LEFT JOIN orders o ON o.client_order_ref = i.client_order_ref WHERE i.client_order_ref = ?',
      )
      .get(ref);
    if (row === undefined) return null;
    return { intentStatus: row.status, state: row.state, allowedActions: row.allowed_actions_json === null ? [] : (JSON.parse(row.allowed_actions_json) as string[]) };
  };

  const activeCaseOf = (ref: string): string | null =>
    db
      .prepare<[string], { ref: string }>(
        `SELECT platform_case_ref AS ref FROM aftersale_cases WHERE client_order_ref = ? AND state NOT IN ('resolved', 'closed') ORDER BY created_at DESC LIMIT 1`,
      )
      .get(ref)?.ref ?? null;

  /** An open case of the order with this very content: what the merchant would answer a repeated create with (9.1). */
  const sameOpenCase = (ref: string, content: NormalisedCase): string | null =>
    db
      .prepare<[string, string, string], { ref: string }>(
        `SELECT platform_case_ref AS ref FROM aftersale_cases
         WHERE client_order_ref = ? AND category = ? AND description = ? AND state NOT IN ('resolved', 'closed') ORDER BY created_at DESC LIMIT 1`,
      )
      .get(ref, content.category, content.description)?.ref ?? null;

  const whyNotAllowed = (ref: string, order: OrderFacts): string => {
    const open = activeCaseOf(ref);
    if (open !== null) return `order ${ref} already has an open after-sales case (${open}); continue the conversation there`;
    if (order.state === null) return `the merchant has not accepted order ${ref} yet, so no after-sales case can be opened for it`;
    if (UNFINISHED_ORDER_STATES.has(order.state)) return `the merchant takes an after-sales case for order ${ref} only once it is finished; it is ${order.state} now`;
    if (order.state === 'cancelled') return `order ${ref} was cancelled, so the merchant takes no after-sales case for it`;
    return `the merchant does not allow an after-sales case for order ${ref} in its current state (${order.state})`;
  };

  /** The order as the merchant has it now; what is stored when it cannot be read. */
  const freshOrder = async (ref: string, stored: OrderFacts): Promise<OrderFacts> => {
    if (stored.state === null) return stored;
    try {
      await orders.refresh(ref);
    } catch (error) {
      logger.info('order refresh before a case create failed; deciding on what is stored', { clientOrderRef: ref, error: error instanceof Error ? logger.redact(error.message) : 'unknown' });
    }
    return readOrder(ref) ?? stored;
  };

  const refreshOrderQuietly = (ref: string): void => {
    orders.refresh(ref).catch((error: unknown) => logger.info('order refresh after a case create failed', { clientOrderRef: ref, error: error instanceof Error ? logger.redact(error.message) : 'unknown' }));
  };

  /** One send of the recorded content. Resolves with the case ref, or throws what the buyer should hear. */
  const attempt = async (ref: string): Promise<string> => {
    const intent = claimOpenIntent(db, ref, nowSeconds());
    if (intent === null) throw new AftersaleNotFoundError(`no case create recorded for order ${ref}`);
    let data: Awaited<ReturnType<MerchantClient['createAftersale']>>['data'];
    try {
      ({ data } = await client.createAftersale(bodyOfIntent(intent)));
    } catch (error) {
      if (definitelyRefused(error)) {
        deleteOpenIntent(db, ref);
        logger.info('case create refused by the merchant', { clientOrderRef: ref, code: error.code, requestId: error.requestId });
        if (error.code === MERCHANT_ERROR.CASE_ACTION_NOT_ALLOWED) {
          refreshOrderQuietly(ref);
          throw new CaseActionNotAllowedError(`the merchant refused to open a case for order ${ref} (CASE_ACTION_NOT_ALLOWED): it already has an open case, or its state does not allow one`, {
            code: error.code,
            requestId: error.requestId,
          });
        }
        throw error;
      }
      const note = error instanceof MerchantError ? { code: error instanceof MerchantApiError ? String(error.code) : error.kind.toUpperCase(), requestId: error.requestId } : { code: 'LOCAL', requestId: null };
      markOpenUnknown(db, ref, note, Math.ceil((clock.nowMs() + backoffMs(retryRule, intent.attempts)) / 1000), nowSeconds());
      logger.warn('case create outcome unknown; the same create will be sent again', { clientOrderRef: ref, code: note.code, requestId: note.requestId });
      if (error instanceof MerchantApiError && (error.httpStatus === 401 || error.httpStatus === 403)) throw error;
      if (!(error instanceof MerchantError)) throw error;
      throw new CaseOpenPendingError(ref, error instanceof MerchantApiError || error.kind === 'protocol' ? 'merchantTrouble' : 'unreachable', error.requestId);
    }
    if (data.clientOrderRef !== ref) throw new Error(`the merchant answered with a case of order ${data.clientOrderRef} when asked for ${ref}`);
    db.transaction(() => {
      cases.apply(data, false);
      deleteOpenIntent(db, ref);
    }).immediate();
    logger.info('case opened', { clientOrderRef: ref, platformCaseRef: data.platformCaseRef, state: data.state });
    refreshOrderQuietly(ref);
    return data.platformCaseRef;
  };

  const serialised = (ref: string): Promise<string> => {
    const running = inFlight.get(ref);
    if (running !== undefined) return running;
    const started = attempt(ref).finally(() => inFlight.delete(ref));
    inFlight.set(ref, started);
    return started;
  };

  /** An earlier create of this order with other content whose outcome is unknown: settle it first. */
  const settleEarlier = async (ref: string): Promise<void> => {
    let opened: string;
    try {
      opened = await serialised(ref);
    } catch (error) {
      // The earlier content was refused (nothing open under it): the new one may go.
      if (error instanceof CaseActionNotAllowedError || definitelyRefused(error)) return;
      throw error;
    }
    throw new CaseActionNotAllowedError(`an earlier request already opened case ${opened} for order ${ref}; add what you wanted to say there as a message`);
  };

  return {
    /** Opens a case (or finds the one an earlier identical attempt opened); resolves with its ref. */
    async open(ref: string, content: NormalisedCase): Promise<string> {
      const stored = readOrder(ref);
      if (stored === null) throw new AftersaleNotFoundError(`no order ${ref} here`);
      const earlier = getOpenIntent(db, ref);
      if (earlier !== null && !sameContent(earlier, content)) await settleEarlier(ref);
      const retry = getOpenIntent(db, ref);
      if (retry === null) {
        // The buyer sent the same again after it went through (a double click, a retry after a lost answer).
        const known = sameOpenCase(ref, content);
        if (known !== null) return known;
        let order = stored;
        if (!order.allowedActions.includes('aftersale')) {
          order = await freshOrder(ref, stored);
          if (!order.allowedActions.includes('aftersale')) throw new CaseActionNotAllowedError(whyNotAllowed(ref, order));
        }
        insertOpenIntent(db, { clientOrderRef: ref, ...content }, nowSeconds());
      }
      return serialised(ref);
    },
    /** Start-up: creates that were on their way are unknown until sent again. */
    recover(): number {
      const count = markInterruptedOpensUnknown(db, nowSeconds());
      if (count > 0) logger.warn('case creates interrupted while sending; they are sent again with the same content', { count });
      return count;
    },
    /** Sends again every unresolved create that is due; returns how many were tried. */
    async resolveDue(signal?: AbortSignal): Promise<number> {
      const due = dueOpenIntents(db, nowSeconds());
      let tried = 0;
      for (const intent of due) {
        if (signal?.aborted === true) break;
        tried += 1;
        try {
          const opened = await serialised(intent.clientOrderRef);
          logger.info('an earlier case create is settled', { clientOrderRef: intent.clientOrderRef, platformCaseRef: opened });
        } catch (error) {
          if (error instanceof CaseOpenPendingError) continue;
          logger.warn('an earlier case create was not opened', { clientOrderRef: intent.clientOrderRef, error: error instanceof Error ? logger.redact(error.message) : 'unknown' });
        }
      }
      return tried;
    },
    nextWakeMs(): number | null {
      const at = nextOpenDueAt(db);
      return at === null ? null : at * 1000;
    },
  };
}

