// Whether an order's webhooks reach this receiver. The merchant keeps the callback address an order
// got at its first submission, and no call can change it afterwards (interface v1 §4.2 rule 1, §6.1;
// contract "callbackUrl"): when our callback URL changes (a tunnel's new public address, a port that
// was taken, a rotated path), the merchant keeps sending the older orders' messages to the old one.
// Such an order is followed by polling at the normal pace, never the rare pace that live webhooks
// allow, and the health panel counts it, so the buyer is told how it is tracked.
import type { Database } from 'better-sqlite3';

/** The address the merchant sends an order's messages to: as it saved it, else as we sent it. */
const ORDER_ADDRESS = 'coalesce(o.order_callback_url, i.order_callback_url)';

export interface CallbackReach {
  /** The order's messages go to `currentUrl` (null: no receiver now, so they reach nothing of ours). */
  reaches(clientOrderRef: string, currentUrl: string | null): boolean;
  /** Orders still followed (a poll planned) whose messages go anywhere but `currentUrl`. */
  elsewhere(currentUrl: string | null): number;
}

export function createCallbackReach(db: Database): CallbackReach {
  const address = db.prepare<[string], { address: string | null }>(
    `SELECT ${ORDER_ADDRESS} AS address FROM order_intents i LEFT JOIN orders o ON o.client_order_ref = i.client_order_ref WHERE i.client_order_ref = ?`,
  );
  const elsewhere = db.prepare<{ url: string | null }, { n: number }>(
    `SELECT count(*) AS n FROM orders o JOIN order_intents i ON i.client_order_ref = o.client_order_ref
     WHERE o.next_poll_at IS NOT NULL AND (@url IS NULL OR coalesce(${ORDER_ADDRESS}, '') <> @url)`,
  );
  return {
    reaches(clientOrderRef: string, currentUrl: string | null): boolean {
      return currentUrl !== null && address.get(clientOrderRef)?.address === currentUrl;
    },
    elsewhere: (currentUrl: string | null): number => elsewhere.get({ url: currentUrl })?.n ?? 0,
  };
}
