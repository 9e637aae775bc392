// One typed method per interface v1 endpoint (interface v1 §4, contract §1–9). Bodies are plain data; the sender
// does quotas, retries and validation. Money in request bodies is converted from fen at this edge.
import { fenToYuanNumber } from '../../shared/money';
import { accountSchema, type Account } from '../../shared/merchant/account';
import { aftersaleCaseSchema, caseMessageSchema, type AftersaleCase, type CaseMessage } from '../../shared/merchant/aftersale';
import { catalogPageSchema, categoryListSchema, productDetailSchema, type CatalogPage, type CategoryList, type ProductDetail } from '../../shared/merchant/catalog';
import { orderListSchema, orderSchema, type Order, type OrderList } from '../../shared/merchant/order';
import { subscriptionChangeSchema, type SubscriptionChange } from '../../shared/merchant/subscription';
import { purchaseTemplateSchema, type PurchaseTemplate } from '../../shared/merchant/template';
import type { AccessGate } from './access-gate';
import type { QuotaPriority } from './quota-model';
import type { MerchantResult, RequestSender } from './request-sender';

export interface Paging {
  page?: number;
  pageSize?: number;
}

export interface CreateOrderBody {
  clientOrderRef: string;
  productRef: number;
  variantRef?: number;
  units: number;
  purchaseSchemaRevision?: number;
  purchaseEntries?: Record<string, string>[];
  orderCallbackUrl?: string;
  imageUrl?: string;
}

export interface RefundBody {
  clientRefundRef: string;
  /** Fen; absent = all that is refundable. */
  amountFen?: number;
  reason: string;
}

export interface AftersaleBody {
  clientOrderRef: string;
  category: string;
  description: string;
  images?: string[];
}

export interface MessageBody {
  clientMessageRef: string;
  text: string;
  images?: string[];
}

/**
 * One typed method per endpoint; each resolves with the parsed data and the merchant's requestId, or
 * throws the sender's typed errors (merchant-errors.ts).
 */
export interface MerchantClient {
  /** GET /account (contract §1); every answer also tells the access gate whether a suspension is over. */
  getAccount(signal?: AbortSignal): Promise<MerchantResult<Account>>;
  /** GET /categories, one page (contract §2). */
  listCategories(paging?: Paging, signal?: AbortSignal): Promise<MerchantResult<CategoryList>>;
  /** GET /goods/catalog, one page (contract §3); `subscriptionState` lists only subscribed products. */
  listCatalog(query?: Paging & { catalogRef?: number; subscriptionState?: 'subscribed' }, signal?: AbortSignal): Promise<MerchantResult<CatalogPage>>;
  /** GET /goods/{productRef} (contract §4): the authenticated detail. */
  getProduct(productRef: number, signal?: AbortSignal): Promise<MerchantResult<ProductDetail>>;
  /** GET /goods/tpl (contract §5); a single-variant product (variantRef null or 0) is asked by productRef only. */
  getTemplate(productRef: number, variantRef: number | null, signal?: AbortSignal): Promise<MerchantResult<PurchaseTemplate>>;
  /** POST /goods/subscriptions (contract §6): subscribes or cancels up to 100 products. */
  changeSubscriptions(
    body: { productRefs: number[]; subscriptionState: 'subscribed' | 'unsubscribed'; callbackUrl?: string },
    signal?: AbortSignal,
  ): Promise<MerchantResult<SubscriptionChange>>;
  /**
   * POST /orders/create (contract §7.1): repeatable, because the clientOrderRef makes a retry the same
   * order; a 500 ends the call (the outbox counts it against the intent's ceiling, contract §7.12).
   */
  createOrder(body: CreateOrderBody, signal?: AbortSignal): Promise<MerchantResult<Order>>;
  /** GET /orders, one page (contract §7.5). */
  listOrders(query?: Paging & { state?: string; productRef?: number; createdFrom?: number; createdTo?: number }, signal?: AbortSignal): Promise<MerchantResult<OrderList>>;
  /**
   * GET /orders/{clientOrderRef} (contract §7.4): the authenticated order detail. `lookup.attemptsOn500`
   * 1: a 500 ends the call (the outbox's look-up of an intent, counted per intent, contract §7.12).
   */
  getOrder(clientOrderRef: string, signal?: AbortSignal, lookup?: { readonly attemptsOn500: number }): Promise<MerchantResult<Order>>;
  /** POST …/verification-code (contract §7.6): never sent twice automatically (a code may be taken without an answer). */
  submitVerificationCode(clientOrderRef: string, verificationCode: string, signal?: AbortSignal): Promise<MerchantResult<Order>>;
  /** POST …/cancel (contract §7.6): never sent twice automatically. */
  cancelOrder(clientOrderRef: string, reason?: string, signal?: AbortSignal): Promise<MerchantResult<Order>>;
  /** POST …/refunds (contract §7.6): repeatable under its clientRefundRef; the amount converted from fen here. */
  requestRefund(clientOrderRef: string, body: RefundBody, signal?: AbortSignal): Promise<MerchantResult<Order>>;
  /** POST /aftersales (contract §9.1): repeatable, since the same content while the case is open answers that case. */
  createAftersale(body: AftersaleBody, signal?: AbortSignal): Promise<MerchantResult<AftersaleCase>>;
  /** GET /aftersales/{platformCaseRef} (contract §9.3). */
  getAftersale(platformCaseRef: string, signal?: AbortSignal): Promise<MerchantResult<AftersaleCase>>;
  /** POST /aftersales/{platformCaseRef}/messages (contract §9.2): repeatable under its clientMessageRef. */
  postAftersaleMessage(platformCaseRef: string, body: MessageBody, signal?: AbortSignal): Promise<MerchantResult<CaseMessage>>;
}

