// The orders screen's reads: our intent joined with the merchant's order as last seen, names from the
// catalog cache while the merchant has not answered yet, refunds (recorded ones and our unresolved
// refund requests, order-refund-views.ts) and the masked cards. Named statements over core's tables; nothing is written.
import type { Database } from 'better-sqlite3';
import type { OrderDetail, OrderRow } from '../../shared/ipc/views/orders';
import { listStateHistory } from '../orders/order-store';
import type { PurchaseTemplate } from '../../shared/merchant/template';
import { readStoredEntries } from '../orders/stored-entries';
import { readCachedTemplate } from '../orders/template-cache';
import type { VaultReader } from '../vault/vault-reader';
import { detailEntries, listedAccount, readEntries, type ReadEntries } from './entry-views';
import { toMaskedCardView } from './view-mapping';
import { createOrderRefundViews, summarizeRefunds, type RefundSummary } from './order-refund-views';

interface JoinedRow {
  client_order_ref: string;
  status: string;
  product_ref: number;
  variant_ref: number;
  units: number;
  last_error_code: string | null;
  last_error_message: string | null;
  last_request_id: string | null;
  request_ids_json: string;
  server_failures: number;
  created_at: number;
  updated_at: number;
  state: string | null;
  platform_order_ref: string | null;
  product_name: string | null;
  variant_title: string | null;
  order_units: number | null;
  unit_price_fen: number | null;
  total_fen: number | null;
  refunded_fen: number | null;
  allowed_actions_json: string | null;
  failure_reason: string | null;
  verification_hint: string | null;
  completed_at: number | null;
  confirmed_unit_price_fen: number | null;
  guard_unit_price_fen: number | null;
  unavailable_reason: string | null;
  purchase_entries_json: string | null;
  recharged_entries_sealed: Buffer | null;
}

const SELECT_JOINED = `
  SELECT i.client_order_ref, i.status, i.product_ref, i.variant_ref, i.units, i.last_error_code, i.last_error_message,
         i.last_request_id, i.request_ids_json, i.server_failures, i.created_at, max(i.updated_at, coalesce(o.fetched_at, 0)) AS updated_at,
         o.state, o.platform_order_ref, coalesce(o.product_name, p.name) AS product_name, coalesce(o.variant_title, v.title) AS variant_title,
         o.units AS order_units, o.unit_price_fen, o.total_fen, o.refunded_fen, o.allowed_actions_json, o.failure_reason,
         o.verification_hint, o.completed_at, i.confirmed_unit_price_fen, i.guard_unit_price_fen, i.unavailable_reason,
         i.purchase_entries_json, i.recharged_entries_sealed
  FROM order_intents i
  LEFT JOIN orders o ON o.client_order_ref = i.client_order_ref
  LEFT JOIN products p ON p.product_ref = i.product_ref
  LEFT JOIN variants v ON v.product_ref = i.product_ref AND v.variant_ref = i.variant_ref`;

function allowedActions(json: string | null): string[] {
  if (json === null) return [];
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((a): a is string => typeof a === 'string') : [];
}

/** The cached template of a variant, read at most once per view (only orders kept before labels ask). */
function templateReader(db: Database): (productRef: number, variantRef: number) => PurchaseTemplate | null {
  const seen = new Map<string, PurchaseTemplate | null>();
  return (productRef, variantRef) => {
    const key = `${productRef}/${variantRef}`;
    if (!seen.has(key)) seen.set(key, readCachedTemplate(db, productRef, variantRef));
    return seen.get(key) ?? null;
  };
}

/** The entries as they will be sent (plain, before acceptance) or as they were recharged (sealed, after), with their picked options. */
function entriesOf(row: JoinedRow, vault: VaultReader, template: ReturnType<typeof templateReader>): ReadEntries | null {
  const stored =
    row.recharged_entries_sealed !== null
      ? vault.openRechargedEntries(row.client_order_ref, row.recharged_entries_sealed)
      : row.purchase_entries_json === null
        ? null
        : readStoredEntries(row.purchase_entries_json);
  return stored === null ? null : readEntries(stored, () => template(row.product_ref, row.variant_ref));
}

