// Composes the merchant: stores, lifecycle and desks around one clock and one webhook dispatcher.
import type { SandboxClock } from '../clock';
import type { WebhookDispatcher } from '../webhooks/webhook-dispatcher';
import { AccountStore } from './account-store';
import { AftersaleDesk } from './aftersale-desk';
import { CatalogStore } from './catalog-store';
import type { SeedCatalog } from './catalog-types';
import { EventPublisher } from './event-publisher';
import type { MerchantContext, MerchantSettings } from './merchant-context';
import { OrderActions } from './order-actions';
import { OrderBook } from './order-book';
import { OrderCreation } from './order-creation';
import { OrderLifecycle } from './order-lifecycle';
import { SubscriptionStore } from './subscription-store';

export interface Merchant {
  ctx: MerchantContext;
  orders: OrderBook;
  lifecycle: OrderLifecycle;
  creation: OrderCreation;
  actions: OrderActions;
  aftersales: AftersaleDesk;
}

export interface MerchantOptions {
  clock: SandboxClock;
  catalog: SeedCatalog;
  dispatcher: WebhookDispatcher;
  settings: MerchantSettings;
  subscriptionTtlSeconds: number;
}

export function createMerchant(options: MerchantOptions): Merchant {
  const accounts = new AccountStore();
  const catalog = new CatalogStore(options.catalog, options.clock);
  const subscriptions = new SubscriptionStore(options.subscriptionTtlSeconds);
  const publisher = new EventPublisher(options.dispatcher, options.clock, accounts, subscriptions);
  catalog.onChange((product, changed) => publisher.productChanged(product, changed));
  const ctx: MerchantContext = { clock: options.clock, accounts, catalog, subscriptions, publisher, settings: options.settings };
  const orders = new OrderBook();
  const lifecycle = new OrderLifecycle(ctx);
  return {
    ctx,
    orders,
    lifecycle,
    creation: new OrderCreation(ctx, orders, lifecycle),
    actions: new OrderActions(ctx, lifecycle),
    aftersales: new AftersaleDesk(ctx, orders),
  };
}
