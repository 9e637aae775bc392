// Foreign orders (foreign_orders, migration 0019): orders placed elsewhere with the same account,
// recorded read-only from the merchant's authenticated detail so the books count their money. They are
// not intents: nothing in the app can act on one as its own (no outbox, tracker, action or case).
import type { Database } from 'better-sqlite3';
import type { Order } from '../../shared/merchant/order';
import type { BalanceOwner } from './balance-history';

export class ForeignOrderRefusedError extends Error {
  override readonly name = 'ForeignOrderRefusedError';
}

export interface ForeignOrderRow {
  readonly clientOrderRef: string;
  readonly platformOrderRef: string;
  readonly productName: string | null;
  readonly units: number;
  readonly totalFen: number;
  readonly refundedFen: number;
  readonly state: string;
  readonly revision: number;
  readonly createdAt: number;
}

/**
 * Records (or updates, never to a lower revision) the merchant's detail of an order the app did not
 * place. Refused for the app's own orders: those are refreshed through the tracker instead.
 */
export function recordForeignOrder(db: Database, owner: BalanceOwner, order: Order, requestId: string | null, nowMs: number): ForeignOrderRow {
  const own = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM order_intents WHERE client_order_ref = ?').get(order.clientOrderRef);
  if ((own?.n ?? 0) > 0) throw new ForeignOrderRefusedError(`${order.clientOrderRef} is an order of this app, not a foreign one`);
  db.prepare(
    `INSERT INTO foreign_orders (base_url, user_id, client_order_ref, platform_order_ref, product_name, units, total_fen, refunded_fen, state, revision, created_at, completed_at, detail_json, recorded_at_ms, request_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (base_url, user_id, client_order_ref) DO UPDATE SET platform_order_ref = excluded.platform_order_ref, product_name = excluded.product_name,
       units = excluded.units, total_fen = excluded.total_fen, refunded_fen = excluded.refunded_fen, state = excluded.state, revision = excluded.revision,
       completed_at = excluded.completed_at, detail_json = excluded.detail_json, recorded_at_ms = excluded.recorded_at_ms, request_id = excluded.request_id
     WHERE excluded.revision >= foreign_orders.revision`,
  ).run(
    owner.baseUrl,
    owner.userId,
    order.clientOrderRef,
    order.platformOrderRef,
    order.productName,
    order.units,
    order.totalAmount,
    order.refundedAmount,
    order.state,
    order.revision,
    order.createdAt,
    order.completedAt,
    // Stored without its cards: a foreign order's codes are not the app's to keep.
    JSON.stringify({ ...order, card_list: null }),
    nowMs,
    requestId,
  );
  return listForeignOrders(db, owner).find((o) => o.clientOrderRef === order.clientOrderRef) as ForeignOrderRow;
}

export function listForeignOrders(db: Database, owner: BalanceOwner): ForeignOrderRow[] {
  return db
    .prepare<[string, string], { client_order_ref: string; platform_order_ref: string; product_name: string | null; units: number; total_fen: number; refunded_fen: number; state: string; revision: number; created_at: number }>(
      'SELECT client_order_ref, platform_order_ref, product_name, units, total_fen, refunded_fen, state, revision, created_at FROM foreign_orders WHERE base_url = ? AND user_id = ? ORDER BY created_at DESC',
    )
    .all(owner.baseUrl, owner.userId)
    .map((r) => ({
      clientOrderRef: r.client_order_ref,
      platformOrderRef: r.platform_order_ref,
      productName: r.product_name,
      units: r.units,
      totalFen: r.total_fen,
      refundedFen: r.refunded_fen,
      state: r.state,
      revision: r.revision,
      createdAt: r.created_at,
    }));
}
