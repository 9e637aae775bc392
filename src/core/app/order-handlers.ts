// orders.*: the template for the form (orders/order-placement.ts), placing an order (the intent is durable before anything is
// sent; the outbox is poked to send it now), the list and detail views, and the actions, which core
// allows only when the stored allowedActions lists them.
import type { OrderDetail, WithdrawResult } from '../../shared/ipc/views/orders';
import type { MerchantServices } from '../create-core';
import { inFlightOrders } from '../orders/in-flight-orders';
import { getStoredOrder } from '../orders/order-store';
import { AppFailure } from './error-mapping';
import type { AppContext } from './app-context';
import type { HandlersFor } from './handler-types';
import { toTemplateView } from './view-mapping';

type Channels =
  | 'orders.template'
  | 'orders.place'
  | 'orders.list'
  | 'orders.get'
  | 'orders.submitVerificationCode'
  | 'orders.cancel'
  | 'orders.requestRefund'
  | 'orders.confirm'
  | 'orders.withdraw'
  | 'orders.retryFailing'
  | 'orders.refresh'
  | 'orders.inFlight';

function detailOf(ctx: AppContext, clientOrderRef: string): OrderDetail {
  const detail = ctx.orderViews.detail(clientOrderRef);
  if (detail === null) throw new AppFailure('NOT_FOUND', `no order ${clientOrderRef} here`);
  return detail;
}

export function orderHandlers(ctx: AppContext): HandlersFor<Channels> {
  /** Runs an action, then answers the order as stored (the action refreshed it) and tells the UI. */
  const act = async (clientOrderRef: string, action: (services: MerchantServices) => Promise<unknown>): Promise<OrderDetail> => {
    detailOf(ctx, clientOrderRef);
    const services = await ctx.merchant();
    try {
      await action(services);
    } finally {
      ctx.changed();
    }
    return detailOf(ctx, clientOrderRef);
  };

  return {
    // The one template source (trusted by revision, else fetched as the buyer's request); the merchant
    // away without a trusted template is MERCHANT_UNREACHABLE, and the dialog offers needs_template.
    'orders.template': async ({ productRef, variantRef }) => toTemplateView(await (await ctx.merchant()).placement.templateForForm(productRef, variantRef)),

    // Queued with its template, or needs_template while the merchant is away (contract §7.10).
    'orders.place': async (input) => {
      const services = await ctx.merchant();
      const intent = await services.placement.place({
        productRef: input.productRef,
        variantRef: input.variantRef,
        units: input.units,
        unitPriceFen: input.unitPriceFen,
        ...(input.purchaseEntries === undefined ? {} : { purchaseEntries: input.purchaseEntries }),
        ...(input.draftRef === undefined ? {} : { draftRef: input.draftRef }),
      });
      services.outbox.poke();
      ctx.changed();
      return detailOf(ctx, intent.clientOrderRef);
    },

    'orders.list': (filter) => ctx.orderViews.list(filter),

    'orders.inFlight': () => inFlightOrders(ctx.core.db),

    'orders.get': ({ clientOrderRef }) => detailOf(ctx, clientOrderRef),

    // Opening an order asks the merchant for it (through the quota model, which paces a buyer
    // clicking through many orders), so the actions offered come from its status now, not from the
    // last poll — even one a second ago. An intent the merchant does not hold yet has nothing to ask
    // about: the outbox decides its fate.
    'orders.refresh': async ({ clientOrderRef }) => {
      detailOf(ctx, clientOrderRef);
      const stored = getStoredOrder(ctx.core.db, clientOrderRef);
      if (stored === null) return detailOf(ctx, clientOrderRef);
      const services = await ctx.merchant();
      try {
        await services.tracker.refresh(clientOrderRef);
      } finally {
        ctx.changed();
      }
      return detailOf(ctx, clientOrderRef);
    },

    'orders.submitVerificationCode': ({ clientOrderRef, code }) => act(clientOrderRef, (s) => s.actions.submitVerificationCode(clientOrderRef, code)),

    'orders.cancel': ({ clientOrderRef, reason }) => act(clientOrderRef, (s) => s.actions.cancel(clientOrderRef, reason)),

    'orders.requestRefund': ({ clientOrderRef, amountFen, reason }) =>
      act(clientOrderRef, (s) => s.actions.requestRefund(clientOrderRef, { reason, ...(amountFen === undefined ? {} : { amountFen }) })),

    'orders.confirm': ({ clientOrderRef, units, purchaseEntries, unitPriceFen }) =>
      act(clientOrderRef, (s) => {
        s.intents.confirmIntent(clientOrderRef, { units, unitPriceFen, ...(purchaseEntries === undefined ? {} : { purchaseEntries }) });
        s.outbox.poke();
        return Promise.resolve();
      }),

    // The count of the merchant's 500s starts again; the outbox looks the order up first (contract §7.12).
    'orders.retryFailing': ({ clientOrderRef }) =>
      act(clientOrderRef, (s) => {
        s.outbox.retryFailing(clientOrderRef);
        return Promise.resolve();
      }),

    'orders.withdraw': async ({ clientOrderRef }) => {
      let outcome: WithdrawResult['outcome'] = 'checking';
      const order = await act(clientOrderRef, async (s) => {
        outcome = await s.outbox.withdraw(clientOrderRef);
      });
      return { outcome, order };
    },
  };
}
