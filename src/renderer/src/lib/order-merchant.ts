// Which merchant one of the app's orders belongs to, from what the renderer already holds: the orders
// list over every merchant tags each row (contract §15.2), the order's own detail does not.
import type { QueryClient } from '@tanstack/react-query';
import type { OrderDetail, OrderRow } from '../../../shared/ipc/views/orders';
import { keys } from '../queries/keys';

/** The merchant of one of the app's orders, as the orders list (over every merchant) last tagged it. */
export function merchantOfOrder(client: QueryClient, clientOrderRef: string): string | null {
  // Under ['orders'] sit the lists (rows) and single orders (details): only the lists carry merchants.
  for (const [, data] of client.getQueriesData<OrderRow[] | OrderDetail>({ queryKey: keys.orders })) {
    const row = Array.isArray(data) ? data.find((candidate) => candidate.clientOrderRef === clientOrderRef) : undefined;
    if (row?.merchant !== undefined) return row.merchant.profileId;
  }
  return null;
}

