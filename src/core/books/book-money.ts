// The one definition of the money the books say moved (contract §12.4): every reader of "the day's
// charges and refunds" (reconciliation's balance check and report, the spend report and both exports)
// takes it from here, so they cannot disagree. The entries mirror the merchant's ledger: a charge when
// an order was created, a refund when money came back. Orders are the app's own and the recorded
// foreign ones of the same merchant and user.
import type { Database } from 'better-sqlite3';
import { isRefundSucceeded } from '../../shared/merchant/known-values';
import type { BalanceOwner } from './balance-history';

export interface MoneyEntry {
  readonly kind: 'charge' | 'refund';
  readonly clientOrderRef: string;
  /** Positive fen; kind gives the direction. */
  readonly amountFen: number;
  /** Merchant seconds: the order's createdAt for its charge, the moment the money came back for a refund. */
  readonly at: number;
}

/** An order the entries belong to, with what the spend report groups and counts by. */
export interface BookOrder {
  readonly clientOrderRef: string;
  readonly foreign: boolean;
  readonly productRef: number | null;
  readonly productType: string | null;
  readonly productName: string | null;
  readonly state: string;
  readonly createdAt: number;
  readonly completedAt: number | null;
  /** What the merchant charged when it first told the app (0021): never a later, changed amount. */
  readonly chargedFen: number;
}

export interface BookMoney {
  /** Entries with `at` in the window, oldest first. */
  readonly entries: readonly MoneyEntry[];
  /** Every order an entry names, and every order created in the window. */
  readonly orders: ReadonlyMap<string, BookOrder>;
}

interface RefundFacts {
  readonly amountFen: number;
  readonly state: string;
  readonly resolvedAt: number | null;
}

interface OrderMoneyRow {
  ref: string;
  product_ref: number | null;
  product_type: string | null;
  product_name: string | null;
  state: string;
  created_at: number;
  updated_at: number;
  completed_at: number | null;
  charged_fen: number | null;
  total_fen: number;
  refunded_fen: number;
}

/** Orders whose money may fall in [from, to]: created in it, or refunded (or changed) from its start on. */
const OWN_ORDERS = `SELECT o.client_order_ref AS ref, o.product_ref, o.product_type, o.product_name, o.state, o.created_at, o.updated_at, o.completed_at,
         o.charged_fen, o.total_fen, o.refunded_fen
    FROM orders o
   WHERE o.created_at <= @to AND (o.created_at >= @from
         OR (o.refunded_fen > 0 AND (max(o.updated_at, coalesce(o.completed_at, 0)) >= @from
             OR EXISTS (SELECT 1 FROM refunds r WHERE r.client_order_ref = o.client_order_ref AND r.resolved_at >= @from))))`;

const FOREIGN_ORDERS = `SELECT client_order_ref AS ref, json_extract(detail_json, '$.productRef') AS product_ref, json_extract(detail_json, '$.productType') AS product_type,
         product_name, state, created_at, coalesce(json_extract(detail_json, '$.updatedAt'), created_at) AS updated_at, completed_at,
         charged_fen, total_fen, refunded_fen, detail_json
    FROM foreign_orders
   WHERE base_url = @baseUrl AND user_id = @userId AND created_at <= @to
     AND (created_at >= @from OR (refunded_fen > 0 AND max(coalesce(json_extract(detail_json, '$.updatedAt'), 0), coalesce(completed_at, 0)) >= @from))`;

const asNumberOrNull = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** The refunds a foreign order's stored detail names (amounts in fen, as stored). */
function foreignRefunds(detailJson: string): RefundFacts[] {
  const detail: unknown = JSON.parse(detailJson);
  if (typeof detail !== 'object' || detail === null || !('refunds' in detail) || !Array.isArray(detail.refunds)) return [];
  const list: unknown[] = detail.refunds;
  const out: RefundFacts[] = [];
  for (const r of list) {
    if (typeof r !== 'object' || r === null) continue;
    const amount = 'amount' in r ? asNumberOrNull(r.amount) : null;
    const state = 'state' in r && typeof r.state === 'string' ? r.state : '';
    if (amount !== null) out.push({ amountFen: amount, state, resolvedAt: 'resolvedAt' in r ? asNumberOrNull(r.resolvedAt) : null });
  }
  return out;
}

/**
 * An order's entries: its charge at createdAt; each refund that succeeded when it was resolved; the part
 * of the merchant's refundedAmount no succeeded refund explains (the full refund of a failure or a
 * cancel) when the order ended. Refunds never add up to more than the charge.
 */