const orderPath = (ref: string): string => `/orders/${encodeURIComponent(ref)}`;

/** Told every GET /account answer of the client (the balance history records it); must not throw. */
export type AccountObserver = (account: Account, requestId: string | null) => void;

/**
 * `access`: told every GET /account answer, the one that says whether a suspension is over (interface v1 §3.3).
 * `priority`: `background` for work nobody waits on (the catalog sync, polls), which then yields the
 * quota to the buyer's own requests (quota-model.ts); which caller gets which is decided in
 * request-priority.ts (core builds every client in merchant-services.ts from that table).
 */
export function createMerchantClient(sender: RequestSender, access?: AccessGate, priority: QuotaPriority = 'interactive', accountObserver?: AccountObserver): MerchantClient {
  const send: RequestSender = (request, signal) => sender({ ...request, priority }, signal);
  return {
    getAccount: async (signal?: AbortSignal) => {
      const result = await send({ method: 'GET', path: '/account', group: 'account', repeatable: true, schema: accountSchema }, signal);
      access?.accountAnswered(result.data.accessState, result.requestId, result.slowMs ?? null);
      accountObserver?.(result.data, result.requestId);
      return result;
    },
    listCategories: (paging: Paging = {}, signal?: AbortSignal) =>
      send({ method: 'GET', path: '/categories', query: { ...paging }, group: 'account', repeatable: true, schema: categoryListSchema }, signal),
    listCatalog: (query: Paging & { catalogRef?: number; subscriptionState?: 'subscribed' } = {}, signal?: AbortSignal) =>
      send({ method: 'GET', path: '/goods/catalog', query: { ...query }, group: 'catalog', repeatable: true, schema: catalogPageSchema }, signal),
    getProduct: (productRef: number, signal?: AbortSignal) =>
      send({ method: 'GET', path: `/goods/${productRef}`, group: 'catalog', repeatable: true, schema: productDetailSchema }, signal),
    getTemplate: (productRef: number, variantRef: number | null, signal?: AbortSignal) =>
      send(
        {
          method: 'GET',
          path: '/goods/tpl',
          // Single-variant products are asked by productRef only (interface v1 §4, step 4).
          query: { productRef, variantRef: variantRef === null || variantRef === 0 ? undefined : variantRef },
          group: 'catalog',
          repeatable: true,
          schema: purchaseTemplateSchema,
        },
        signal,
      ),
    changeSubscriptions: (body: { productRefs: number[]; subscriptionState: 'subscribed' | 'unsubscribed'; callbackUrl?: string }, signal?: AbortSignal) =>
      send({ method: 'POST', path: '/goods/subscriptions', body: { ...body }, group: 'subscriptions', repeatable: true, schema: subscriptionChangeSchema }, signal),
    createOrder: (body: CreateOrderBody, signal?: AbortSignal) =>
      send({ method: 'POST', path: '/orders/create', body: { ...body }, group: 'orderCreate', repeatable: true, attemptsOn500: 1, schema: orderSchema }, signal),
    listOrders: (query: Paging & { state?: string; productRef?: number; createdFrom?: number; createdTo?: number } = {}, signal?: AbortSignal) =>
      send({ method: 'GET', path: '/orders', query: { ...query }, group: 'orderRead', repeatable: true, schema: orderListSchema }, signal),
    getOrder: (clientOrderRef: string, signal?: AbortSignal, lookup?: { readonly attemptsOn500: number }) =>
      send({ method: 'GET', path: orderPath(clientOrderRef), group: 'orderRead', repeatable: true, ...(lookup ? { attemptsOn500: lookup.attemptsOn500 } : {}), schema: orderSchema }, signal),
    // A code may have been taken even when no answer came: never sent twice automatically.
    submitVerificationCode: (clientOrderRef: string, verificationCode: string, signal?: AbortSignal) =>
      send(
        {
          method: 'POST',
          path: `${orderPath(clientOrderRef)}/verification-code`,
          body: { verificationCode },
          group: 'verification',
          cooldown: { kind: 'verification', orderRef: clientOrderRef },
          repeatable: false,
          schema: orderSchema,
        },
        signal,
      ),
    cancelOrder: (clientOrderRef: string, reason?: string, signal?: AbortSignal) =>
      send(
        {
          method: 'POST',
          path: `${orderPath(clientOrderRef)}/cancel`,
          body: reason === undefined ? {} : { reason },
          group: 'orderAction',
          cooldown: { kind: 'cancel', orderRef: clientOrderRef },
          repeatable: false,
          schema: orderSchema,
        },
        signal,
      ),
    requestRefund: (clientOrderRef: string, body: RefundBody, signal?: AbortSignal) =>
      send(
        {
          method: 'POST',
          path: `${orderPath(clientOrderRef)}/refunds`,
          body: {
            clientRefundRef: body.clientRefundRef,
            reason: body.reason,
            ...(body.amountFen === undefined ? {} : { amount: fenToYuanNumber(body.amountFen) }),
          },
          group: 'orderAction',
          cooldown: { kind: 'refund', orderRef: clientOrderRef },
          repeatable: true,
          schema: orderSchema,
        },
        signal,
      ),
    createAftersale: (body: AftersaleBody, signal?: AbortSignal) =>
      send({ method: 'POST', path: '/aftersales', body: { ...body }, group: 'aftersaleWrite', repeatable: true, schema: aftersaleCaseSchema }, signal),
    getAftersale: (platformCaseRef: string, signal?: AbortSignal) =>
      send({ method: 'GET', path: `/aftersales/${encodeURIComponent(platformCaseRef)}`, group: 'aftersaleRead', repeatable: true, schema: aftersaleCaseSchema }, signal),
    postAftersaleMessage: (platformCaseRef: string, body: MessageBody, signal?: AbortSignal) =>
      send(
        { method: 'POST', path: `/aftersales/${encodeURIComponent(platformCaseRef)}/messages`, body: { ...body }, group: 'aftersaleWrite', repeatable: true, schema: caseMessageSchema },
        signal,
      ),
  };
}

export type { MerchantResult };
