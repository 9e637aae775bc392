// An order's refunds as the screens show them: the merchant's recorded refunds (from authenticated
// details only) and our requests its detail does not show yet, and the summary a list row carries
// (contract §7.3: pending until the merchant's order says succeeded or rejected; a state this build
// does not know is kept raw, counted neither as pending nor as money back).
import type { Database } from 'better-sqlite3';
import type { RefundView } from '../../shared/ipc/views/orders';
import { classifyRefundState } from '../../shared/merchant/known-values';

interface RefundRow {
  refund_ref: string;
  client_refund_ref: string | null;
  amount_fen: number;
  state: string;
  reason: string | null;
  merchant_note: string | null;
  created_at: number;
  resolved_at: number | null;
}

interface RefundIntentRow {
  client_refund_ref: string;
  amount_fen: number | null;
  reason: string;
  status: string;
  last_error_code: string | null;
  created_at: number;
  resolved_at: number | null;
}

/** What a list row says of its refunds beyond the merchant's refundedAmount. */
export interface RefundSummary {
  /** Asked and not decided yet (our request on its way or accepted, or the merchant's pending refunds), fen. */
  readonly refundPendingFen: number;
  /** Refund states this build does not know, raw. */
  readonly refundUnknownStates: string[];
}

export interface OrderRefundViews {
  /** Recorded refunds, then our requests the merchant's detail does not list (yet). */
  refundsOf(clientOrderRef: string, order: { totalFen: number | null; refundedFen: number | null }): RefundView[];
  summaryOf(clientOrderRef: string, order: { totalFen: number | null; refundedFen: number | null }): RefundSummary;
}

export function summarizeRefunds(refunds: readonly RefundView[]): RefundSummary {
  let refundPendingFen = 0;
  const refundUnknownStates: string[] = [];
  for (const refund of refunds) {
    const c = classifyRefundState(refund.state);
    if (c.kind === 'unknown') refundUnknownStates.push(c.raw);
    else if (c.value === 'pending') refundPendingFen += refund.amountFen;
  }
  return { refundPendingFen, refundUnknownStates };
}

export function createOrderRefundViews(db: Database): OrderRefundViews {
  const recorded = db.prepare<[string], RefundRow>(
    'SELECT refund_ref, client_refund_ref, amount_fen, state, reason, merchant_note, created_at, resolved_at FROM refunds WHERE client_order_ref = ? ORDER BY created_at, refund_ref',
  );
  // Our requests the merchant's detail does not show yet: in flight, of unknown outcome, accepted
  // (its answer said pending; kept pending until a detail lists it) or refused when sent.
  const requested = db.prepare<[string], RefundIntentRow>(
    `SELECT ri.client_refund_ref, ri.amount_fen, ri.reason, ri.status, ri.last_error_code, ri.created_at, ri.resolved_at
     FROM refund_intents ri
     WHERE ri.client_order_ref = ? AND ri.status <> 'withdrawn'
       AND NOT EXISTS (SELECT 1 FROM refunds r WHERE r.client_refund_ref = ri.client_refund_ref)
     ORDER BY ri.created_at`,
  );

  const refundsOf = (clientOrderRef: string, order: { totalFen: number | null; refundedFen: number | null }): RefundView[] => [
    ...recorded.all(clientOrderRef).map((r) => ({
      refundRef: r.refund_ref,
      clientRefundRef: r.client_refund_ref,
      amountFen: r.amount_fen,
      state: r.state,
      reason: r.reason,
      merchantNote: r.merchant_note,
      requestErrorCode: null,
      createdAt: r.created_at,
      resolvedAt: r.resolved_at,
    })),
    ...requested.all(clientOrderRef).map((r) => {
      const refused = r.status === 'rejected';
      return {
        refundRef: null,
        clientRefundRef: r.client_refund_ref,
        // "Everything refundable" (null) is shown as the order's refundable rest, as far as known here.
        amountFen: r.amount_fen ?? Math.max(0, (order.totalFen ?? 0) - (order.refundedFen ?? 0)),
        // Refused when sent (the merchant's code says why), else on its way or waiting: the merchant's own word for both.
        state: refused ? 'rejected' : 'pending',
        reason: r.reason,
        merchantNote: null,
        requestErrorCode: refused ? r.last_error_code : null,
        createdAt: r.created_at,
        resolvedAt: refused ? r.resolved_at : null,
      };
    }),
  ];

  return {
    refundsOf,
    summaryOf: (clientOrderRef, order) => summarizeRefunds(refundsOf(clientOrderRef, order)),
  };
}