export function orderEntries(row: OrderMoneyRow, refunds: readonly RefundFacts[]): MoneyEntry[] {
  const charged = row.charged_fen ?? row.total_fen;
  const entries: MoneyEntry[] = [{ kind: 'charge', clientOrderRef: row.ref, amountFen: charged, at: row.created_at }];
  let left = charged;
  const refund = (amount: number, at: number): void => {
    const fen = Math.min(Math.max(amount, 0), left);
    if (fen <= 0) return;
    left -= fen;
    entries.push({ kind: 'refund', clientOrderRef: row.ref, amountFen: fen, at });
  };
  const succeeded = refunds.filter((r) => isRefundSucceeded(r.state)).sort((a, b) => (a.resolvedAt ?? row.updated_at) - (b.resolvedAt ?? row.updated_at));
  for (const r of succeeded) refund(r.amountFen, r.resolvedAt ?? row.updated_at);
  const explained = succeeded.reduce((sum, r) => sum + r.amountFen, 0);
  const ended = row.state === 'failed' || row.state === 'cancelled' ? (row.completed_at ?? row.updated_at) : row.updated_at;
  refund(row.refunded_fen - explained, Math.max(ended, row.created_at));
  return entries;
}

const bookOrder = (row: OrderMoneyRow, foreign: boolean): BookOrder => ({
  clientOrderRef: row.ref,
  foreign,
  productRef: row.product_ref,
  productType: row.product_type,
  productName: row.product_name,
  state: row.state,
  createdAt: row.created_at,
  completedAt: row.completed_at,
  chargedFen: row.charged_fen ?? row.total_fen,
});

/**
 * The money the books say moved in [fromSec, toSec] (merchant seconds, inclusive). `owner` names whose
 * recorded foreign orders count (null: none, e.g. while not connected).
 */
export function bookMoney(db: Database, owner: BalanceOwner | null, fromSec: number, toSec: number): BookMoney {
  const window = { from: fromSec, to: toSec };
  const refundsByOrder = new Map<string, RefundFacts[]>();
  const refundRows = db
    .prepare<[number], { client_order_ref: string; amount_fen: number; state: string; resolved_at: number | null }>(
      'SELECT r.client_order_ref, r.amount_fen, r.state, r.resolved_at FROM refunds r JOIN orders o ON o.client_order_ref = r.client_order_ref WHERE o.created_at <= ?',
    )
    .all(toSec);
  for (const r of refundRows) {
    const list = refundsByOrder.get(r.client_order_ref) ?? [];
    list.push({ amountFen: r.amount_fen, state: r.state, resolvedAt: r.resolved_at });
    refundsByOrder.set(r.client_order_ref, list);
  }
  const orders = new Map<string, BookOrder>();
  const entries: MoneyEntry[] = [];
  const take = (row: OrderMoneyRow, foreign: boolean, refunds: readonly RefundFacts[]): void => {
    const inWindow = orderEntries(row, refunds).filter((e) => e.at >= fromSec && e.at <= toSec);
    if (inWindow.length === 0 && (row.created_at < fromSec || row.created_at > toSec)) return;
    orders.set(row.ref, bookOrder(row, foreign));
    entries.push(...inWindow);
  };
  for (const row of db.prepare<typeof window, OrderMoneyRow>(OWN_ORDERS).all(window)) take(row, false, refundsByOrder.get(row.ref) ?? []);
  if (owner !== null) {
    for (const row of db.prepare<typeof window & BalanceOwner, OrderMoneyRow & { detail_json: string }>(FOREIGN_ORDERS).all({ ...window, ...owner })) {
      if (!orders.has(row.ref)) take(row, true, foreignRefunds(row.detail_json));
    }
  }
  entries.sort((a, b) => a.at - b.at || a.clientOrderRef.localeCompare(b.clientOrderRef) || (a.kind === b.kind ? 0 : a.kind === 'charge' ? -1 : 1));
  return { entries, orders };
}

/** Charges and refunds of a set of entries, fen. */
export function moneyTotals(entries: readonly MoneyEntry[]): { chargesFen: number; refundsFen: number } {
  let chargesFen = 0;
  let refundsFen = 0;
  for (const e of entries) {
    if (e.kind === 'charge') chargesFen += e.amountFen;
    else refundsFen += e.amountFen;
  }
  return { chargesFen, refundsFen };
}