function toRow(row: JoinedRow, entries: ReadEntries | null, refunds: RefundSummary): OrderRow {
  return {
    clientOrderRef: row.client_order_ref,
    intentStatus: row.status,
    state: row.state,
    platformOrderRef: row.platform_order_ref,
    productRef: row.product_ref,
    variantRef: row.variant_ref,
    productName: row.product_name,
    variantTitle: row.variant_title,
    units: row.order_units ?? row.units,
    totalFen: row.total_fen,
    refundedFen: row.refunded_fen,
    ...refunds,
    allowedActions: allowedActions(row.allowed_actions_json),
    lastErrorCode: row.last_error_code,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    confirmedUnitPriceFen: row.confirmed_unit_price_fen,
    ...listedAccount(entries),
  };
}

export interface OrderListFilter {
  readonly intentStatus?: string | undefined;
  readonly state?: string | undefined;
  readonly limit?: number | undefined;
}

const DEFAULT_ORDER_LIST_LIMIT = 200;

/** The stored orders as the renderer sees them. */
export interface OrderViews {
  /** The orders list as the renderer shows it (intents and orders, newest first), filtered. */
  list(filter: OrderListFilter): OrderRow[];
  /** One order with its refunds, masked cards and state history; null when unknown. */
  detail(clientOrderRef: string): OrderDetail | null;
}

export function createOrderViews(db: Database, vault: VaultReader): OrderViews {
  const list = db.prepare<{ status: string | null; state: string | null; limit: number }, JoinedRow>(
    `${SELECT_JOINED}
     WHERE (@status IS NULL OR i.status = @status) AND (@state IS NULL OR o.state = @state)
     ORDER BY i.created_at DESC, i.rowid DESC LIMIT @limit`,
  );
  const one = db.prepare<[string], JoinedRow>(`${SELECT_JOINED} WHERE i.client_order_ref = ?`);
  const refundViews = createOrderRefundViews(db);
  const money = (row: JoinedRow) => ({ totalFen: row.total_fen, refundedFen: row.refunded_fen });

  return {
    list(filter: OrderListFilter): OrderRow[] {
      const template = templateReader(db);
      return list
        .all({ status: filter.intentStatus ?? null, state: filter.state ?? null, limit: filter.limit ?? DEFAULT_ORDER_LIST_LIMIT })
        .map((row) => toRow(row, entriesOf(row, vault, template), refundViews.summaryOf(row.client_order_ref, money(row))));
    },

    detail(clientOrderRef: string): OrderDetail | null {
      const row = one.get(clientOrderRef);
      if (row === undefined) return null;
      const refunds = refundViews.refundsOf(clientOrderRef, money(row));
      const template = templateReader(db);
      const entries = entriesOf(row, vault, template);
      const labels = new Map((template(row.product_ref, row.variant_ref)?.purchaseFields ?? []).map((f) => [f.fieldRef, f.label]));
      return {
        ...toRow(row, entries, summarizeRefunds(refunds)),
        unitPriceFen: row.unit_price_fen,
        confirmedTotalFen: row.confirmed_unit_price_fen === null ? null : row.confirmed_unit_price_fen * row.units,
        guardUnitPriceFen: row.guard_unit_price_fen,
        unavailableReason: row.unavailable_reason,
        rechargedEntries: entries === null ? null : detailEntries(entries, labels),
        failureReason: row.failure_reason,
        verificationHint: row.verification_hint,
        lastErrorMessage: row.last_error_message,
        lastRequestId: row.last_request_id,
        requestIds: JSON.parse(row.request_ids_json) as string[],
        serverFailures: row.server_failures,
        completedAt: row.completed_at,
        refunds,
        cards: vault.listCards(clientOrderRef).map(toMaskedCardView),
        stateHistory: listStateHistory(db, clientOrderRef).map((step) => ({ state: step.state, at: step.at })),
      };
    },
  };
}

