// Storage of orders per account, with the lookups and the filtered list of contract §7.5.
import { ApiError } from '../http/api-error';
import type { Order, OrderState } from './order-records';

export interface OrderFilter {
  state: string | null;
  productRef: number | null;
  createdFrom: number | null;
  createdTo: number | null;
}

export class OrderBook {
  private readonly byAccount = new Map<number, Map<string, Order>>();
  private sequence = 0;

  private table(accountRef: number): Map<string, Order> {
    let table = this.byAccount.get(accountRef);
    if (!table) {
      table = new Map();
      this.byAccount.set(accountRef, table);
    }
    return table;
  }

  find(accountRef: number, clientOrderRef: string): Order | undefined {
    return this.byAccount.get(accountRef)?.get(clientOrderRef);
  }

  get(accountRef: number, clientOrderRef: string): Order {
    const order = this.find(accountRef, clientOrderRef);
    if (!order) throw new ApiError('ORDER_NOT_FOUND', 'no such order for this account');
    return order;
  }

  /** For the control API, which names an order without its account. */
  findAnywhere(clientOrderRef: string): Order | undefined {
    for (const table of this.byAccount.values()) {
      const order = table.get(clientOrderRef);
      if (order) return order;
    }
    return undefined;
  }

  /** The control API's "drop": the merchant forgets the order (a test of orders it never received). */
  remove(order: Order): void {
    this.byAccount.get(order.accountRef)?.delete(order.clientOrderRef);
  }

  add(order: Order): void {
    this.table(order.accountRef).set(order.clientOrderRef, order);
  }

  /** The merchant's order number: the sandbox date and a running number, digits kept as a string. */
  nextPlatformRef(nowSeconds: number): string {
    const day = new Date(nowSeconds * 1000).toISOString().slice(0, 10).replaceAll('-', '');
    this.sequence += 1;
    return `${day}${String(this.sequence).padStart(8, '0')}`;
  }

  list(accountRef: number, filter: OrderFilter): Order[] {
    const orders = [...(this.byAccount.get(accountRef)?.values() ?? [])].reverse();
    return orders.filter(
      (o) =>
        (filter.state === null || o.state === (filter.state as OrderState)) &&
        (filter.productRef === null || o.productRef === filter.productRef) &&
        (filter.createdFrom === null || o.createdAt >= filter.createdFrom) &&
        (filter.createdTo === null || o.createdAt <= filter.createdTo),
    );
  }
}
