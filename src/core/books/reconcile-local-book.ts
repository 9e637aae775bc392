// What the app holds, read for a reconciliation: its intents, the orders the merchant confirmed, their
// refunds, the vault's card counts and the foreign orders recorded (reconcile-compare.ts compares them).
// An order's amount is what the merchant first charged (0021), so a later change is a difference.
import type { Database } from 'better-sqlite3';
import type { BalanceOwner } from './balance-history';
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
    .prepare<[], OrderRow>('SELECT client_order_ref, platform_order_ref, product_name, product_type, state, units, coalesce(charged_fen, total_fen) AS total_fen, refunded_fen, created_at FROM orders')
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
