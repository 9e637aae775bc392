// What the app holds, read for a reconciliation: its intents, the orders the merchant confirmed, their
// refunds, the vault's card counts and the foreign orders recorded (reconcile-compare.ts compares them),
// and the money it recorded moving in a range (the balance check).
import type { Database } from 'better-sqlite3';
import type { BalanceOwner } from './balance-history';
import type { RecordedFlows } from './reconcile-balance';
import type { LocalBook, LocalIntentFacts, LocalOrderFacts, MerchantRefundFacts } from './reconcile-compare';

interface IntentRow {
  client_order_ref: string;
  status: string;
  parked_from: string | null;
  units: number;
  product_type: string;
  created_at: number;
}

interface OrderRow {
  client_order_ref: string;
  platform_order_ref: string;
  product_name: string | null;
  product_type: string | null;
  state: string;
  units: number;
  total_fen: number;
  refunded_fen: number;
  created_at: number;
}

/**
 * The books around a range: every intent written or order created from a day before it on (an intent
 * queued offline the evening before is sent into the range), and every order the list may name.
 */
export function readLocalBook(db: Database, owner: BalanceOwner, since: number): LocalBook {
  const intents = new Map<string, LocalIntentFacts>();
  const intentRows = db
    .prepare<[number, number], IntentRow>(
      `SELECT i.client_order_ref, i.status, i.parked_from, i.units, i.product_type, i.created_at FROM order_intents i
       LEFT JOIN orders o ON o.client_order_ref = i.client_order_ref
       WHERE i.created_at >= ? OR o.created_at >= ?`,
    )
    .all(since, since);
  for (const row of intentRows) {
    intents.set(row.client_order_ref, { clientOrderRef: row.client_order_ref, status: row.status, parkedFromUnknown: row.parked_from === 'unknown', units: row.units, productType: row.product_type, createdAt: row.created_at });
  }
  const refunds = new Map<string, MerchantRefundFacts[]>();
  for (const r of db.prepare<[], { client_order_ref: string; refund_ref: string; amount_fen: number; state: string }>('SELECT client_order_ref, refund_ref, amount_fen, state FROM refunds').all()) {
    const list = refunds.get(r.client_order_ref) ?? [];
    list.push({ refundRef: r.refund_ref, amountFen: r.amount_fen, state: r.state });
    refunds.set(r.client_order_ref, list);
  }
  const orders = new Map<string, LocalOrderFacts>();
  const orderRows = db
    .prepare<[], OrderRow>('SELECT client_order_ref, platform_order_ref, product_name, product_type, state, units, total_fen, refunded_fen, created_at FROM orders')
    .all();
  for (const o of orderRows) {
    if (!intents.has(o.client_order_ref)) continue;
    orders.set(o.client_order_ref, {
      clientOrderRef: o.client_order_ref,
      platformOrderRef: o.platform_order_ref,
      productName: o.product_name,
      productType: o.product_type,
      state: o.state,
      units: o.units,
      totalFen: o.total_fen,
      refundedFen: o.refunded_fen,
      createdAt: o.created_at,
      refunds: refunds.get(o.client_order_ref) ?? [],
    });
  }
  const vaultCards = new Map<string, number>();
  for (const c of db.prepare<[], { client_order_ref: string; n: number }>('SELECT client_order_ref, count(*) AS n FROM cards GROUP BY client_order_ref').all()) vaultCards.set(c.client_order_ref, c.n);
  const foreign = new Set(
    db.prepare<[string, string], { client_order_ref: string }>('SELECT client_order_ref FROM foreign_orders WHERE base_url = ? AND user_id = ?').all(owner.baseUrl, owner.userId).map((r) => r.client_order_ref),
  );
  return { intents, orders, vaultCards, foreign };
}

/**
 * Money the app recorded moving in [from, to] (Unix seconds): the charge of each order created in it
 * (its own and recorded foreign ones), each refund that succeeded in it, and the automatic refund of a
 * failed or cancelled order (the part of refunded_fen no refund record explains) when it ended in it.
 */
export function recordedFlows(db: Database, owner: BalanceOwner, from: number, to: number): RecordedFlows {
  const charges = db
    .prepare<[number, number, string, string, number, number], { fen: number | null }>(
      `SELECT coalesce((SELECT sum(total_fen) FROM orders WHERE created_at BETWEEN ? AND ?), 0)
            + coalesce((SELECT sum(total_fen) FROM foreign_orders WHERE base_url = ? AND user_id = ? AND created_at BETWEEN ? AND ?), 0) AS fen`,
    )
    .get(from, to, owner.baseUrl, owner.userId, from, to);
  const refunds = db.prepare<[number, number], { fen: number | null }>("SELECT sum(amount_fen) AS fen FROM refunds WHERE state = 'succeeded' AND resolved_at BETWEEN ? AND ?").get(from, to);
  const automatic = db
    .prepare<[number, number], { fen: number | null }>(
      `SELECT sum(o.refunded_fen - coalesce((SELECT sum(r.amount_fen) FROM refunds r WHERE r.client_order_ref = o.client_order_ref AND r.state = 'succeeded'), 0)) AS fen
       FROM orders o WHERE o.state IN ('failed', 'cancelled') AND o.completed_at BETWEEN ? AND ?`,
    )
    .get(from, to);
  const foreignRefunds = db
    .prepare<[string, string, number, number], { fen: number | null }>('SELECT sum(refunded_fen) AS fen FROM foreign_orders WHERE base_url = ? AND user_id = ? AND coalesce(completed_at, created_at) BETWEEN ? AND ?')
    .get(owner.baseUrl, owner.userId, from, to);
  return { chargesFen: charges?.fen ?? 0, refundsFen: (refunds?.fen ?? 0) + (automatic?.fen ?? 0) + (foreignRefunds?.fen ?? 0) };
}
