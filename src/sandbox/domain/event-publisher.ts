// Turns merchant-side changes into webhook messages: builds the bodies (interface v1 §2.4, contract §10) and
// picks each message's one address when it is generated (interface v1 §6.1).
import { randomBytes } from 'node:crypto';
import type { SandboxClock } from '../clock';
import type { WebhookDispatcher } from '../webhooks/webhook-dispatcher';
import type { Account, AccountStore } from './account-store';
import type { ChangedProperty } from './catalog-store';
import type { Product } from './catalog-types';
import { productSnapshot } from './catalog-wire';
import type { Order } from './order-records';
import { orderToWire } from './order-records';
import type { SubscriptionStore } from './subscription-store';

export type OrderChangedProperty = 'state' | 'refunds' | 'allowedActions';

function newEventId(): string {
  return `evt_${randomBytes(12).toString('hex')}`;
}

export class EventPublisher {
  constructor(
    private readonly dispatcher: WebhookDispatcher,
    private readonly clock: SandboxClock,
    private readonly accounts: AccountStore,
    private readonly subscriptions: SubscriptionStore,
  ) {}

  productChanged(product: Product, changedProperties: ChangedProperty[]): void {
    const now = this.clock.nowSeconds();
    for (const { accountRef, subscription } of this.subscriptions.subscribers(product.productRef, now)) {
      const account = this.accounts.byAccountRef(accountRef);
      const url = subscription.callbackUrl ?? account?.defaultCallbackUrl ?? null;
      if (url === null) continue;
      const eventId = newEventId();
      this.dispatcher.enqueue({
        eventId,
        eventType: 'product.changed',
        url,
        body: {
          eventId,
          eventType: 'product.changed',
          occurredAt: now,
          productRef: product.productRef,
          revision: product.revision,
          changedProperties,
          productSnapshot: productSnapshot(product),
        },
        // Interface v1 §6.4.7: only this task's own subscription is cancelled.
        onFinalFailure: () => void this.subscriptions.cancelGeneration(accountRef, product.productRef, subscription.generation),
      });
    }
  }

  orderChanged(account: Account, order: Order, changedProperties: OrderChangedProperty[]): void {
    this.send(account, order, 'order.changed', {
      clientOrderRef: order.clientOrderRef,
      platformOrderRef: order.platformOrderRef,
      revision: order.revision,
      changedProperties,
      orderSnapshot: orderToWire(order, false),
    });
  }

  credentialsReady(account: Account, order: Order): void {
    this.send(account, order, 'order.credentials.ready', {
      clientOrderRef: order.clientOrderRef,
      platformOrderRef: order.platformOrderRef,
      card_list: (order.cards ?? []).map((c) => ({ ...c })),
    });
  }

  aftersaleMessage(account: Account, order: Order, payload: { platformCaseRef: string; caseState: string; message: Record<string, unknown> }): void {
    this.send(account, order, 'aftersale.message.created', { ...payload, clientOrderRef: order.clientOrderRef });
  }

  /** Order-related messages go to the order's own address, else the default current now (interface v1 §6.1). */
  private send(account: Account, order: Order, eventType: string, fields: Record<string, unknown>): void {
    const url = order.orderCallbackUrl ?? account.defaultCallbackUrl;
    if (url === null) return;
    const eventId = newEventId();
    this.dispatcher.enqueue({ eventId, eventType, url, body: { eventId, eventType, occurredAt: this.clock.nowSeconds(), ...fields } });
  }
}
