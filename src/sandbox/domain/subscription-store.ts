// Product subscriptions per account (interface v1 §3.2). Every creation or renewal gets a new generation so
// that a failed delivery task cancels only the subscription it belonged to (interface v1 §6.4.7).

export interface Subscription {
  productRef: number;
  generation: number;
  expiresAt: number;
  /** The product's own callback address (from an order or the subscription call); null = default. */
  callbackUrl: string | null;
  cancelled: boolean;
}

export type SubscriptionState = 'subscribed' | 'expired' | 'unsubscribed';

export class SubscriptionStore {
  private readonly byAccount = new Map<number, Map<number, Subscription>>();
  private nextGeneration = 1;

  constructor(private readonly ttlSeconds: number) {}

  private table(accountRef: number): Map<number, Subscription> {
    let table = this.byAccount.get(accountRef);
    if (!table) {
      table = new Map();
      this.byAccount.set(accountRef, table);
    }
    return table;
  }

  subscribe(accountRef: number, productRef: number, callbackUrl: string | null, now: number): Subscription {
    const subscription: Subscription = { productRef, generation: this.nextGeneration++, expiresAt: now + this.ttlSeconds, callbackUrl, cancelled: false };
    this.table(accountRef).set(productRef, subscription);
    return subscription;
  }

  unsubscribe(accountRef: number, productRef: number): void {
    const existing = this.table(accountRef).get(productRef);
    if (existing) existing.cancelled = true;
  }

  /** The subscription when it is current and unexpired, else null. */
  active(accountRef: number, productRef: number, now: number): Subscription | null {
    const subscription = this.byAccount.get(accountRef)?.get(productRef);
    return subscription && !subscription.cancelled && subscription.expiresAt > now ? subscription : null;
  }

  state(accountRef: number, productRef: number, now: number): { state: SubscriptionState; expiresAt: number | null } {
    const subscription = this.byAccount.get(accountRef)?.get(productRef);
    if (!subscription || subscription.cancelled) return { state: 'unsubscribed', expiresAt: subscription?.expiresAt ?? null };
    return { state: subscription.expiresAt > now ? 'subscribed' : 'expired', expiresAt: subscription.expiresAt };
  }

  /** Accounts holding a current subscription of the product, for product.changed messages. */
  subscribers(productRef: number, now: number): { accountRef: number; subscription: Subscription }[] {
    const result: { accountRef: number; subscription: Subscription }[] = [];
    for (const [accountRef, table] of this.byAccount) {
      const subscription = table.get(productRef);
      if (subscription && !subscription.cancelled && subscription.expiresAt > now) result.push({ accountRef, subscription });
    }
    return result;
  }

  /** After a third failed delivery: cancel only if nothing renewed or re-created it meanwhile. */
  cancelGeneration(accountRef: number, productRef: number, generation: number): boolean {
    const subscription = this.byAccount.get(accountRef)?.get(productRef);
    if (!subscription || subscription.generation !== generation) return false;
    subscription.cancelled = true;
    return true;
  }
}
